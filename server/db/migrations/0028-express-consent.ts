import { sql, type Kysely } from 'kysely';

/**
 * Express consent (docs/decisions/023-consent-gate.md): a user records that a contact agreed to be called and texted,
 * with the day and where (a web form, a signed agreement). At most one stands per contact; withdrawing it keeps the
 * row (withdrawn_at) so the record shows both. It lifts the federal calling hours only, never an opt-out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table express_consents (id bigint generated always as identity primary key,
      user_id uuid not null references auth_users (id) on delete cascade,
      contact_id uuid not null references contacts (id) on delete cascade,
      given_on date not null,
      source text not null check (length(source) between 1 and 200),
      recorded_at timestamptz not null,
      withdrawn_at timestamptz
    );
    create unique index express_consents_standing_idx on express_consents (contact_id) where withdrawn_at is null;
    alter table express_consents enable row level security;
    alter table express_consents force row level security;
    create policy express_consents_owner on express_consents
      using (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system')
      with check (user_id::text = current_setting('app.user_id', true) or current_setting('app.actor', true) = 'system');
  `.execute(db);
}
