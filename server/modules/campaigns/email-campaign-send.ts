import { sql } from 'kysely';
import { SKIP_REASONS, UNCONFIRMED_REASON } from '#domain/campaigns/email-campaign.schema.ts';
import { isSendableAddress } from '#domain/email/email.schema.ts';
import { renderMergeFields } from '#domain/email/merge-fields.ts';
import type { AppContext } from '../../app-context.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { MailDeliveryError, type SmtpSession } from '../../mail/smtp-sender.ts';
import { findSmtpSettings, insertContactEmail } from '../email/public.ts';
import { setCampaignStatus } from './email-campaigns.repository.ts';

export const EMAIL_CAMPAIGN_TASK = 'email-campaign-send';
/** A run sends for at most this long, then queues the next run, so shutdowns and other jobs never wait long. */
const RUN_FOR_MS = 20_000;

export type SendContext = Pick<AppContext, 'db' | 'clock' | 'secretBox' | 'sendSmtp' | 'publicUrl'>;

/**
 * Queues a run of a campaign's send, in the caller's transaction. Runs of one campaign go one after another (their
 * own named queue), so at most one ever sends for a campaign, whichever instance runs it.
 */
export function scheduleCampaignSend(
  db: DbExecutor,
  campaignId: string,
  userId: string,
  runAt?: Date,
): Promise<void> {
  return enqueueJob(
    db,
    EMAIL_CAMPAIGN_TASK,
    { campaignId, userId },
    {
      jobKey: `email-campaign:${campaignId}`,
      queueName: `email-campaign:${campaignId}`,
      maxAttempts: 25,
      ...(runAt && { runAt }),
    },
  );
}

/** A pause longer than this between two e-mails ends the run; the next run is queued for when the next is due. */
const LONGEST_WAIT_IN_RUN_MS = 1_000;

export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe/${token}`;

type Claimed = { contactId: string; token: string; email: string; first_name: string; last_name: string } & {
  company: string | null;
  phone: string | null;
  title: string | null;
};

/**
 * The next recipient to mail, as the campaign's owner: contacts deleted, without an address or unsubscribed are
 * skipped on the way (with why); the one found is marked 'sending' and committed before the mail leaves, so a crash
 * can never lead to mailing it twice. Null when the campaign is no longer sending or nobody is left (then it is
 * marked sent).
 */
async function claimNext(
  ctx: SendContext,
  campaignId: string,
  userId: string,
): Promise<Claimed | 'stop' | 'done'> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const campaign = await trx
      .selectFrom('email_campaigns')
      .select('status')
      .where('id', '=', campaignId)
      .forUpdate()
      .executeTakeFirst();
    if (campaign?.status !== 'sending') return 'stop';
    for (;;) {
      const next = await trx
        .selectFrom('email_campaign_recipients as r')
        .leftJoin('contacts as c', 'c.id', 'r.contact_id')
        .leftJoin('email_unsubscribes as u', (join) =>
          join.onRef('u.user_id', '=', 'r.user_id').on('u.email', '=', sql<string>`lower(trim(c.email))`),
        )
        .select([
          'r.contact_id',
          'r.unsubscribe_token',
          'c.id as existing',
          'c.email',
          'c.first_name',
          'c.last_name',
          'c.company',
          'c.phone',
          'c.title',
          'u.email as unsubscribed',
        ])
        .where('r.campaign_id', '=', campaignId)
        .where('r.state', '=', 'queued')
        .orderBy('r.position')
        .limit(1)
        .executeTakeFirst();
      if (!next) {
        await setCampaignStatus(trx, campaignId, 'sent', ctx.clock(), { finished: true });
        return 'done';
      }
      const skip = !next.existing
        ? SKIP_REASONS.deleted
        : !next.email || !isSendableAddress(next.email)
          ? SKIP_REASONS.noEmail
          : next.unsubscribed
            ? SKIP_REASONS.unsubscribed
            : null;
      await trx
        .updateTable('email_campaign_recipients')
        .set(
          skip
            ? { state: 'skipped', reason: skip, email: next.email?.trim() ?? null }
            : { state: 'sending', attempted_at: ctx.clock(), email: next.email!.trim() },
        )
        .where('campaign_id', '=', campaignId)
        .where('contact_id', '=', next.contact_id)
        .execute();
      if (!skip)
        return {
          contactId: next.contact_id,
          token: next.unsubscribe_token,
          email: next.email!.trim(),
          first_name: next.first_name ?? '',
          last_name: next.last_name ?? '',
          company: next.company,
          phone: next.phone,
          title: next.title,
        };
    }
  });
}

/**
 * One run of a campaign's send (docs/decisions/017-email-campaigns.md): recipients left 'sending' by a run that
 * died are marked unconfirmed (never mailed again blindly); then recipients are mailed one by one at the campaign's
 * pace, each recorded sent (and in the contact's e-mails) or failed with the server's words, until the run's time is
 * up (the next run is queued), the campaign is paused or canceled, or nobody is left.
 */
export async function runCampaignSend(
  ctx: SendContext,
  campaignId: string,
  userId: string,
  abort?: AbortSignal,
): Promise<{ next: Date } | 'done' | 'stop'> {
  const setup = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    await trx
      .updateTable('email_campaign_recipients')
      .set({ state: 'unconfirmed', reason: UNCONFIRMED_REASON })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'sending')
      .execute();
    const campaign = await trx
      .selectFrom('email_campaigns')
      .select(['subject', 'body', 'per_minute', 'status'])
      .where('id', '=', campaignId)
      .executeTakeFirst();
    const account = await trx
      .selectFrom('user_profiles')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirst();
    const settings = await findSmtpSettings(trx, userId, ctx.secretBox);
    return campaign && account ? { campaign, account, settings } : null;
  });
  if (!setup || setup.campaign.status !== 'sending') return 'stop';
  const { campaign, settings, account } = setup;
  const from = settings?.fromAddress ?? account.email;
  const spacingMs = 60_000 / campaign.per_minute;
  const until = Date.now() + RUN_FOR_MS;
  // One connection to the mail server for the whole run.
  const smtp = settings ? ctx.sendSmtp.session(settings) : null;
  try {
    while (Date.now() < until && !abort?.aborted) {
      const started = Date.now();
      const claimed = await claimNext(ctx, campaignId, userId);
      if (claimed === 'stop' || claimed === 'done') return claimed;
      const outcome = await deliver(ctx, smtp, campaign, claimed);
      if (!outcome.ok && outcome.serverProblem) {
        await pauseForServer(ctx, campaignId, userId, claimed.contactId, outcome.reason);
        return 'stop';
      }
      await recordOutcome(ctx, campaignId, userId, claimed, outcome, from);
      const due = started + spacingMs;
      if (due - Date.now() > LONGEST_WAIT_IN_RUN_MS) return { next: new Date(due) };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
    return { next: new Date() };
  } finally {
    smtp?.close();
  }
}

/** The outcome of one e-mail: sent (and on the contact's e-mails), or failed with the server's words. */
async function recordOutcome(
  ctx: SendContext,
  campaignId: string,
  userId: string,
  to: Claimed,
  outcome: Outcome,
  from: string,
): Promise<void> {
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    await trx
      .updateTable('email_campaign_recipients')
      .set(
        outcome.ok
          ? { state: 'sent', sent_at: ctx.clock(), message_id: outcome.messageId, delivery: outcome.delivery }
          : { state: 'failed', reason: outcome.reason.slice(0, 1000) },
      )
      .where('campaign_id', '=', campaignId)
      .where('contact_id', '=', to.contactId)
      .execute();
    if (outcome.ok) await recordOnContact(trx, userId, to, outcome, from, ctx);
  });
}

type Outcome =
  | { ok: true; delivery: 'smtp' | 'outbox'; messageId: string | null; subject: string; text: string }
  | { ok: false; reason: string; serverProblem: boolean };

async function deliver(
  ctx: SendContext,
  smtp: SmtpSession | null,
  campaign: { subject: string; body: string },
  to: Claimed,
): Promise<Outcome> {
  const contact = { firstName: to.first_name, lastName: to.last_name, ...to, email: to.email };
  const link = unsubscribeUrl(ctx.publicUrl, to.token);
  const subject = renderMergeFields(campaign.subject, contact).trim();
  const text = `${renderMergeFields(campaign.body, contact)}\n\n--\nUnsubscribe: ${link}\n`;
  if (!smtp) return { ok: true, delivery: 'outbox', messageId: null, subject, text };
  try {
    const { messageId } = await smtp.send({
      to: to.email,
      subject,
      text,
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return { ok: true, delivery: 'smtp', messageId, subject, text };
  } catch (error) {
    if (error instanceof MailDeliveryError)
      return { ok: false, reason: error.message, serverProblem: error.serverProblem };
    return { ok: false, reason: 'The mail could not be sent.', serverProblem: false };
  }
}

/**
 * The mail server itself failed (it refused no one in particular): the recipient goes back to the queue, not
 * handed over, and the campaign pauses with the server's words, so the person can fix Settings → Email and resume
 * instead of watching every remaining recipient fail one by one.
 */
async function pauseForServer(
  ctx: SendContext,
  campaignId: string,
  userId: string,
  contactId: string,
  reason: string,
): Promise<void> {
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    await trx
      .updateTable('email_campaign_recipients')
      .set({ state: 'queued', attempted_at: null })
      .where('campaign_id', '=', campaignId)
      .where('contact_id', '=', contactId)
      .execute();
    await trx
      .updateTable('email_campaigns')
      .set({ status: 'paused', pause_reason: reason.slice(0, 1000), updated_at: ctx.clock() })
      .where('id', '=', campaignId)
      .where('status', '=', 'sending')
      .execute();
  });
}

/** The e-mail joins the contact's e-mails (and the outbox when no server was configured), if the contact is still there. */
async function recordOnContact(
  trx: DbExecutor,
  userId: string,
  to: Claimed,
  outcome: Extract<Outcome, { ok: true }>,
  from: string,
  ctx: SendContext,
): Promise<void> {
  const exists = await trx
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', to.contactId)
    .forShare()
    .executeTakeFirst();
  if (!exists) return;
  await insertContactEmail(trx, {
    userId,
    contactId: to.contactId,
    templateId: null,
    delivery: outcome.delivery,
    from,
    to: to.email,
    subject: outcome.subject,
    content: outcome.text,
    messageId: outcome.messageId,
    sentAt: ctx.clock(),
  });
}

/** The job queue's task: one run, and the next one queued (for when the next e-mail is due) while recipients remain. */
export function campaignSendTask(ctx: SendContext): JobTask {
  return async (payload, helpers) => {
    const { campaignId, userId } = payload as { campaignId: string; userId: string };
    const result = await runCampaignSend(ctx, campaignId, userId, helpers.abortSignal);
    if (typeof result === 'object')
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        scheduleCampaignSend(trx, campaignId, userId, result.next),
      );
  };
}
