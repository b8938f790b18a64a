import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import { IMPORT_PACE } from '#domain/contacts/import-pace.ts';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrateToLatest } from './migrations.ts';
import { grantJobSchema, installJobSchema } from './job-schema.ts';
import { ACT_AS_SQL, ActorPostgresDialect } from './actor-transactions.ts';
import { prepareRepeatedStatements } from './prepared-statements.ts';

export type Db = Kysely<Database>;
export type DbExecutor = Kysely<Database> | Transaction<Database>;

// Return bigint counts as numbers and timestamps as Date (pg's defaults, made explicit for counts). A calendar date
// (a project's deadline) stays 'yyyy-mm-dd': as a Date it would become midnight in the server's time zone.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1082, (value) => value);

/** How long a request waits for a pooled connection before it is answered 503 (the server is overloaded). */
export const POOL_ACQUIRE_TIMEOUT_MS = 10_000;

/** Connections for imports' batches, apart from the requests' pool: one per batch an import saves at once. */
export const BULK_POOL_SIZE = IMPORT_PACE.savers;

/**
 * The application's connection pool. Nothing can hold a connection for good: a request waits at most 10 s for one;
 * a statement runs at most 5 minutes; a transaction left idle (its code waiting on something else) is ended by the
 * server after 2 minutes, releasing its locks and its connection. A connection once opened stays open (`min` is
 * the pool's size; decision 057): a busy spell after a quiet one never waits for PostgreSQL to start backends.
 * `prepareStatements`: its connections prepare the statements they repeat (decision 049).
 */
export function createPool(
  connectionString: string,
  poolSize: number,
  {
    acquireTimeoutMs = POOL_ACQUIRE_TIMEOUT_MS,
    prepareStatements = false,
    idleTimeoutMs = 30_000,
  }: { acquireTimeoutMs?: number; prepareStatements?: boolean; idleTimeoutMs?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    min: poolSize,
    // Closes only a connection beyond `min`: none of this pool's (a test shortens it to see that).
    idleTimeoutMillis: idleTimeoutMs,
    connectionTimeoutMillis: acquireTimeoutMs,
    statement_timeout: 5 * 60_000,
    idle_in_transaction_session_timeout: 2 * 60_000,
  });
  // A broken idle connection must never crash the process; the next query gets a fresh one.
  pool.on('error', () => undefined);
  if (prepareStatements) prepareRepeatedStatements(pool);
  return pool;
}

/**
 * Opens the pool's `size` connections now, so the first busy spell waits for no backend to start (decision 057;
 * with `min` they then stay open). A database not reachable yet is no error here: the pool opens connections on
 * demand as before.
 */
export async function openEveryConnection(pool: pg.Pool, size: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
}

export function createDb(connectionString: string, poolSize: number): Db {
  return dbOnPool(createPool(connectionString, poolSize));
}

export function dbOnPool(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new ActorPostgresDialect({ pool }) });
}

/**
 * Who a transaction acts for. Row-level security reads these settings (set per transaction with
 * set_config(..., true)): a user reaches their own rows; admin and system reach what their policies allow.
 */
export type Actor = { kind: 'user'; userId: string } | { kind: 'admin'; userId: string } | { kind: 'system' };

/**
 * ACT_AS_SQL is the one statement that makes a transaction act for someone: parameters from actorParameters. `quiet`
 * holds back the per-row change notices (a bulk import announces itself once, at the end).
 */
export { ACT_AS_SQL };

export function actorParameters(actor: Actor, options: { quiet?: boolean } = {}): [string, string, string] {
  return [actor.kind === 'system' ? '' : actor.userId, actor.kind, options.quiet ? 'on' : 'off'];
}

export async function withActor<T>(
  db: Db,
  actor: Actor,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw(ACT_AS_SQL, actorParameters(actor)));
    return work(trx);
  });
}

/**
 * withActor for work that is nothing but statements (no mail, no provider call): retried from the start when
 * PostgreSQL broke a deadlock by ending it (40P01), at most three times. Rare, but a contact deleted while a queue is
 * walked can take the same locks in the other order; the user should not see that as an error.
 */
export async function withActorRetryingDeadlocks<T>(
  db: Db,
  actor: Actor,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withActor(db, actor, work);
    } catch (error) {
      if (attempt >= 3 || (error as { code?: string }).code !== '40P01') throw error;
    }
  }
}

/**
 * The same transaction as withActor, on the driver's own client: for COPY streams, which Kysely cannot run.
 * `work` resolves when the client's work is done (a stream fully read or written); then it commits. When it fails
 * (a client that went away mid-download, a broken stream), the connection is closed rather than rolled back: it may
 * be in the middle of a COPY, where a ROLLBACK would wait behind data nobody reads. PostgreSQL rolls back a
 * transaction whose connection closes.
 */
export async function withActorClient<T>(
  pool: pg.Pool,
  actor: Actor,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await client.query('begin');
    await client.query(ACT_AS_SQL, actorParameters(actor));
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

/**
 * Migrates the schema as its owner and makes sure the application's own role exists: a login role that is neither
 * superuser nor owner and cannot bypass row-level security (docs/decisions/003-database-roles-and-rls.md). Returns
 * the role's password, which the database records (app_role_credentials, readable by the owner only) the first time
 * and every instance reads from then on (docs/decisions/011-hardening.md): an instance never resets a password the
 * others are using, whatever its own secrets or start order. `appPassword` is the password to record when none is
 * recorded yet; null when the app connects with its own DATABASE_APP_URL and the role is not ours to manage.
 */
export async function prepareSchema(options: {
  ownerUrl: string;
  appRole: string;
  appPassword: string | null;
}): Promise<{ applied: string[]; appPassword: string | null }> {
  const owner = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.ownerUrl, max: 2 }) }),
  });
  try {
    // The job queue's schema first: migrations may queue jobs.
    await installJobSchema(options.ownerUrl);
    const applied = await migrateToLatest(owner);
    const appPassword =
      options.appPassword === null
        ? null
        : await ensureAppRole(owner, options.ownerUrl, options.appRole, options.appPassword);
    await grantAppRole(owner, options.appRole);
    await grantJobSchema(owner, options.appRole);
    return { applied, appPassword };
  } finally {
    await owner.destroy();
  }
}

async function ensureAppRole(
  owner: Kysely<unknown>,
  ownerUrl: string,
  role: string,
  candidate: string,
): Promise<string> {
  // Roles are cluster-wide, but advisory locks are per database: servers of two databases on one cluster (tests,
  // or two products sharing a server) can still race on the role's catalog row. Such a race is retried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureAppRoleOnce(owner, ownerUrl, role, candidate);
    } catch (error) {
      const message = (error as Error).message;
      const raced = /tuple concurrently updated|pg_authid_rolname_index|already exists/.test(message);
      if (!raced || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 50));
    }
  }
}

async function ensureAppRoleOnce(
  owner: Kysely<unknown>,
  ownerUrl: string,
  role: string,
  candidate: string,
): Promise<string> {
  const ident = sql.id(role);
  // Instances of one database starting together wait for each other here.
  await sql`select pg_advisory_lock(727274)`.execute(owner);
  try {
    const recorded = await sql<{ password: string }>`
      select password from app_role_credentials where role = ${role}`.execute(owner);
    const password = recorded.rows[0]?.password ?? candidate;
    const exists = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_roles where rolname = ${role}`.execute(owner);
    if (exists.rows[0]?.n === 0) await sql`create role ${ident} login`.execute(owner);
    await sql`alter role ${ident} login nosuperuser nocreatedb nocreaterole nobypassrls`.execute(owner);
    // The password changes only when it does not work: a recorded one that someone changed by hand, or the first
    // start of this database. Existing connections of other instances keep working either way.
    if (!(await canLogIn(appUrlFrom(ownerUrl, role, password))))
      await sql`alter role ${ident} password ${sql.lit(password)}`.execute(owner);
    if (!recorded.rows[0])
      await sql`insert into app_role_credentials (role, password) values (${role}, ${password})`.execute(
        owner,
      );
    return password;
  } finally {
    await sql`select pg_advisory_unlock(727274)`.execute(owner);
  }
}

async function canLogIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function grantAppRole(owner: Kysely<unknown>, role: string): Promise<void> {
  const ident = sql.id(role);
  const database = await sql<{ db: string }>`select current_database() as db`.execute(owner);
  await sql`grant connect on database ${sql.id(database.rows[0]?.db ?? '')} to ${ident}`.execute(owner);
  await sql`grant usage on schema public to ${ident}`.execute(owner);
  await sql`grant select, insert, update, delete on all tables in schema public to ${ident}`.execute(owner);
  await sql`grant usage, select on all sequences in schema public to ${ident}`.execute(owner);
  // The one thing the role may ask of the owner: a fresh sample of the contacts (migration 0053, decision 042).
  await sql`grant execute on function refresh_contact_statistics() to ${ident}`.execute(owner);
  // The migration bookkeeping stays the owner's; the role's own password is the owner's to read.
  await sql`revoke insert, update, delete on schema_migrations, schema_migrations_lock from ${ident}`.execute(
    owner,
  );
  await sql`revoke all on app_role_credentials from ${ident}`.execute(owner);
}

/** The app's connection string: the owner's address with the app role's credentials. */
export function appUrlFrom(ownerUrl: string, role: string, password: string): string {
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

export async function ensureDatabaseExists(superuserUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
