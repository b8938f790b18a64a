import { sql } from 'kysely';
import { SKIP_REASONS, UNCONFIRMED_REASON } from '#domain/campaigns/email-campaign.schema.ts';
import { dueAfter, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { isSendableAddress } from '#domain/email/email.schema.ts';
import { renderMergeFields } from '#domain/email/merge-fields.ts';
import type { AppContext } from '../../app-context.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { MailDeliveryError, type SmtpSession } from '../../mail/smtp-sender.ts';
import { findSmtpSettings, insertContactEmail } from '../email/public.ts';
import { setCampaignStatus } from './email-campaigns.repository.ts';
import { scheduleRun } from './campaign-schedule.ts';
import { findSteps } from './email-sequences.repository.ts';
import { takeSendingSlot } from './sending-limits.ts';

/** A run sends for at most this long, then queues the next run, so shutdowns and other jobs never wait long. */
const RUN_FOR_MS = 20_000;

export type SendContext = Pick<AppContext, 'db' | 'clock' | 'secretBox' | 'sendSmtp' | 'publicUrl'>;

/** A pause longer than this between two e-mails ends the run; the next run is queued for when the next is due. */
const LONGEST_WAIT_IN_RUN_MS = 1_000;

export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe/${token}`;

type Claimed = { contactId: string; token: string; email: string; first_name: string; last_name: string } & {
  company: string | null;
  phone: string | null;
  title: string | null;
  /** E-mails of the sequence this recipient has been handed before this one (0 for a one-time campaign). */
  stepsSent: number;
};

/** What a run sends: a one-time campaign is a sequence of one e-mail, due at once. */
type Plan = { sequence: boolean; steps: SequenceStep[] };

/** "E-mail 2: …" on a sequence, so a reason says which of its e-mails it is about. */
const aboutStep = (plan: Plan, stepsSent: number, text: string) =>
  plan.sequence ? `E-mail ${stepsSent + 1}: ${text}` : text;

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
  plan: Plan,
): Promise<Claimed | { wait: Date } | 'stop' | 'done'> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const campaign = await trx
      .selectFrom('email_campaigns')
      .select('status')
      .where('id', '=', campaignId)
      .forUpdate()
      .executeTakeFirst();
    if (campaign?.status !== 'sending') return 'stop';
    for (;;) {
      let query = trx
        .selectFrom('email_campaign_recipients as r')
        .leftJoin('contacts as c', 'c.id', 'r.contact_id')
        .leftJoin('email_unsubscribes as u', (join) =>
          join.onRef('u.user_id', '=', 'r.user_id').on('u.email', '=', sql<string>`lower(trim(c.email))`),
        )
        .select([
          'r.contact_id',
          'r.unsubscribe_token',
          'r.steps_sent',
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
        .limit(1);
      // A sequence's recipients wait for their next e-mail's day: the one due first goes first.
      query = plan.sequence
        ? query.where('r.due_at', '<=', ctx.clock()).orderBy('r.due_at').orderBy('r.position')
        : query.orderBy('r.position');
      const next = await query.executeTakeFirst();
      if (!next) {
        const waiting = plan.sequence ? await nextDue(trx, campaignId) : null;
        if (waiting) return { wait: waiting };
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
      // The user's sending limit, across all their campaigns: wait for the next free slot.
      const slot = skip ? null : await takeSendingSlot(trx, userId, 'email', ctx.clock());
      if (slot) return { wait: slot };
      await trx
        .updateTable('email_campaign_recipients')
        .set(
          skip
            ? { state: 'skipped', reason: skip, email: next.email?.trim() ?? null, due_at: null }
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
          stepsSent: next.steps_sent,
        };
    }
  });
}

/** When the first recipient still in the sequence is due for its next e-mail, if anyone is. */
async function nextDue(trx: DbExecutor, campaignId: string): Promise<Date | null> {
  const row = await trx
    .selectFrom('email_campaign_recipients')
    .select('due_at')
    .where('campaign_id', '=', campaignId)
    .where('state', '=', 'queued')
    .where('due_at', 'is not', null)
    .orderBy('due_at')
    .limit(1)
    .executeTakeFirst();
  return row?.due_at ?? null;
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
    // (The run's own pace below; the user's limit across campaigns is taken per e-mail in claimNext.)
    const campaign = await trx
      .selectFrom('email_campaigns')
      .select(['subject', 'body', 'per_minute', 'status', 'campaign_type'])
      .where('id', '=', campaignId)
      .executeTakeFirst();
    const sequence = campaign?.campaign_type === 'sequence';
    await trx
      .updateTable('email_campaign_recipients')
      .set({
        state: 'unconfirmed',
        reason: sequence
          ? sql<string>`'E-mail ' || (steps_sent + 1) || ': ' || ${UNCONFIRMED_REASON}::text`
          : UNCONFIRMED_REASON,
        due_at: null,
      })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'sending')
      .execute();
    const plan: Plan = {
      sequence,
      steps: sequence
        ? await findSteps(trx, campaignId)
        : [{ subject: campaign?.subject ?? '', body: campaign?.body ?? '', delayDays: 0 }],
    };
    const account = await trx
      .selectFrom('user_profiles')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirst();
    const settings = await findSmtpSettings(trx, userId, ctx.secretBox);
    return campaign && account ? { campaign, account, settings, plan } : null;
  });
  if (!setup || setup.campaign.status !== 'sending') return 'stop';
  const { campaign, settings, account, plan } = setup;
  const from = settings?.fromAddress ?? account.email;
  const spacingMs = 60_000 / campaign.per_minute;
  const until = Date.now() + RUN_FOR_MS;
  // One connection to the mail server for the whole run.
  const smtp = settings ? ctx.sendSmtp.session(settings) : null;
  try {
    while (Date.now() < until && !abort?.aborted) {
      const started = Date.now();
      const claimed = await claimNext(ctx, campaignId, userId, plan);
      if (claimed === 'stop' || claimed === 'done') return claimed;
      // Nobody is due yet: the next run is queued for the first due (the clock may be a test's, so by difference).
      if ('wait' in claimed)
        return { next: new Date(Date.now() + Math.max(0, claimed.wait.getTime() - ctx.clock().getTime())) };
      const outcome = await deliver(ctx, smtp, plan.steps[claimed.stepsSent]!, claimed);
      if (!outcome.ok && outcome.serverProblem) {
        await pauseForServer(ctx, campaignId, userId, claimed.contactId, outcome.reason);
        return 'stop';
      }
      await recordOutcome(ctx, campaignId, userId, plan, claimed, outcome, from);
      const due = started + spacingMs;
      if (due - Date.now() > LONGEST_WAIT_IN_RUN_MS) return { next: new Date(due) };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
    return { next: new Date() };
  } finally {
    smtp?.close();
  }
}

/**
 * The outcome of one e-mail: sent (and on the contact's e-mails), or failed with the server's words. A sequence's
 * recipient with e-mails still to come waits for the next one's day. A recipient who left the sequence while the
 * e-mail was under way (no longer 'sending') stays out.
 */
async function recordOutcome(
  ctx: SendContext,
  campaignId: string,
  userId: string,
  plan: Plan,
  to: Claimed,
  outcome: Outcome,
  from: string,
): Promise<void> {
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const now = ctx.clock();
    const following = plan.steps[to.stepsSent + 1];
    const sent = {
      steps_sent: to.stepsSent + 1,
      sent_at: now,
      reason: null,
      ...(outcome.ok && { message_id: outcome.messageId, delivery: outcome.delivery }),
    };
    await trx
      .updateTable('email_campaign_recipients')
      .set(
        !outcome.ok
          ? {
              state: 'failed',
              reason: aboutStep(plan, to.stepsSent, outcome.reason).slice(0, 1000),
              due_at: null,
            }
          : following
            ? { ...sent, state: 'queued', due_at: dueAfter(now, following.delayDays) }
            : { ...sent, state: 'sent', due_at: null },
      )
      .where('campaign_id', '=', campaignId)
      .where('contact_id', '=', to.contactId)
      .where('state', '=', 'sending')
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
  campaign: SequenceStep,
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
      .where('state', '=', 'sending')
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
        scheduleRun(trx, 'email', campaignId, userId, result.next),
      );
  };
}
