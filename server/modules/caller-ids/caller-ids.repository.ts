import type { CallerId } from '#domain/calls/call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';

const COLUMNS = ['id', 'number', 'number_e164', 'label', 'is_default'] as const;
const toCallerId = (r: {
  id: string;
  number: string;
  number_e164: string;
  label: string | null;
  is_default: boolean;
}): CallerId => ({
  id: r.id,
  number: r.number,
  numberE164: r.number_e164,
  label: r.label,
  isDefault: r.is_default,
});

/** The user's caller-ID numbers (Settings → Phone; decision 000 "Fixed outbound from number"), default first. */
export async function findCallerIds(db: DbExecutor, userId: string): Promise<CallerId[]> {
  const rows = await db
    .selectFrom('caller_ids')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .execute();
  return rows.map(toCallerId);
}

export async function findDefaultCallerId(db: DbExecutor, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('caller_ids')
    .select('number_e164')
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  return row?.number_e164 ?? null;
}

export async function isCallerIdOf(db: DbExecutor, userId: string, e164: string): Promise<boolean> {
  const row = await db
    .selectFrom('caller_ids')
    .select('id')
    .where('user_id', '=', userId)
    .where('number_e164', '=', e164)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether another user already has this number as a caller ID. Takes a lock on the number for the rest of the
 * transaction, so two people adding the same number at once are decided one after the other; the row-security
 * policy caller_ids_claim_check lets this one query look across users.
 */
export async function isCallerIdOfAnother(db: DbExecutor, userId: string, e164: string): Promise<boolean> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`caller-id:${e164}`}, 0)),
    set_config('app.caller_id_check', 'on', true)`.execute(db);
  const row = await db
    .selectFrom('caller_ids')
    .select('id')
    .where('number_e164', '=', e164)
    .where('user_id', '<>', userId)
    .executeTakeFirst();
  await sql`select set_config('app.caller_id_check', 'off', true)`.execute(db);
  return row !== undefined;
}

/** Adds a caller ID; the first one, or one marked default, becomes the default (one at most). */
export async function addCallerId(
  db: DbExecutor,
  userId: string,
  input: { number: string; label?: string | undefined; isDefault: boolean; e164?: string },
): Promise<CallerId> {
  const e164 = input.e164 ?? normalizePhone(input.number);
  if (!e164) throw new AppError('VALIDATION_FAILED', 'Enter a full phone number');
  const hasAny = (await findCallerIds(db, userId)).length > 0;
  const makeDefault = input.isDefault || !hasAny;
  if (makeDefault)
    await db.updateTable('caller_ids').set({ is_default: false }).where('user_id', '=', userId).execute();
  try {
    const row = await db
      .insertInto('caller_ids')
      .values({
        user_id: userId,
        number: input.number,
        number_e164: e164,
        label: input.label || null,
        is_default: makeDefault,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toCallerId(row);
  } catch (error) {
    if ((error as { code?: string }).code === '23505')
      throw new AppError('CONFLICT', 'That number is already one of your caller IDs');
    throw error;
  }
}

export async function makeDefaultCallerId(db: DbExecutor, userId: string, id: string): Promise<void> {
  const found = await db
    .selectFrom('caller_ids')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!found) throw new AppError('NOT_FOUND', 'Caller ID not found');
  await db.updateTable('caller_ids').set({ is_default: false }).where('user_id', '=', userId).execute();
  await db
    .updateTable('caller_ids')
    .set({ is_default: true })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
}

export async function deleteCallerId(db: DbExecutor, userId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom('caller_ids')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError('NOT_FOUND', 'Caller ID not found');
}

/**
 * The number a call goes out from: the one asked for, if it is one of the user's caller IDs or the instance's;
 * otherwise the user's default, else the instance's; null when there is none ('Missing phone number').
 */
export async function resolveCallerId(
  db: DbExecutor,
  userId: string,
  requested: string | undefined,
  instanceDefault: string | null,
): Promise<string | null> {
  const asked = requested ? normalizePhone(requested) : null;
  if (asked && asked !== instanceDefault && !(await isCallerIdOf(db, userId, asked)))
    throw new AppError(
      'VALIDATION_FAILED',
      'That caller ID is not one of yours. Add it in Settings → Phone.',
    );
  return asked ?? (await findDefaultCallerId(db, userId)) ?? instanceDefault;
}
