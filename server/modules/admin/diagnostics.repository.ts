import { sql } from 'kysely';
import type { Diagnostics } from '#domain/admin/admin.schema.ts';
import type { DbExecutor } from '../../db/database.ts';

const EXACT_COUNT_LIMIT = 100_000;

/** The Debug DB panel: is the database there, which version, which migration, how many rows per table. */
export async function readDiagnostics(db: DbExecutor, now: Date): Promise<Diagnostics> {
  const version = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db);
  const migrations = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(
    db,
  );
  const tables = await sql<{ table: string; estimate: number }>`
    select c.relname as "table", greatest(c.reltuples, 0)::bigint as estimate
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'schema_migrations%'
      and has_table_privilege(c.oid, 'select')
    order by c.relname`.execute(db);
  const rowCounts: Diagnostics['rowCounts'] = [];
  for (const t of tables.rows) {
    // Exact while cheap; the planner's estimate for very large tables.
    const rows =
      t.estimate > EXACT_COUNT_LIMIT
        ? t.estimate
        : ((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t.table)}`.execute(db))
            .rows[0]?.n ?? 0);
    rowCounts.push({ table: t.table, rows });
  }
  return {
    databaseReachable: true,
    serverVersion: version.rows[0]?.v ?? 'unknown',
    migrationLevel: migrations.rows.at(-1)?.name ?? null,
    migrationsApplied: migrations.rows.length,
    rowCounts,
    checkedAt: now.toISOString(),
  };
}
