import { sql, type Kysely } from 'kysely';

/**
 * A connected service refusing the connection for good (HubSpot answering 401 to the saved token: revoked, or the
 * private app deleted) is a notification of its own kind, under Settings → Notifications → Integrations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into notification_kinds (kind, setting) values ('integration-failed', 'integrations')`.execute(
    db,
  );
}
