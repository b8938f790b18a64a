import { sql, type SelectQueryBuilder } from 'kysely';
import type { CallReport } from '#domain/reports/call-report.schema.ts';
import type { Database } from '../../db/schema.ts';
import type { Db, DbExecutor } from '../../db/database.ts';
import { afterKeyset, keysetPosition, pageOf } from '../../db/keyset.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The call's disposition when one was saved for it (the latest, kept on the call by a trigger), else "abandoned" for
 * a live answer no rep took (decision 026), else "missed" for a call that came in and nobody answered (decision
 * 028), else how it ended. The same as the search text's (migration 0035).
 */
const outcome = sql<string>`coalesce(c.disposition, case
  when c.abandoned_at is not null then 'abandoned'
  when c.direction = 'inbound' and c.answered_at is null and c.status in ('no-answer', 'busy', 'failed', 'canceled')
    then 'missed'
  else c.status end)`;

/**
 * The user's calls as the Call Reports page reads them, newest first: optionally only those whose
 * contact id, notes or outcome contain the text (any case).
 */
export function callReportsQuery(
  db: Db | DbExecutor,
  userId: string,
  search: string | undefined,
): SelectQueryBuilder<Database & { c: Database['calls'] }, 'c', object> {
  let query = db.selectFrom('calls as c').where('c.user_id', '=', userId);
  if (search) {
    // report_text (migration 0022): contact id, notes and the outcome in both spellings, under a trigram index.
    const pattern = `%${escapeLike(search.toLowerCase())}%`;
    query = query.where(sql<boolean>`c.report_text like ${pattern}`);
  }
  return query;
}

/** A page of the user's call reports; `after` is the `next` of the page before. */
export async function findCallReports(
  db: DbExecutor,
  userId: string,
  page: { search?: string | undefined; after?: string | undefined; limit: number },
): Promise<{ reports: CallReport[]; next: string | null }> {
  let query = callReportsQuery(db, userId, page.search)
    .select([
      'c.id',
      'c.contact_id',
      'c.project_id',
      'c.notes',
      'c.started_at',
      'c.direction',
      outcome.as('outcome'),
    ])
    .select(keysetPosition('c.started_at', 'c.id').as('position'))
    .orderBy('c.started_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit + 1);
  if (page.after) query = query.where(afterKeyset('c.started_at', 'c.id', page.after));
  const rows = await query.execute();
  const { shown, next } = pageOf(rows, page.limit);
  return {
    reports: shown.map((r) => ({
      callId: r.id,
      contactId: r.contact_id,
      projectId: r.project_id,
      outcome: r.outcome,
      direction: r.direction,
      notes: r.notes,
      createdAt: r.started_at.toISOString(),
    })),
    next,
  };
}

/**
 * The export's SELECT: the spec's columns, then Direction (inbound or outbound), every text cell passed through csv_safe (formula-safe,
 * as the contacts export), Created At in ISO 8601, newest first.
 */
export function callReportsExportQuery(db: Db, userId: string, search: string | undefined) {
  const safe = (expression: ReturnType<typeof sql>) => sql<string>`csv_safe(coalesce(${expression}, ''))`;
  return callReportsQuery(db, userId, search)
    .select([
      sql<string>`c.id::text`.as('call_id'),
      sql<string>`coalesce(c.contact_id::text, '')`.as('contact_id'),
      sql<string>`coalesce(c.project_id::text, '')`.as('project_id'),
      safe(outcome).as('outcome'),
      safe(sql`c.notes`).as('notes'),
      sql<string>`to_char(c.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created_at'),
      sql<string>`c.direction`.as('direction'),
    ])
    .orderBy('c.started_at', 'desc')
    .orderBy('c.id', 'desc');
}
