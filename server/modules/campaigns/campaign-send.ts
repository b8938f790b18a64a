import { spacingMs } from '#domain/campaigns/campaign-pace.ts';
import type { CampaignChannel, CampaignStatus } from '#domain/campaigns/campaign-state.ts';
import type { AppContext } from '../../app-context.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { recordDecisions, type DecisionLine } from '../consent/public.ts';
import type { JobTask } from '../../jobs/job-runner.ts';
import { lockIfSending, pauseForFailure, setStatus } from './campaigns.repository.ts';
import { scheduleRun } from './campaign-schedule.ts';
import { takeSendingSlot } from './sending-limits.repository.ts';

/** A run sends for at most this long, then queues the next run, so shutdowns and other jobs never wait long. */
const RUN_FOR_MS = 20_000;
/** A pause longer than this between two messages ends the run; the next run is queued for when the next is due. */
const LONGEST_WAIT_IN_RUN_MS = 1_000;

export type SendContext = Pick<
  AppContext,
  'db' | 'clock' | 'secretBox' | 'sendSmtp' | 'publicUrl' | 'telephony' | 'defaultCallerId'
>;

/** What came of handing one message over, to be recorded on the recipient. */
export type Recorded<Sent> =
  ({ kind: 'sent' } & Sent) | { kind: 'failed'; reason: string } | { kind: 'unconfirmed'; reason: string };
/** Or the server or provider itself failed, not this recipient: the campaign pauses. */
export type Outcome<Sent> = Recorded<Sent> | { kind: 'server-down'; reason: string };

/**
 * The next recipient in turn: whether to skip them (and why), or to let them wait until a moment (outside their
 * calling hours), and what their message needs if neither. `consent`: the gate's decision, kept in the contact's
 * consent record once the recipient is marked (not when the send waits for a slot of the sending limit and asks
 * again later).
 */
export type Candidate<Claim> = {
  contactId: string;
  skip: string | null;
  defer?: Date;
  claim: Claim;
  consent?: DecisionLine;
};

/**
 * What a channel (e-mail, SMS) supplies to the one send loop: its tables' statements, its claim query, its skip
 * facts and its deliver step. Status, pace, the user's sending limit, pausing on a failed server, and never sending
 * twice are the loop's.
 */
export type SendChannel<Setup, Claim, Sent> = {
  channel: CampaignChannel;
  /**
   * The start of a run, as the owner: recipients a dead run left 'sending' become unconfirmed; then what every
   * message of the run needs. Null: the campaign is gone. `pause`: it cannot send (no sender), and why.
   */
  begin: (
    trx: DbExecutor,
    ctx: SendContext,
    campaignId: string,
    userId: string,
  ) => Promise<
    ({ status: CampaignStatus; perMinute: number } & ({ setup: Setup } | { pause: string })) | null
  >;
  /** The next queued recipient whose turn it is, decided (skip or send), or null when none is. */
  next: (
    trx: DbExecutor,
    campaignId: string,
    setup: Setup,
    now: Date,
    userId: string,
  ) => Promise<Candidate<Claim> | null>;
  /** Nobody's turn now: when someone's will be (a sequence's next e-mail), or null when the campaign is done. */
  nextDue?: (trx: DbExecutor, campaignId: string, setup: Setup) => Promise<Date | null> | null;
  /** Records the skip or the wait, or marks the recipient 'sending' (committed before the message leaves). */
  mark: (
    trx: DbExecutor,
    campaignId: string,
    candidate: Candidate<Claim>,
    setup: Setup,
    now: Date,
  ) => Promise<void>;
  /** A connection held for the whole run (the mail server's), closed at its end. */
  open?: (ctx: SendContext, setup: Setup) => { close: () => void } | null;
  deliver: (ctx: SendContext, setup: Setup, claim: Claim, session: unknown) => Promise<Outcome<Sent>>;
  /** Records a sent, failed or unconfirmed outcome (never 'server-down', which pauses the campaign). */
  record: (
    trx: DbExecutor,
    campaignId: string,
    userId: string,
    candidate: Candidate<Claim>,
    outcome: Recorded<Sent>,
    setup: Setup,
    now: Date,
  ) => Promise<void>;
};

type Claimed<Claim> = Candidate<Claim> | { wait: Date } | 'stop' | 'done';

/**
 * The next recipient to send to, as the campaign's owner: skipped ones are recorded with why on the way; the one
 * found is marked 'sending' and committed before its message leaves, so a crash never leads to sending it twice.
 * 'stop' when the campaign is no longer sending; 'done' when nobody is left (it is marked sent); a wait when nobody
 * is due yet or the user's sending limit has no slot free.
 */
async function claimNext<Setup, Claim, Sent>(
  ctx: SendContext,
  channel: SendChannel<Setup, Claim, Sent>,
  campaignId: string,
  userId: string,
  setup: Setup,
): Promise<Claimed<Claim>> {
  return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    if (!(await lockIfSending(trx, channel.channel, campaignId))) return 'stop';
    for (;;) {
      const now = ctx.clock();
      const candidate = await channel.next(trx, campaignId, setup, now, userId);
      if (!candidate) {
        const due = (await channel.nextDue?.(trx, campaignId, setup)) ?? null;
        if (due) return { wait: due };
        await setStatus(trx, channel.channel, campaignId, 'sent', now, { finished: true });
        return 'done';
      }
      // The user's sending limit, across all their campaigns of this channel: wait for the next free slot.
      const passed = candidate.skip !== null || candidate.defer !== undefined;
      const slot = passed ? null : await takeSendingSlot(trx, userId, channel.channel, now);
      if (slot) return { wait: slot };
      if (candidate.consent) await recordDecisions(trx, userId, [candidate.consent], now);
      await channel.mark(trx, campaignId, candidate, setup, now);
      if (!passed) return candidate;
    }
  });
}

/**
 * One run of a campaign's send (docs/decisions/017-email-campaigns.md, 019-sms-campaigns.md): recipients a dead
 * run left being handed over are marked unconfirmed (never sent again blindly); then recipients get their message
 * one by one at the campaign's pace, each recorded with its outcome, until the run's time is up (the next run is
 * queued), the campaign is paused or canceled, or nobody is left. A server or provider that fails as a whole
 * pauses the campaign, saying why, instead of failing every remaining recipient one by one.
 */
export async function runSend<Setup, Claim, Sent>(
  ctx: SendContext,
  channel: SendChannel<Setup, Claim, Sent>,
  campaignId: string,
  userId: string,
  abort?: AbortSignal,
): Promise<{ next: Date } | 'done' | 'stop'> {
  const asOwner = <T>(work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const begun = await asOwner((trx) => channel.begin(trx, ctx, campaignId, userId));
  if (begun?.status !== 'sending') return 'stop';
  if ('pause' in begun) {
    await asOwner((trx) => pauseForFailure(trx, channel.channel, campaignId, null, begun.pause, ctx.clock()));
    return 'stop';
  }
  const { setup } = begun;
  const spacing = spacingMs(begun.perMinute);
  const until = Date.now() + RUN_FOR_MS;
  const session = channel.open?.(ctx, setup) ?? null;
  try {
    while (Date.now() < until && !abort?.aborted) {
      const started = Date.now();
      const claimed = await claimNext(ctx, channel, campaignId, userId, setup);
      if (claimed === 'stop' || claimed === 'done') return claimed;
      // Nobody is due yet: the next run is queued for then (the clock may be a test's, so by difference).
      if ('wait' in claimed)
        return { next: new Date(Date.now() + Math.max(0, claimed.wait.getTime() - ctx.clock().getTime())) };
      const outcome = await channel.deliver(ctx, setup, claimed.claim, session);
      if (outcome.kind === 'server-down') {
        await asOwner((trx) =>
          pauseForFailure(trx, channel.channel, campaignId, claimed.contactId, outcome.reason, ctx.clock()),
        );
        return 'stop';
      }
      await asOwner((trx) => channel.record(trx, campaignId, userId, claimed, outcome, setup, ctx.clock()));
      const due = started + spacing;
      if (due - Date.now() > LONGEST_WAIT_IN_RUN_MS) return { next: new Date(due) };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
    return { next: new Date() };
  } finally {
    session?.close();
  }
}

/** The job queue's task for a channel: one run, and the next one queued (for when it is due) while any remain. */
export function sendTask<Setup, Claim, Sent>(
  ctx: SendContext,
  channel: SendChannel<Setup, Claim, Sent>,
): JobTask {
  return async (payload, helpers) => {
    const { campaignId, userId } = payload as { campaignId: string; userId: string };
    const result = await runSend(ctx, channel, campaignId, userId, helpers.abortSignal);
    if (typeof result === 'object')
      await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        scheduleRun(trx, channel.channel, campaignId, userId, result.next),
      );
  };
}
