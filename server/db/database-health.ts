import pg from 'pg';

export type DatabaseHealth =
  { ok: true } | { ok: false; reason: 'unreachable' | 'pool-exhausted' | 'login-refused' };

/** How long the health check waits for a pooled connection before it calls the pool exhausted. */
const ACQUIRE_MS = 2000;
/** How often a fresh login is tried (each is a new connection, so not on every check). */
const LOGIN_EVERY_MS = 15_000;

/**
 * The health of this instance's database access, as a load balancer should judge it (GET /api/health):
 *  - the pool gives a connection within 2 s and it answers a query (not: every connection held by stuck work);
 *  - a brand-new connection can still log in, tried at most every 15 s (not: the existing connections work while
 *    the role's password or the server's limits would refuse any new one).
 */
export function createDatabaseHealth(pool: pg.Pool, connectionString: string): () => Promise<DatabaseHealth> {
  let lastLogin: { at: number; ok: boolean } | null = null;

  async function pooledQuery(): Promise<DatabaseHealth> {
    let timer: NodeJS.Timeout | undefined;
    const acquiring = pool.connect();
    const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ACQUIRE_MS)));
    const client = await Promise.race([acquiring, timedOut]).finally(() => clearTimeout(timer));
    if (!client) {
      // Given back as soon as the pool hands it over, late.
      void acquiring.then((c) => c.release()).catch(() => undefined);
      return { ok: false, reason: 'pool-exhausted' };
    }
    try {
      await client.query('select 1');
      client.release();
      return { ok: true };
    } catch (error) {
      client.release(error as Error);
      return { ok: false, reason: 'unreachable' };
    }
  }

  async function freshLogin(): Promise<boolean> {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: ACQUIRE_MS });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  return async () => {
    const pooled = await pooledQuery().catch((): DatabaseHealth => ({ ok: false, reason: 'unreachable' }));
    if (!pooled.ok) return pooled;
    if (!lastLogin || Date.now() - lastLogin.at > LOGIN_EVERY_MS || !lastLogin.ok)
      lastLogin = { at: Date.now(), ok: await freshLogin() };
    return lastLogin.ok ? { ok: true } : { ok: false, reason: 'login-refused' };
  };
}
