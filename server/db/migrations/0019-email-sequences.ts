import { sql, type Kysely } from 'kysely';

/**
 * E-mail sequences (docs/decisions/018-email-sequences.md): a sequence is an e-mail campaign of type
 * 'sequence' whose e-mails are its steps (subject, body, delay in days). Each recipient remembers how many of the
 * sequence's e-mails it has been handed (steps_sent) and when its next one is due (due_at); the send job picks what
 * is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_sequence_steps (campaign_id uuid not null references email_campaigns (id) on delete cascade,
      user_id uuid not null,
      step integer not null check (step between 1 and 10),
      subject text not null check (length(subject) between 1 and 998),
      body text not null check (length(body) <= 100000),
      delay_days integer not null check (delay_days between 0 and 365),
      primary key (campaign_id, step)
    );
    alter table email_sequence_steps enable row level security;
    alter table email_sequence_steps force row level security;
    create policy email_sequence_steps_owner on email_sequence_steps
      using (user_id::text = current_setting('app.user_id', true))
      with check (user_id::text = current_setting('app.user_id', true));
    create policy email_sequence_steps_system on email_sequence_steps
      using (current_setting('app.actor', true) = 'system')
      with check (current_setting('app.actor', true) = 'system');

    alter table email_campaign_recipients
      add column steps_sent integer not null default 0 check (steps_sent between 0 and 10),
      add column due_at timestamptz;
    create index email_campaign_recipients_due_idx on email_campaign_recipients (campaign_id, due_at, position)
      where state in ('queued', 'sending') and due_at is not null;
  `.execute(db);
}
