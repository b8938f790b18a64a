import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrateToLatest } from './migrations.ts';

export type Db = Kysely<Database>;
export type DbExecutor = Kysely<Database> | Transaction<Database>;

// Return bigint counts as numbers and timestamps as Date (pg's defaults, made explicit for counts).
pg.types.setTypeParser(20, (value) => Number(value));

export function createPool(connectionString: string, poolSize: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // A broken idle connection must never crash the process; the next query gets a fresh one.
  pool.on('error', () => undefined);
  return pool;
}

export function createDb(connectionString: string, poolSize: number): Db {
  return dbOnPool(createPool(connectionString, poolSize));
}

export function dbOnPool(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Who a transaction acts for. Row-level security reads these settings (set per transaction with
 * set_config(..., true)): a user reaches their own rows; admin and system reach what their policies allow.
 */
export type Actor = { kind: 'user'; userId: string } | { kind: 'admin'; userId: string } | { kind: 'system' };

export async function withActor<T>(
  db: Db,
  actor: Actor,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const userId = actor.kind === 'system' ? '' : actor.userId;
    await sql`select set_config('app.user_id', ${userId}, true), set_config('app.actor', ${actor.kind}, true)`.execute(
      trx,
    );
    return work(trx);
  });
}

/**
 * The same transaction as withActor, on the driver's own client: for COPY streams, which Kysely cannot run.
 * `work` resolves when the client's work is done (a stream fully read or written); then it commits.
 */
export async function withActorClient<T>(
  pool: pg.Pool,
  actor: Actor,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const userId = actor.kind === 'system' ? '' : actor.userId;
    await client.query(`select set_config('app.user_id', $1, true), set_config('app.actor', $2, true)`, [
      userId,
      actor.kind,
    ]);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((e: unknown) => (broken = e as Error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Migrates the schema as its owner and makes sure the application's own role exists: a login role that is neither
 * superuser nor owner and cannot bypass row-level security (docs/decisions/003-database-roles.md).
 */
export async function prepareSchema(options: {
  ownerUrl: string;
  appRole: string;
  appPassword: string | null;
}): Promise<string[]> {
  const owner = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.ownerUrl, max: 2 }) }),
  });
  try {
    const applied = await migrateToLatest(owner);
    if (options.appPassword !== null) await ensureAppRole(owner, options.appRole, options.appPassword);
    await grantAppRole(owner, options.appRole);
    return applied;
  } finally {
    await owner.destroy();
  }
}

async function ensureAppRole(owner: Kysely<unknown>, role: string, password: string): Promise<void> {
  // Roles are cluster-wide, but advisory locks are per database: servers of two databases on one cluster (tests,
  // or two products sharing a server) can still race on the role's catalog row. Such a race is retried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureAppRoleOnce(owner, role, password);
    } catch (error) {
      const message = (error as Error).message;
      const raced = /tuple concurrently updated|pg_authid_rolname_index|already exists/.test(message);
      if (!raced || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 50));
    }
  }
}

async function ensureAppRoleOnce(owner: Kysely<unknown>, role: string, password: string): Promise<void> {
  const ident = sql.id(role);
  // Two instances of one database starting together wait for each other here.
  await sql`select pg_advisory_lock(727274)`.execute(owner);
  try {
    const exists = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_roles where rolname = ${role}`.execute(owner);
    if (exists.rows[0]?.n === 0) await sql`create role ${ident} login`.execute(owner);
    await sql`alter role ${ident} login nosuperuser nocreatedb nocreaterole nobypassrls password ${sql.lit(password)}`.execute(
      owner,
    );
  } finally {
    await sql`select pg_advisory_unlock(727274)`.execute(owner);
  }
}

async function grantAppRole(owner: Kysely<unknown>, role: string): Promise<void> {
  const ident = sql.id(role);
  const database = await sql<{ db: string }>`select current_database() as db`.execute(owner);
  await sql`grant connect on database ${sql.id(database.rows[0]?.db ?? '')} to ${ident}`.execute(owner);
  await sql`grant usage on schema public to ${ident}`.execute(owner);
  await sql`grant select, insert, update, delete on all tables in schema public to ${ident}`.execute(owner);
  await sql`grant usage, select on all sequences in schema public to ${ident}`.execute(owner);
  // The migration bookkeeping stays the owner's.
  await sql`revoke insert, update, delete on schema_migrations, schema_migrations_lock from ${ident}`.execute(
    owner,
  );
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
