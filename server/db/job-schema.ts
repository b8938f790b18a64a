import { sql, type Kysely } from 'kysely';
import { Logger, runMigrations } from 'graphile-worker';

/** graphile-worker's own schema, installed and upgraded by the library (docs/decisions/016-job-queue.md). */
export const JOB_SCHEMA = 'graphile_worker';

const quiet = new Logger(() => () => {});

/** Installs or upgrades the job queue's tables, as the schema owner, before the product's own migrations. */
export async function installJobSchema(ownerUrl: string): Promise<void> {
  await runMigrations({ connectionString: ownerUrl, logger: quiet, schema: JOB_SCHEMA });
}

/**
 * Lets the app role use the job queue: it adds jobs inside its own transactions and runs the workers, but never
 * changes the queue's schema (each instance finds it up to date at start and runs no DDL).
 */
export async function grantJobSchema(owner: Kysely<unknown>, role: string): Promise<void> {
  const ident = sql.id(role);
  const schema = sql.id(JOB_SCHEMA);
  await sql`grant usage on schema ${schema} to ${ident}`.execute(owner);
  await sql`grant select, insert, update, delete on all tables in schema ${schema} to ${ident}`.execute(
    owner,
  );
  await sql`grant usage, select on all sequences in schema ${schema} to ${ident}`.execute(owner);
  await sql`grant execute on all functions in schema ${schema} to ${ident}`.execute(owner);
  await sql`revoke insert, update, delete on ${schema}.migrations from ${ident}`.execute(owner);
  // The queue turns row security on for its tables (for PostGraphile users); the app role sees every job, as the
  // owner does: jobs name their owners in their payloads and the tasks act as those owners.
  const secured = await sql<{ table: string }>`
    select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${JOB_SCHEMA} and c.relkind = 'r' and c.relrowsecurity`.execute(owner);
  for (const { table } of secured.rows) {
    const target = sql`${schema}.${sql.id(table)}`;
    await sql`drop policy if exists app_role_all on ${target}`.execute(owner);
    await sql`create policy app_role_all on ${target} to ${ident} using (true) with check (true)`.execute(
      owner,
    );
  }
}
