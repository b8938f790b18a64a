import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database.ts';

/** A rep's voicemail-drop messages by name, with their recordings (the acting user's only). */
export async function findVoicemailDrops(db: DbExecutor, userId: string) {
  const rows = await db
    .selectFrom('voicemail_drops as d')
    .innerJoin('recordings as r', 'r.id', 'd.recording_id')
    .select(['d.id', 'd.name', 'd.recording_id', 'r.duration_seconds', 'r.created_at'])
    .where('d.user_id', '=', userId)
    .orderBy((eb) => eb.fn('lower', ['d.name']))
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({ ...r, duration_seconds: Number(r.duration_seconds) }));
}

export type VoicemailDropRow = Awaited<ReturnType<typeof findVoicemailDrops>>[number];

/** One of the user's messages, or undefined. */
export async function findVoicemailDrop(db: DbExecutor, userId: string, id: string) {
  return (await findVoicemailDrops(db, userId)).find((d) => d.id === id);
}

/**
 * How many messages the user keeps, their messages locked for the rest of the transaction first, so two uploads at
 * once cannot both pass the limit.
 */
export async function countVoicemailDropsLocked(db: DbExecutor, userId: string): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`voicemail-drops:${userId}`}, 0))`.execute(db);
  const held = await db
    .selectFrom('voicemail_drops')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(held.n);
}

export async function insertVoicemailDrop(
  db: DbExecutor,
  drop: { userId: string; recordingId: string; name: string; createdAt: Date },
): Promise<string> {
  const row = await db
    .insertInto('voicemail_drops')
    .values({
      user_id: drop.userId,
      recording_id: drop.recordingId,
      name: drop.name,
      created_at: drop.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renameVoicemailDrop(db: DbExecutor, userId: string, id: string, name: string) {
  const row = await db
    .updateTable('voicemail_drops')
    .set({ name })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Deletes a message: its recording goes (and the message with it, by cascade), and its file through the queue. */
export async function deleteVoicemailDrop(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const row = await db
    .deleteFrom('recordings')
    .where('user_id', '=', userId)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('voicemail_drops')
        .select('recording_id')
        .where('id', '=', id)
        .where('user_id', '=', userId),
    )
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}
