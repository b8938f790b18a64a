import { sql, type Kysely } from 'kysely';

/**
 * The consent record (docs/decisions/023-consent-gate.md): every decision the gate took for a contact on a call, a
 * text or a campaign e-mail (allowed, refused, or made to wait), with the facts it used, kept beside the contact's
 * opt-outs so one contact's whole history can be exported. Rows outlive nothing: they go with the contact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table consent_decisions (id bigint generated always as identity primary key,
      user_id uuid not null references auth_users (id) on delete cascade,
      contact_id uuid references contacts (id) on delete cascade,
      number text check (length(number) <= 41),
      channel text not null check (channel in ('call', 'text', 'campaign-email', 'email')),
      outcome text not null check (outcome in ('allowed', 'refused', 'waiting', 'opted-out', 'opted-in')),
      code text check (length(code) <= 40),
      reason text check (length(reason) <= 300),
      facts jsonb not null default '{}'::jsonb,
      decided_at timestamptz not null
    );
    create index consent_decisions_contact_idx on consent_decisions (contact_id, decided_at desc) where contact_id is not null;
    create index consent_decisions_user_idx on consent_decisions (user_id, decided_at desc);
    alter table consent_decisions enable row level security;
    alter table consent_decisions force row level security;
    create policy consent_decisions_owner on consent_decisions
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
  `.execute(db);
}
