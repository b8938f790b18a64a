import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { EXPORT_COLUMNS } from '#domain/contacts/contact-csv.ts';
import type { ContactTab, ParsedContactFilter } from '#domain/contacts/contact-list.schema.ts';
import { streamCsv } from '../../db/copy-csv.ts';
import type { AppContext } from '../../app-context.ts';
import { applyContactFilters } from '../contacts/public.ts';
import { inlineParameters } from '../../db/inline-parameters.ts';

export type ExportScope =
  | { kind: 'all' }
  | { kind: 'filter'; filter: ParsedContactFilter; tab: ContactTab }
  | { kind: 'ids'; ids: string[] };

/**
 * The export's SELECT: the spec's columns in list order, every cell passed through csv_safe (the
 * SQL twin of escapeCell), notes with commas as semicolons, tags joined with semicolons, Last Updated in ISO 8601.
 */
function exportQuery(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string, scope: ExportScope): string {
  const safe = (expression: ReturnType<typeof sql>) => sql<string>`csv_safe(coalesce(${expression}, ''))`;
  let q = ctx.db
    .selectFrom('contacts')
    .select([
      safe(sql`first_name`).as('first_name'),
      safe(sql`last_name`).as('last_name'),
      safe(sql`email`).as('email'),
      safe(sql`phone`).as('phone'),
      safe(sql`company`).as('company'),
      safe(sql`title`).as('title'),
      safe(sql`replace(notes, ',', ';')`).as('notes'),
      sql<string>`status`.as('status'),
      safe(sql`array_to_string(tags, ';')`).as('tags'),
      sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('last_updated'),
    ]);
  if (scope.kind === 'filter') q = applyContactFilters(q, userId, scope.filter, scope.tab, ctx.clock());
  else q = q.where('contacts.user_id', '=', userId);
  if (scope.kind === 'ids')
    q = q.where('id', 'in', scope.ids.length > 0 ? scope.ids : ['00000000-0000-0000-0000-000000000000']);
  const compiled = q.orderBy('created_at', 'desc').orderBy('id', 'desc').compile();
  // COPY takes no bind parameters; the values inlined are our own validated filter (quoted as literals).
  return inlineParameters(compiled.sql, compiled.parameters);
}

/**
 * Streams the user's contacts as CSV straight from PostgreSQL (streamCsv): byte-order mark, the spec's header, then
 * every row; never built in memory and never paged through the API.
 */
export function streamContactsCsv(
  ctx: Pick<AppContext, 'db' | 'pool' | 'clock'>,
  userId: string,
  scope: ExportScope,
  onError: (error: unknown) => void,
): Readable {
  return streamCsv(ctx.pool, userId, EXPORT_COLUMNS, exportQuery(ctx, userId, scope), onError);
}
