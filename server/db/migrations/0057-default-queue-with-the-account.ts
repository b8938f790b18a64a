import { sql, type Kysely } from 'kysely';

/**
 * Every account has its default call queue, 'All Synced Contacts', from sign-up on (decision 058): the accounts made
 * before that get it here, so listing queues never has to create it. The migrating role is the table's owner; row
 * security is lifted for the one statement, as in 0012.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table power_dialer_queues no force row level security;
    insert into power_dialer_queues (queue_id, queue_name, user_id)
      select 'default-all-contacts', 'All Synced Contacts', u.id from auth_users u
      on conflict (user_id, queue_id) do nothing;
    alter table power_dialer_queues force row level security;
  `.execute(db);
}
