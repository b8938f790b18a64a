import type { ReachChannel } from '#domain/consent/reach-decision.ts';
import type { DbExecutor } from '../../db/database.ts';

export type RecordedOutcome = 'allowed' | 'refused' | 'waiting' | 'opted-out' | 'opted-in';

export type ConsentEntry = {
  contactId: string | null;
  number: string | null;
  channel: ReachChannel;
  outcome: RecordedOutcome;
  code: string | null;
  reason: string | null;
  facts: Record<string, unknown>;
};

/** Decisions and opt-out changes of the user, in one statement. */
export async function insertConsentEntries(
  db: DbExecutor,
  userId: string,
  entries: readonly ConsentEntry[],
  at: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('consent_decisions')
    .values(
      entries.map((e) => ({
        user_id: userId,
        contact_id: e.contactId,
        number: e.number?.slice(0, 41) ?? null,
        channel: e.channel,
        outcome: e.outcome,
        code: e.code?.slice(0, 40) ?? null,
        reason: e.reason?.slice(0, 300) ?? null,
        facts: JSON.stringify(e.facts),
        decided_at: at,
      })),
    )
    .execute();
}

/** One change to a contact's opt-outs or consent (a do-not-call change, express consent given or withdrawn). */
export async function insertConsentEntry(
  db: DbExecutor,
  userId: string,
  entry: ConsentEntry,
  at: Date,
): Promise<void> {
  await insertConsentEntries(db, userId, [entry], at);
}

/** A contact's consent record, newest first: the decisions taken for them and the changes to their opt-outs. */
export async function findContactEntries(db: DbExecutor, userId: string, contactId: string, limit: number) {
  return db
    .selectFrom('consent_decisions')
    .select(['decided_at', 'channel', 'outcome', 'code', 'reason', 'number', 'facts'])
    .where('user_id', '=', userId)
    .where('contact_id', '=', contactId)
    .orderBy('decided_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
