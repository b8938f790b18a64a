import type { EmailConfiguration } from '#domain/email/email.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { SmtpSettings } from '../../mail/smtp-sender.ts';

type StoredConfiguration = {
  email: string;
  username: string | null;
  from_name: string | null;
  server: string;
  port: number;
  password_encrypted: string;
  updated_at: Date;
};

async function findStored(db: DbExecutor, userId: string): Promise<StoredConfiguration | undefined> {
  return db
    .selectFrom('email_configurations')
    .select(['email', 'username', 'from_name', 'server', 'port', 'password_encrypted', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** What the browser may see: never the password, sealed or not. */
export async function findEmailConfiguration(
  db: DbExecutor,
  userId: string,
): Promise<EmailConfiguration | null> {
  const row = await findStored(db, userId);
  if (!row) return null;
  return {
    email: row.email,
    server: row.server,
    port: row.port,
    username: row.username,
    fromName: row.from_name,
    useSsl: true,
    hasPassword: true,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What the mail sender needs, the password opened; null when the user has configured no server. */
export async function findSmtpSettings(
  db: DbExecutor,
  userId: string,
  box: SecretBox,
): Promise<SmtpSettings | null> {
  const row = await findStored(db, userId);
  if (!row) return null;
  return {
    host: row.server,
    port: row.port,
    username: row.username ?? row.email,
    password: box.open(row.password_encrypted),
    fromAddress: row.email,
    fromName: row.from_name,
  };
}

export async function upsertEmailConfiguration(
  db: DbExecutor,
  userId: string,
  values: {
    email: string;
    username: string | null;
    fromName: string | null;
    server: string;
    port: number;
    passwordSealed: string;
  },
  now: Date,
): Promise<void> {
  const row = {
    email: values.email,
    username: values.username,
    from_name: values.fromName,
    server: values.server,
    port: values.port,
    password_encrypted: values.passwordSealed,
    updated_at: now,
  };
  await db
    .insertInto('email_configurations')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

export async function deleteEmailConfiguration(db: DbExecutor, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('email_configurations').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The sealed password already stored, for a save that leaves the password field empty. */
export async function findSealedPassword(db: DbExecutor, userId: string): Promise<string | undefined> {
  return (await findStored(db, userId))?.password_encrypted;
}
