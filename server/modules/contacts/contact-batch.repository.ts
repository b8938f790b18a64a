import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type pg from 'pg';
import type { DuplicateMode, ImportedContact, SkippedRow } from '#domain/contacts/contact-import.ts';

/*
 * An import's batch of contacts, written set-based on one connection inside the caller's transaction: the rows are
 * copied (the database's bulk path) into a temporary table that lives for the transaction, matched to existing
 * contacts, skipped or updated (with history), and the new ones inserted.
 */

/**
 * A checked row as the line COPY reads (its number as in the file, then its fields). Rows wait for a saver in this
 * form: one flat string each, a third of the memory of the parsed objects, and none of the parsed chunk they came
 * from kept alive.
 */
export type CopyLine = string;
export type BatchResult = { created: number; updated: number; skipped: SkippedRow[] };

/** Batch columns, in COPY order. */
const COLUMNS = [
  'row_no',
  'first_name',
  'last_name',
  'email',
  'email_key',
  'phone',
  'phone_e164',
  'company',
  'title',
  'website',
  'notes',
  'status',
  'tags',
  'time_zone',
  'state',
] as const;

/** Imported column, history name: the fields an import may change on an existing contact. */
const UPDATABLE = [
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['company', 'company'],
  ['title', 'title'],
  ['website', 'website'],
  ['notes', 'notes'],
  ['status', 'status'],
  ['tags', 'tags'],
  ['time_zone', 'timeZone'],
  ['state', 'state'],
] as const;

const csvField = (v: string | null) => (v === null ? '' : `"${v.replaceAll('"', '""')}"`);
const arrayLiteral = (items: readonly string[]) =>
  `{${items.map((t) => `"${t.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;

export function toCopyLine(row: number, c: ImportedContact): CopyLine {
  return `${[
    String(row),
    c.firstName,
    c.lastName,
    c.email,
    c.email ? c.email.toLowerCase() : null,
    c.phone,
    c.phoneE164,
    c.company,
    c.title,
    c.website,
    c.notes,
    c.status,
    c.tags ? arrayLiteral(c.tags) : null,
    c.timeZone,
    c.state,
  ]
    .map(csvField)
    .join(',')}\n`;
}

const changed = (col: string) =>
  col === 'tags'
    ? '(b.tags is not null and b.tags is distinct from c.tags)'
    : `(nullif(b.${col}, '') is not null and b.${col} is distinct from c.${col})`;
const jsonOf = (side: 'b' | 'c') =>
  UPDATABLE.map(
    ([col, name]) =>
      `case when ${changed(col)} then jsonb_build_object('${name}', ${side}.${col}) else '{}'::jsonb end`,
  ).join(' || ');

/**
 * Sends a batch to COPY a thousand rows at a time, giving the event loop a turn between slices so the server keeps
 * answering other requests while a large import runs.
 */
async function copyRows(copy: Writable, rows: readonly CopyLine[]): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    copy.on('finish', resolve);
    copy.on('error', reject);
  });
  for (let i = 0; i < rows.length; i += 1000) {
    const ok = copy.write(rows.slice(i, i + 1000).join(''));
    await (ok ? new Promise((resolve) => setImmediate(resolve)) : once(copy, 'drain'));
  }
  copy.end();
  await done;
}

/**
 * Statements of one batch, run in its own transaction on the saver's connection. Rows are matched to existing
 * contacts by e-mail when they have one, otherwise by phone (two people sharing a switchboard number are not
 * merged by it); two rows of the batch finding the same contact: the later is skipped.
 */
const MATCH = [
  // One index lookup per row, whatever the planner believes about tables that grow while the import runs.
  `update import_batch b set match_id = (select c.id from contacts c
     where c.user_id = $1 and c.email <> '' and c.email_key = b.email_key limit 1)
   where b.email_key is not null`,
  `update import_batch b set match_id = (select c.id from contacts c
     where c.user_id = $1 and c.phone_e164 = b.phone_e164 limit 1)
   where b.email_key is null`,
  `update import_batch b set skip_reason = 'Same contact as row ' || f.first_row || ' of this file'
   from (select match_id, min(row_no) as first_row from import_batch where match_id is not null
         group by match_id having count(*) > 1) f
   where b.match_id = f.match_id and b.row_no > f.first_row`,
];

const SKIP_MATCHED = `
  update import_batch set skip_reason = case when email_key is not null
    then 'Already in your contacts (same e-mail)' else 'Already in your contacts (same phone number)' end
  where skip_reason is null and match_id is not null`;

/**
 * "Update" duplicates: each matched contact takes the file's non-empty values (an empty cell never erases), and
 * every contact that changes gets one history entry with the changed fields, old and new values (decision 000),
 * set-based, in the same transaction. Rows that change nothing are reported as already up to date.
 */
const UPDATE_MATCHED = [
  `create temp table import_changes on commit drop as
   select c.id as contact_id, b.row_no,
     array_remove(array[${UPDATABLE.map(([col, name]) => `case when ${changed(col)} then '${name}' end`).join(', ')}]::text[], null) as changed,
     ${jsonOf('c')} as previous_values, ${jsonOf('b')} as new_values,
     ${UPDATABLE.map(([col]) => `b.${col} as n_${col}`).join(', ')}, b.phone_e164 as n_phone_e164
   from import_batch b join contacts c on c.id = b.match_id and c.user_id = $1
   where b.skip_reason is null and b.match_id is not null`,
  `insert into contact_history (contact_id, user_id, changed_fields, previous_values, new_values, changed_at)
   select contact_id, $1, changed, previous_values, new_values, $2 from import_changes where cardinality(changed) > 0`,
  `update contacts c set ${UPDATABLE.map(([col, name]) => `${col} = case when '${name}' = any(u.changed) then u.n_${col} else c.${col} end`).join(', ')},
     phone_e164 = case when 'phone' = any(u.changed) then u.n_phone_e164 else c.phone_e164 end, updated_at = $2
   from import_changes u where c.id = u.contact_id and c.user_id = $1 and cardinality(u.changed) > 0`,
  `update import_batch b set skip_reason = 'Already up to date'
   from import_changes u where b.row_no = u.row_no and cardinality(u.changed) = 0`,
];

/**
 * New contacts of the batch in one statement. created_at steps back a microsecond per row so the list (newest first)
 * shows them in the file's order. Their places in the default queue come after the whole file (the queues module's queueImportedRows).
 */
const INSERT_NEW = `
  with inserted as (
    insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, company, title, website, notes,
      status, tags, time_zone, state, synced, last_synced_at, created_at, updated_at)
    select $1, first_name, coalesce(last_name, ''), coalesce(email, ''), phone, phone_e164, company, title, website,
      notes, coalesce(status, 'new'), coalesce(tags, '{}'), time_zone, state, true, $2,
      $2::timestamptz - make_interval(secs => row_no / 1000000.0), $2
    from import_batch where skip_reason is null and match_id is null order by row_no
    returning 1
  )
  select count(*)::int as n from inserted`;

/** A statement of a batch and the parameters it names: none, $1 the user, or also $2 the import's time. */
type Statement = { text: string; params: 'none' | 'user' | 'user-and-time' };
const noParams = (text: string): Statement => ({ text, params: 'none' });
const userOnly = (text: string): Statement => ({ text, params: 'user' });
const userAndTime = (text: string): Statement => ({ text, params: 'user-and-time' });

const MATCH_STATEMENTS = [userOnly(MATCH[0]!), userOnly(MATCH[1]!), noParams(MATCH[2]!)];
const SKIP_MATCHED_STATEMENT = noParams(SKIP_MATCHED);
const UPDATE_MATCHED_STATEMENTS: Statement[] = [
  userOnly(UPDATE_MATCHED[0]!),
  userAndTime(UPDATE_MATCHED[1]!),
  userAndTime(UPDATE_MATCHED[2]!),
  noParams(UPDATE_MATCHED[3]!),
];
/** The statement of UPDATE_MATCHED that updates the contacts (its row count is the number updated). */
const UPDATE_CONTACTS = UPDATE_MATCHED_STATEMENTS[2]!;

const BATCH_TABLE = `create temp table import_batch (row_no integer primary key, first_name text not null,
  last_name text, email text, email_key text, phone text, phone_e164 text, company text, title text, website text,
  notes text, status text, tags text[], time_zone text, state text, skip_reason text, match_id uuid) on commit drop`;

/** How a batch is written: whose, when, what to do with duplicates, and whether existing contacts are looked up. */
export type ContactBatch = { userId: string; now: Date; duplicates: DuplicateMode; matchExisting: boolean };

/**
 * Writes one batch of rows in the caller's transaction (the user set as the actor): returns how many contacts it
 * created and updated and the rows it skipped with why. The batch's rows stay readable in the temporary table
 * import_batch (match_id: the existing contact a row matched) until the transaction ends.
 */
export async function writeContactBatch(
  client: pg.PoolClient,
  batch: ContactBatch,
  rows: readonly CopyLine[],
  timed: <T>(name: string, work: () => Promise<T>) => Promise<T>,
): Promise<{ created: number; updated: number; skipped: SkippedRow[] }> {
  const params = { none: [], user: [batch.userId], 'user-and-time': [batch.userId, batch.now] };
  const run = (statement: Statement) => client.query(statement.text, params[statement.params]);
  await client.query(BATCH_TABLE);
  const copy = client.query(
    copyFrom(`copy import_batch (${COLUMNS.join(', ')}) from stdin with (format csv)`),
  ) as Writable;
  await timed('copyMs', () => copyRows(copy, rows));
  if (batch.matchExisting)
    await timed('matchMs', async () => {
      for (const statement of MATCH_STATEMENTS) await run(statement);
    });
  let updated = 0;
  if (batch.duplicates === 'skip') await run(SKIP_MATCHED_STATEMENT);
  else {
    for (const statement of UPDATE_MATCHED_STATEMENTS) {
      const result = await run(statement);
      if (statement === UPDATE_CONTACTS) updated = result.rowCount ?? 0;
    }
  }
  const inserted = await timed('insertMs', () =>
    client.query<{ n: number }>(INSERT_NEW, [batch.userId, batch.now]),
  );
  const skipped = await client.query<SkippedRow>(
    'select row_no as row, skip_reason as reason from import_batch where skip_reason is not null order by row_no',
  );
  return { created: inserted.rows[0]?.n ?? 0, updated, skipped: skipped.rows };
}
