import { randomInt, randomUUID } from 'node:crypto';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { FINISHED_STATUSES } from '#domain/calls/call-status.ts';
import { isSamePhone } from '#domain/contacts/phone.ts';
import {
  onAnswers,
  onLineEvent,
  pauseRound,
  roundSettled,
  type Round,
  type RoundAction,
} from '#domain/dialer/dial-round.ts';
import { abandonmentMessage } from '#domain/dialer/pacing.ts';
import { withActor, withActorRetryingDeadlocks, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { agentIdentity, ProviderError } from '../../telephony/telephony-provider.ts';
import { chooseCallerIds } from '../caller-ids/public.ts';
import { recordDecisions, type Reach } from '../consent/public.ts';
import { findProfile } from '../profiles/public.ts';
import { completeQueueMembers, releaseHolds, storeWalkIndex } from '../queues/public.ts';
import { cancelIfNotPlaced, insertCalls, recordProviderAnswer } from './calls.repository.ts';
import { disclosureNeeded, recordsCalls } from './call-recording-choice.ts';
import { stateOfNumber } from '../../telephony/number-places.ts';
import { lockUserCalling } from './call-locks.repository.ts';
import {
  hasCallGoingOn,
  insertRound,
  lockOpenRound,
  lockRound,
  storeRound,
  type LineRow,
} from './dial-rounds.repository.ts';
import { saveDisposition } from './dispositions.service.ts';
import { MISSING_FROM, withTimeout } from './calls.service.ts';

/*
 * Parallel dialing's rounds on the server (docs/decisions/026-parallel-dialing-pacing.md). The pure state machine
 * (domain/dialer/dial-round.ts) says what each line's event does; this applies it: the round's row is locked for
 * every event, so whichever instance receives a webhook, the first person who answers is connected once.
 */

type RoundContext = Pick<
  AppContext,
  'db' | 'clock' | 'telephony' | 'defaultCallerId' | 'providerTimeoutMs' | 'instanceId'
>;

export type LineToDial = { contactId: string; to: string; reach: Reach };
export type PlacedLine = { id: string; from: string; to: string; roundId: string; recorded: boolean };

/**
 * A line is recorded (from the moment it is put through to the rep, and only then) when the user records calls and
 * the contact needs no disclosure: a disclosure played before the rep would hold a person who answered past the
 * 2-second rule of an abandoned call, so where every party must consent a line is not recorded (decision 030).
 */
function lineRecording(
  records: boolean,
  line: LineToDial & { from: string },
): { disclosure: null } | undefined {
  const needed = disclosureNeeded(line.reach.facts.state ?? stateOfNumber(line.to), line.from);
  return records && !needed ? { disclosure: null } : undefined;
}

/**
 * The hold a line's contact is taken under: a walker id of its own (the call keeps it), so no two lines, in this
 * round or another, share one and releasing one line lets go of that contact alone.
 */
export const newLineHold = () => randomUUID();

/**
 * Records a round in the caller's transaction (which holds the queue's lock and took the members under the line
 * holds `lineWalker` names): the round row, one call per line, the consent decisions that let each be dialled. A
 * user with a call going on gets none (one conversation at a time). Dial it after the transaction commits.
 */
export async function recordRound(
  trx: DbExecutor,
  ctx: Pick<RoundContext, 'telephony' | 'defaultCallerId' | 'instanceId'>,
  userId: string,
  round: {
    id: string;
    queue: { id: string; projectId: string | null };
    walker: string;
    why: string;
    lines: (LineToDial & { walker: string })[];
  },
  now: Date,
): Promise<PlacedLine[]> {
  await lockUserCalling(trx, userId);
  if (await hasCallGoingOn(trx, userId))
    throw new AppError(
      'CONCURRENT_PREVENTED',
      'A call is already in progress. End it before the next round.',
    );
  // Each line from the caller ID nearest its contact (local presence, decision 027), else the default.
  const lines: (LineToDial & { walker: string; from: string })[] = [];
  const froms = await chooseCallerIds(
    trx,
    userId,
    round.lines.map((l) => l.to),
    ctx.defaultCallerId,
  );
  for (const [i, line] of round.lines.entries()) {
    const from = froms[i];
    if (!from) throw new AppError('VALIDATION_FAILED', `${MISSING_FROM.title}: ${MISSING_FROM.description}`);
    if (!isSamePhone(from, line.to)) lines.push({ ...line, from });
  }
  await insertRound(trx, {
    id: round.id,
    userId,
    queueId: round.queue.id,
    walker: round.walker,
    lines: Math.max(1, lines.length),
    why: round.why,
    now,
  });
  const records = await recordsCalls(trx, userId);
  // Each line with whether it is recorded, so the calls below and what is dialled are read from one list.
  const dialled = lines.map((line) => ({ ...line, recording: lineRecording(records, line) }));
  const calls = await insertCalls(
    trx,
    dialled.map((line, index) => ({
      userId,
      contactId: line.contactId,
      // Each line is its own request, as a click would be (unique per user).
      requestId: newRequestId(() => randomInt(0, 2 ** 32) / 2 ** 32),
      provider: ctx.telephony.name,
      instanceId: ctx.telephony.name === 'simulator' ? ctx.instanceId : null,
      from: line.from,
      to: line.to,
      now,
      queueId: round.queue.id,
      projectId: round.queue.projectId,
      line: { roundId: round.id, walker: line.walker, number: index + 1 },
      ...(line.recording && { recording: line.recording }),
    })),
  );
  const placed: PlacedLine[] = calls.map((call, index) => {
    const line = dialled[index]!;
    return {
      id: call.id,
      from: line.from,
      to: line.to,
      roundId: round.id,
      recorded: Boolean(line.recording),
    };
  });
  await recordDecisions(
    trx,
    userId,
    lines.map((l) => ({ contactId: l.contactId, channel: 'call' as const, reach: l.reach })),
    now,
  );
  return placed;
}

/**
 * Hands a recorded round's lines to the provider, all at once, each held on silence until the round decides. A
 * line the provider refuses ends as failed (its contact gets No Answer and is completed, as the state machine says).
 */
export async function dialRound(ctx: RoundContext, userId: string, lines: PlacedLine[]): Promise<void> {
  const asUser = <T>(work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  await Promise.all(
    lines.map(async (line) => {
      try {
        const accepted = await withTimeout(
          ctx.telephony.placeCall({
            callId: line.id,
            from: line.from,
            to: line.to,
            agentIdentity: agentIdentity(userId),
            hold: true,
            ...(line.recorded && { recording: { disclosure: null } }),
          }),
          ctx.providerTimeoutMs,
          'The telephony provider did not answer in time. Could not connect to calling service',
        );
        const recorded = await asUser((trx) =>
          recordProviderAnswer(trx, userId, line.id, accepted, ctx.clock()),
        );
        // Released (Pause, or another line connected) before the provider answered: end it now it has an id.
        if (recorded.status === 'canceled')
          await ctx.telephony.hangUp(accepted.providerCallId).catch(() => undefined);
      } catch (error) {
        const message =
          error instanceof ProviderError ? error.message : 'Could not connect to calling service';
        await asUser((trx) => recordProviderAnswer(trx, userId, line.id, { error: message }, ctx.clock()));
        await applyLineEvent(ctx, userId, line.roundId);
      }
    }),
  );
}

type ProviderStep = { line: LineRow; action: RoundAction };

/** The actions that touch the database, in the event's transaction: dispositions, holds released, members done. */
async function applyInDatabase(
  trx: DbExecutor,
  userId: string,
  lines: Map<string, LineRow>,
  actions: RoundAction[],
  now: Date,
): Promise<ProviderStep[]> {
  const steps: ProviderStep[] = [];
  const queues = new Set<string>();
  for (const action of actions) {
    const line = lines.get(action.line);
    if (!line) continue;
    if (action.do === 'dispose' && line.contact_id)
      // Saved as the rep would (the contact's last call, the queue's member completed); they may change it.
      await saveDisposition(
        trx,
        userId,
        {
          callId: line.id,
          contactId: line.contact_id,
          disposition: action.disposition,
          notes: '',
          qualification: 'cold',
          queueId: line.queue_id ?? undefined,
        },
        now,
      );
    else if (action.do === 'complete' && line.queue_id && line.contact_id) {
      await completeQueueMembers(trx, line.queue_id, [line.contact_id], now);
      queues.add(line.queue_id);
    } else if (
      (action.do === 'release' || (action.do === 'hang-up' && action.then === 'release')) &&
      line.queue_id &&
      line.line_walker
    )
      await releaseHolds(trx, line.queue_id, line.line_walker);
    // A line not placed yet is canceled here; dialRound hangs it up as soon as the provider answers.
    if (action.do === 'hang-up' && !line.provider_call_id) await cancelIfNotPlaced(trx, userId, line.id, now);
    if (action.do === 'hang-up' || action.do === 'connect') steps.push({ line, action });
  }
  for (const queueId of queues) await storeWalkIndex(trx, queueId, now);
  return steps;
}

/** What the round's lines look like before and after, written back: states, the connected call, settled. */
async function storeTransition(
  trx: DbExecutor,
  roundId: string,
  before: Round,
  after: Round,
  settledAt: Date | null,
  now: Date,
) {
  const changed = Object.entries(after.lines)
    .filter(([id, state]) => before.lines[id] !== state)
    .map(([id, state]) => ({ id, state }));
  const abandoned = changed.filter((c) => c.state === 'abandoned').map((c) => c.id);
  await storeRound(
    trx,
    roundId,
    {
      lines: changed.map((c) => ({ ...c, before: before.lines[c.id] ?? 'ringing' })),
      connectedCallId: after.connected,
      settledAt: settledAt ?? (roundSettled(after) ? now : null),
      abandoned,
    },
    now,
  );
}

/** The provider's side of the actions, after the transaction committed: hang up, connect, play the message. */
async function applyAtProvider(ctx: RoundContext, userId: string, steps: ProviderStep[]): Promise<void> {
  let message: string | null = null;
  const identification = async (from: string) =>
    (message ??= abandonmentMessage({
      name: await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        const profile = await findProfile(trx, userId);
        return `${profile?.firstName ?? ''} ${profile?.lastName ?? ''}`;
      }),
      number: from,
    }));
  await Promise.all(
    steps.map(async ({ line, action }) => {
      const providerCallId = line.provider_call_id;
      if (!providerCallId) return; // Not placed yet: dialRound ends it when the provider answers (canceled).
      try {
        if (action.do === 'connect')
          await ctx.telephony.connectAgent(providerCallId, {
            callId: line.id,
            agentIdentity: agentIdentity(userId),
            ...(line.recorded && { recording: { disclosure: null } }),
          });
        else if (action.do === 'hang-up' && action.then === 'abandon-message')
          await ctx.telephony.playAndHangUp(providerCallId, await identification(line.from_number));
        else if (action.do === 'hang-up') await ctx.telephony.hangUp(providerCallId);
      } catch {
        // The provider's status events still close the call; the stale-calls janitor ends it if they never come.
      }
    }),
  );
}

const roundOf = (lines: LineRow[], connected: string | null): Round => ({
  lines: Object.fromEntries(lines.map((l) => [l.id, l.line_state ?? 'ringing'])),
  connected,
});

/**
 * A provider event (a status, or who answered) for a call that may be a line of a round, already stored on the
 * call: its round is caught up under the round's lock, then the provider is told what to do. A call of no round
 * changes nothing here.
 */
export async function applyLineEvent(ctx: RoundContext, userId: string, roundId: string): Promise<void> {
  const { steps } = await withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, (trx) =>
    transition(trx, userId, roundId, ctx.clock()),
  );
  await applyAtProvider(ctx, userId, steps);
}

/**
 * Brings a round up to what its calls say, in the order things happen on the phone: first every answer (in the
 * order the calls were answered), then what detection said of each, then how each call ended. Providers post these
 * as separate webhooks, which may arrive late, out of order, twice, or on another instance; replaying the facts
 * under the round's lock gives the same answer whichever way they came. A person who answered while another line
 * was being connected is abandoned with the message, never hung up on as if still ringing; a line whose instance
 * died mid-round is settled from its final status.
 */
export function catchUp(round: Round, lines: LineRow[]): { round: Round; actions: RoundAction[] } {
  let current = round;
  const actions: RoundAction[] = [];
  const apply = (event: Parameters<typeof onLineEvent>[1]) => {
    const next = onLineEvent(current, event);
    current = next.round;
    actions.push(...next.actions);
  };
  const byAnswer = [...lines].sort(
    (a, b) => (a.answered_at?.getTime() ?? Infinity) - (b.answered_at?.getTime() ?? Infinity),
  );
  // Every line answered by now counts as answered together: none of them is released as if still ringing.
  const answers = onAnswers(
    current,
    byAnswer.filter((line) => line.answered_at).map((line) => line.id),
  );
  current = answers.round;
  actions.push(...answers.actions);
  // A line released before its answer reached us was picked up all the same: that person was hung up on.
  for (const line of byAnswer)
    if (line.answered_at) apply({ line: line.id, kind: 'status', status: 'in-progress' });
  for (const line of byAnswer)
    if (line.answered_by) apply({ line: line.id, kind: 'detected', answeredBy: line.answered_by });
  for (const line of lines)
    if (FINISHED_STATUSES.includes(line.status))
      apply({ line: line.id, kind: 'status', status: line.status });
  return { round: current, actions };
}

/**
 * One change to a round under its lock: caught up with its calls (catchUp), then `change` (a pause), the answer
 * written back and the database's actions done; the provider's actions are returned for after the commit.
 */
async function transition(
  trx: DbExecutor,
  userId: string,
  roundId: string,
  now: Date,
  change: (round: Round) => { round: Round; actions: RoundAction[] } = (round) => ({ round, actions: [] }),
): Promise<{ steps: ProviderStep[]; settled: boolean }> {
  const found = await lockRound(trx, roundId);
  if (!found) return { steps: [], settled: true };
  const before = roundOf(found.lines, found.round.connectedCallId);
  const caughtUp = catchUp(before, found.lines);
  const { round: after, actions } = change(caughtUp.round);
  const all = [...caughtUp.actions, ...actions];
  await storeTransition(trx, found.round.id, before, after, found.round.settledAt, now);
  const steps = await applyInDatabase(trx, userId, new Map(found.lines.map((l) => [l.id, l])), all, now);
  return { steps, settled: roundSettled(after) };
}

/** A walker's round left unsettled (its instance died mid-round) is caught up; answers whether it is over now. */
export async function settleOpenRound(trx: DbExecutor, userId: string, roundId: string, now: Date) {
  const { settled } = await transition(trx, userId, roundId, now);
  return settled;
}

/**
 * Pause: the walker's round still ringing lets go of every line not yet answered (hung up, contacts back in the
 * queue); a line already answered is left to detection. Answers whether there was a round to pause.
 */
export async function pauseOpenRound(
  ctx: RoundContext,
  userId: string,
  queueId: string,
  walker: string,
): Promise<boolean> {
  const steps = await withActorRetryingDeadlocks(ctx.db, { kind: 'user', userId }, async (trx) => {
    const open = await lockOpenRound(trx, userId, queueId, walker);
    return open ? (await transition(trx, userId, open.id, ctx.clock(), pauseRound)).steps : null;
  });
  if (steps === null) return false;
  await applyAtProvider(ctx, userId, steps);
  return true;
}
