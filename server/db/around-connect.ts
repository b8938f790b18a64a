import type pg from 'pg';

export type Connect = (...args: unknown[]) => unknown;

/**
 * Puts `around` in front of a pool's `connect()`, in both its forms (a promise, or a callback as the last argument):
 * it is handed the call's arguments and the connect it wraps. Several can be put on one pool; the last put runs first.
 */
export function aroundConnect(pool: pg.Pool, around: (args: unknown[], connect: Connect) => unknown): void {
  const connect = pool.connect.bind(pool) as Connect;
  (pool as unknown as { connect: Connect }).connect = (...args: unknown[]) => around(args, connect);
}
