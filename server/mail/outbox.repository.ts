import type { DbExecutor } from '../db/database.ts';

/** A system message kept in the outbox admins read on /admin (no instance mail server, or it failed). */
export async function insertOutboxMessage(
  db: DbExecutor,
  message: { kind: string; from: string; to: string; subject: string; text: string },
): Promise<void> {
  await db
    .insertInto('outbox_messages')
    .values({
      user_id: null,
      kind: message.kind,
      from_address: message.from,
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
    })
    .execute();
}
