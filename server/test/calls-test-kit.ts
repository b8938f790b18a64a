import { newRequestId } from '#domain/calls/call-guard.ts';
import type { App } from '../app.ts';
import { asCookie, type Session, type TestContext } from './test-app.ts';

/** Places a call as `as` (POST /api/calls with a fresh request id). */
export const placeCallAs = (app: App, as: Session, payload: object) =>
  app.inject({
    method: 'POST',
    url: '/api/calls',
    headers: asCookie(as),
    payload: { requestId: newRequestId(), ...payload },
  });

/** A call's row as the database holds it. */
export const callRowOf = async (ctx: TestContext, id: string) =>
  (
    await ctx.db.admin.query(
      'select status, duration_seconds, answered_at, ended_at, error from calls where id = $1',
      [id],
    )
  ).rows[0] as {
    status: string;
    duration_seconds: number | null;
    answered_at: Date | null;
    ended_at: Date | null;
    error: string | null;
  };

/** Reads until `done` says so, or `ms` have passed (then the last value read). */
export const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
};
