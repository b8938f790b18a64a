import { sql } from 'kysely';
import {
  SMS_MESSAGES,
  SMS_SKIP_REASONS,
  SMS_UNCONFIRMED_REASON,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { renderMergeFields } from '#domain/email/merge-fields.ts';
import type { AppContext } from '../../app-context.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { ProviderError } from '../../telephony/telephony-provider.ts';
import { setStatus } from './campaign-recipients.repository.ts';
import { scheduleRun } from './campaign-schedule.ts';
import { takeSendingSlot } from './sending-limits.ts';

/** A run sends for at most this long, then queues the next run. */
const RUN_FOR_MS = 20_000;
/** A pause longer than this between two messages ends the run; the next is queued for when it is due. */
const LONGEST_WAIT_IN_RUN_MS = 1_000;
/** A provider that has not answered a send by then may or may not have taken it: the recipient is unconfirmed. */
const SEND_TIMEOUT_MS = 15_000;

export type SmsSendContext = Pick<AppContext, 'db' | 'clock' | 'telephony' | 'defaultCallerId'>;

type Claimed = {
  contactId: string;
  ref: string;
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  company: string | null;
  title: string | null;
};

/**
 * The next recipient to message, as the campaign's owner: contacts deleted, without a usable phone, on the user's
 * do-not-call list or whose number replied STOP are skipped on the way (with why); the one found is marked
 * 'sending' with the number it goes to and from, committed before the provider is asked, so a crash never leads to
 * a second message.
 */
async function claimNext(
  ctx: SmsSendContext,
  campaignId: string,
  userId: string,
  from: string,
): Promise<Claimed | { wait: Date } | 'stop' | 'done'> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const campaign = await trx
      .selectFrom('sms_campaigns')
      .select('status')
      .where('id', '=', campaignId)
      .forUpdate()
      .executeTakeFirst();
    if (campaign?.status !== 'sending') return 'stop';
    for (;;) {
      const next = await trx
        .selectFrom('sms_campaign_recipients as r')
        .leftJoin('contacts as c', 'c.id', 'r.contact_id')
        .leftJoin('sms_opt_outs as o', 'o.phone', 'c.phone_e164')
        .leftJoin('do_not_call as d', (join) =>
          join.onRef('d.user_id', '=', 'r.user_id').onRef('d.number_e164', '=', 'c.phone_e164'),
        )
        .select([
          'r.contact_id',
          'r.send_ref',
          'c.id as existing',
          'c.phone_e164',
          'c.first_name',
          'c.last_name',
          'c.email',
          'c.company',
          'c.title',
          'o.phone as opted_out',
          'd.number_e164 as do_not_call',
        ])
        .where('r.campaign_id', '=', campaignId)
        .where('r.state', '=', 'queued')
        .orderBy('r.position')
        .limit(1)
        .executeTakeFirst();
      if (!next) {
        await setStatus(trx, 'sms', campaignId, 'sent', ctx.clock(), { finished: true });
        return 'done';
      }
      const skip = !next.existing
        ? SMS_SKIP_REASONS.deleted
        : !next.phone_e164
          ? SMS_SKIP_REASONS.noPhone
          : next.opted_out
            ? SMS_SKIP_REASONS.optedOut
            : next.do_not_call
              ? SMS_SKIP_REASONS.doNotCall
              : null;
      // The user's sending limit, across all their campaigns: wait for the next free slot.
      const slot = skip ? null : await takeSendingSlot(trx, userId, 'sms', ctx.clock());
      if (slot) return { wait: slot };
      await trx
        .updateTable('sms_campaign_recipients')
        .set(
          skip
            ? { state: 'skipped', reason: skip, phone: next.phone_e164 }
            : { state: 'sending', attempted_at: ctx.clock(), phone: next.phone_e164, from_number: from },
        )
        .where('campaign_id', '=', campaignId)
        .where('contact_id', '=', next.contact_id)
        .execute();
      if (!skip)
        return {
          contactId: next.contact_id,
          ref: next.send_ref,
          phone: next.phone_e164!,
          first_name: next.first_name ?? '',
          last_name: next.last_name ?? '',
          email: next.email,
          company: next.company,
          title: next.title,
        };
    }
  });
}

type Outcome =
  | { kind: 'sent'; providerMessageId: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'unconfirmed'; reason: string }
  | { kind: 'provider-down'; reason: string };

/** Hands one message to the provider: its own refusal fails the recipient; no answer at all leaves it unconfirmed. */
async function deliver(ctx: SmsSendContext, from: string, message: string, to: Claimed): Promise<Outcome> {
  const body = renderMergeFields(message, {
    ...to,
    firstName: to.first_name,
    lastName: to.last_name,
    email: to.email ?? '',
  }).trim();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), SEND_TIMEOUT_MS)),
  );
  try {
    const answer = await Promise.race([
      ctx.telephony.sms.send({ ref: to.ref, from, to: to.phone, body }),
      timeout,
    ]);
    if (answer === 'timeout')
      return {
        kind: 'unconfirmed',
        reason: `The provider did not answer within ${SEND_TIMEOUT_MS / 1000} s. ${SMS_UNCONFIRMED_REASON}`,
      };
    return { kind: 'sent', providerMessageId: answer.providerMessageId };
  } catch (error) {
    if (error instanceof ProviderError) return { kind: 'failed', reason: error.message };
    return { kind: 'provider-down', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** The number messages go out from: the user's default caller ID, else the instance's. */
async function senderOf(
  trx: DbExecutor,
  userId: string,
  instanceDefault: string | null,
): Promise<string | null> {
  const own = await trx
    .selectFrom('caller_ids')
    .select('number_e164')
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  return own?.number_e164 ?? instanceDefault;
}

/**
 * One run of an SMS campaign's send (docs/decisions/019-sms-campaigns.md): recipients a dead run left 'sending' are
 * marked unconfirmed; then recipients get their message one by one at the campaign's pace, each recorded sent (with
 * the provider's message id; its delivery report follows by webhook) or failed with the provider's words, until
 * the run's time is up, the campaign is paused or canceled, or nobody is left. A provider that cannot be reached
 * pauses the campaign, saying why.
 */
export async function runSmsSend(
  ctx: SmsSendContext,
  campaignId: string,
  userId: string,
  abort?: AbortSignal,
): Promise<{ next: Date } | 'done' | 'stop'> {
  const setup = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    await trx
      .updateTable('sms_campaign_recipients')
      .set({ state: 'unconfirmed', reason: SMS_UNCONFIRMED_REASON })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'sending')
      .execute();
    const campaign = await trx
      .selectFrom('sms_campaigns')
      .select(['message', 'per_minute', 'status'])
      .where('id', '=', campaignId)
      .executeTakeFirst();
    return campaign ? { campaign, from: await senderOf(trx, userId, ctx.defaultCallerId) } : null;
  });
  if (setup?.campaign.status !== 'sending') return 'stop';
  const { campaign, from } = setup;
  if (!from) {
    await pause(ctx, campaignId, userId, null, SMS_MESSAGES.noSender);
    return 'stop';
  }
  const spacingMs = 60_000 / campaign.per_minute;
  const until = Date.now() + RUN_FOR_MS;
  while (Date.now() < until && !abort?.aborted) {
    const started = Date.now();
    const claimed = await claimNext(ctx, campaignId, userId, from);
    if (claimed === 'stop' || claimed === 'done') return claimed;
    if ('wait' in claimed)
      return { next: new Date(Date.now() + Math.max(0, claimed.wait.getTime() - ctx.clock().getTime())) };
    const outcome = await deliver(ctx, from, campaign.message, claimed);
    if (outcome.kind === 'provider-down') {
      await pause(ctx, campaignId, userId, claimed.contactId, outcome.reason);
      return 'stop';
    }
    await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
      trx
        .updateTable('sms_campaign_recipients')
        .set(
          outcome.kind === 'sent'
            ? {
                state: 'sent',
                sent_at: ctx.clock(),
                provider_message_id: outcome.providerMessageId,
                // A delivery report may already have arrived (it finds the row by its reference).
                delivery: sql`coalesce(delivery, 'queued')`,
              }
            : { state: outcome.kind, reason: outcome.reason.slice(0, 1000) },
        )
        .where('campaign_id', '=', campaignId)
        .where('contact_id', '=', claimed.contactId)
        .where('state', '=', 'sending')
        .execute(),
    );
    const due = started + spacingMs;
    if (due - Date.now() > LONGEST_WAIT_IN_RUN_MS) return { next: new Date(due) };
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
  }
  return { next: new Date() };
}

/**
 * The provider could not be reached (it took no message): the recipient goes back to the queue and the campaign
 * pauses with the reason, to be resumed once it is fixed.
 */
async function pause(
  ctx: SmsSendContext,
  campaignId: string,
  userId: string,
  contactId: string | null,
  reason: string,
): Promise<void> {
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    if (contactId)
      await trx
        .updateTable('sms_campaign_recipients')
        .set({ state: 'queued', attempted_at: null })
        .where('campaign_id', '=', campaignId)
        .where('contact_id', '=', contactId)
        .where('state', '=', 'sending')
        .execute();
    await trx
      .updateTable('sms_campaigns')
      .set({ status: 'paused', pause_reason: reason.slice(0, 1000), updated_at: ctx.clock() })
      .where('id', '=', campaignId)
      .where('status', '=', 'sending')
      .execute();
  });
}

/** The job queue's task: one run, and the next one queued while recipients remain. */
export function smsSendTask(ctx: SmsSendContext): JobTask {
  return async (payload, helpers) => {
    const { campaignId, userId } = payload as { campaignId: string; userId: string };
    const result = await runSmsSend(ctx, campaignId, userId, helpers.abortSignal);
    if (typeof result === 'object')
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        scheduleRun(trx, 'sms', campaignId, userId, result.next),
      );
  };
}
