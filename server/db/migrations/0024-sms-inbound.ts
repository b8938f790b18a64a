import { sql, type Kysely } from 'kysely';

/**
 * Messages received, applied once and for their own user (docs/decisions/019-sms-campaigns.md):
 *  - every message received is recorded by the provider's message id (sms_inbound_messages) before it is acted on,
 *    so a correctly signed request sent again (a replay of an old START after a STOP) changes nothing;
 *  - an opt-out may belong to one user (sms_opt_outs.user_id): a reply simulated by a user on the built-in
 *    simulator opts the number out of that user's messages only, while a real provider's STOP (user_id null) stops
 *    every message from this instance's numbers, as carriers apply it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sms_opt_outs drop constraint sms_opt_outs_pkey;
    alter table sms_opt_outs add column user_id uuid references auth_users (id) on delete cascade;
    create unique index sms_opt_outs_number_idx
      on sms_opt_outs (phone, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid));

    create table sms_inbound_messages (
      provider_message_id text primary key check (length(provider_message_id) <= 64),
      user_id uuid references auth_users (id) on delete cascade,
      phone text not null check (length(phone) <= 40),
      to_number text not null check (length(to_number) <= 40),
      keyword text check (keyword in ('stop', 'start', 'help')),
      received_at timestamptz not null default now()
    );
    alter table sms_inbound_messages enable row level security;
    alter table sms_inbound_messages force row level security;
    create policy sms_inbound_messages_system on sms_inbound_messages
      using (current_setting('app.actor', true) = 'system')
      with check (current_setting('app.actor', true) = 'system');
  `.execute(db);
}
