import { checkCall, PAIR_WINDOW_MS, serverCodeFor } from '#domain/calls/call-guard.ts';
import type { Call, PlaceCallInput } from '#domain/calls/call.schema.ts';
import { normalizePhone, isSamePhone } from '#domain/contacts/phone.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { agentIdentity, ProviderError } from '../../telephony/telephony-provider.ts';
import { stateOfNumber } from '../../telephony/number-places.ts';
import { recordingOf } from './call-recording-choice.ts';
import { getContact } from '../contacts/public.ts';
import { phoneCountryOf } from '../profiles/public.ts';
import { lockQueueIfAny } from '../queues/public.ts';
import { chooseCallerId } from '../caller-ids/public.ts';
import { decideForContact, decideForNumber, recordDecisions } from '../consent/public.ts';
import {
  cancelIfNotPlaced,
  closeCall,
  findCallByRequestId,
  insertCall,
  recordProviderAnswer,
} from './calls.repository.ts';
import { findGuardState, lockUserCalling, releaseCallLock, takeCallLock } from './call-locks.repository.ts';

export const MISSING_FROM = {
  title: 'Missing phone number',
  description: "Please provide a 'from' phone number for Twilio calls",
};
export const SAME_NUMBERS = {
  title: 'Invalid call configuration',
  description:
    "The 'from' number and contact's number cannot be the same. Please use a different 'from' number.",
};

type CallingContext = Pick<
  AppContext,
  'db' | 'clock' | 'telephony' | 'defaultCallerId' | 'providerTimeoutMs' | 'instanceId'
>;

/** A provider that is down or slow never holds a click for long: the call fails with a clear reason. */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Transactions acting for the user. */
const actingFor =
  (ctx: CallingContext, userId: string) =>
  <T>(work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

/**
 * Places a call (decision 000 duplicate prevention, server as the authority), in one transaction:
 * 1. under a per-user advisory lock, so it holds across tabs, devices and server instances (taken after the queue's
 *    row lock, in the order a Parallel round takes them): a request id already used answers the same call
 *    (idempotent);
 * 2. the number: the contact's phone ('Contact does not have a valid phone number'), or the one given;
 * 3. the caller ID: one of the user's, or their default, or the instance's ('Missing phone number'); never the
 *    number being called ('Invalid call configuration'); the consent gate (do-not-call, calling hours, state limits);
 * 4. the lock, very-recent, concurrent and pair-window rules, refused with DUPLICATE_PREVENTED or
 *    CONCURRENT_PREVENTED; the call is recorded and, when the server asks the provider, the call lock taken;
 * 5. the provider is asked outside any transaction; its answer (accepted or refused in its own words) is
 *    recorded and the lock released in one more transaction, either way.
 * Two transactions in all, as few round trips as the rules allow (decision 049).
 */
export async function placeCall(ctx: CallingContext, userId: string, input: PlaceCallInput): Promise<Call> {
  const asUser = actingFor(ctx, userId);
  if (input.via === 'browser' && !ctx.telephony.browserPhone)
    throw new AppError(
      'VALIDATION_FAILED',
      'The browser phone dials through Twilio; on the built-in simulator the server places the call.',
    );
  const byServer = input.via !== 'browser';
  const recorded = await asUser(async (trx) => {
    // A call made from a queue carries its id and its project's; another user's queue, or one deleted meanwhile,
    // is not found.
    const queue = input.queueId ? await lockQueueIfAny(trx, userId, input.queueId) : undefined;
    await lockUserCalling(trx, userId);
    const existing = await findCallByRequestId(trx, userId, input.requestId);
    if (existing) return { existing };
    // A contact's number as stored (read in the user's country when saved); a typed one read in it now.
    const readInUsersCountry = async (raw: string) => normalizePhone(raw, await phoneCountryOf(trx, userId));
    let toE164: string | null;
    if (input.contactId) {
      const contact = await getContact(trx, userId, input.contactId);
      toE164 = contact.phoneE164 ?? (contact.phone ? await readInUsersCountry(contact.phone) : null);
      if (!contact.phone || !toE164)
        throw new AppError('VALIDATION_FAILED', 'Contact does not have a valid phone number');
    } else toE164 = await readInUsersCountry(input.to ?? '');
    if (!toE164) throw new AppError('VALIDATION_FAILED', 'No number entered');
    const from = await chooseCallerId(trx, userId, {
      requested: input.from,
      to: toE164,
      instanceDefault: ctx.defaultCallerId,
    });
    if (!from) throw new AppError('VALIDATION_FAILED', `${MISSING_FROM.title}: ${MISSING_FROM.description}`);
    if (isSamePhone(from, toE164))
      throw new AppError('VALIDATION_FAILED', `${SAME_NUMBERS.title}: ${SAME_NUMBERS.description}`);
    const now = ctx.clock();
    // The consent gate: do-not-call, calling hours where the contact is, their state's daily limit.
    const reach = input.contactId
      ? await decideForContact(trx, userId, input.contactId, 'call', now)
      : await decideForNumber(trx, userId, toE164, 'call', now);
    // Allowed or refused, the decision is kept in the contact's consent record (a refusal commits too).
    const decisions = reach ? [{ contactId: input.contactId ?? null, channel: 'call' as const, reach }] : [];
    if (reach && !reach.decision.allowed) {
      await recordDecisions(trx, userId, decisions, now);
      return {
        refused: new AppError(
          reach.decision.code === 'do-not-call' ? 'DO_NOT_CALL' : 'CONSENT_REFUSED',
          reach.decision.code === 'do-not-call'
            ? `${toE164} is on your do-not-call list. Remove it there before calling.`
            : reach.decision.reason,
        ),
      };
    }
    if (input.queueId && !queue) throw new AppError('NOT_FOUND', 'Queue not found');
    const recording = await recordingOf(trx, userId, () => reach?.facts.state ?? stateOfNumber(toE164), from);
    const verdict = checkCall(
      { to: toE164, from },
      await findGuardState(trx, userId, toE164, new Date(now.getTime() - PAIR_WINDOW_MS)),
      now,
    );
    if (!verdict.ok) throw new AppError(serverCodeFor(verdict.code), verdict.message);
    // The lock covers the wait for the provider's answer; the browser phone's call has none to wait for.
    if (byServer) await takeCallLock(trx, userId, input.requestId, now);
    await recordDecisions(trx, userId, decisions, now);
    const call = await insertCall(trx, {
      userId,
      contactId: input.contactId ?? null,
      requestId: input.requestId,
      provider: ctx.telephony.name,
      // A simulated call lives in this process: the instance is recorded so its end can be found from any other.
      instanceId: ctx.telephony.name === 'simulator' ? ctx.instanceId : null,
      from,
      to: toE164,
      now,
      queueId: queue?.id ?? null,
      projectId: queue?.projectId ?? null,
      ...(recording && { recording }),
    });
    return { call, recording };
  });
  if (recorded.existing) return recorded.existing;
  if (recorded.refused) throw recorded.refused;
  const { call, recording } = recorded;
  // The browser phone connects it now, through the Voice URL (claimBrowserCall); the sweeper closes it if not.
  if (!byServer) return call;

  let answer: { providerCallId: string } | { error: string };
  try {
    answer = await withTimeout(
      ctx.telephony.placeCall({
        callId: call.id,
        from: call.from,
        to: call.to,
        agentIdentity: agentIdentity(userId),
        ...(recording && { recording }),
      }),
      ctx.providerTimeoutMs,
      'The telephony provider did not answer in time. Could not connect to calling service',
    );
  } catch (error) {
    answer = {
      error: error instanceof ProviderError ? error.message : 'Could not connect to calling service',
    };
  }
  const answered = await recordAnswerAndRelease(ctx, userId, call.id, input.requestId, answer);
  if ('error' in answer) throw new AppError('PROVIDER_ERROR', answer.error);
  // END CALL came while the provider was still answering: end it now that it has an id.
  if (answered.status === 'canceled')
    await ctx.telephony.hangUp(answer.providerCallId).catch(() => undefined);
  return answered;
}

/**
 * The provider's answer recorded and the call lock released together. Should that fail, the lock is still released
 * on its own (the call's record then stays queued, and the stale-call sweeper closes it).
 */
async function recordAnswerAndRelease(
  ctx: CallingContext,
  userId: string,
  callId: string,
  requestId: string,
  answer: { providerCallId: string } | { error: string },
): Promise<Call> {
  const asUser = actingFor(ctx, userId);
  try {
    return await asUser(async (trx) => {
      const answered = await recordProviderAnswer(trx, userId, callId, answer, ctx.clock());
      await releaseCallLock(trx, userId, requestId);
      return answered;
    });
  } catch (error) {
    await asUser((trx) => releaseCallLock(trx, userId, requestId)).catch(() => undefined);
    throw error;
  }
}

/**
 * END CALL / hang up: asks the provider to end it; the provider's status events close the record. A call the
 * provider has not answered for yet (no provider id) is canceled here at once, and placeCall hangs it up as soon as
 * the provider's answer arrives, so an early END CALL is never lost. A simulated call whose instance has died
 * (nothing will ever report on it) is closed here and now.
 */
export async function hangUpCall(
  ctx: CallingContext & Pick<AppContext, 'isInstanceAlive'>,
  userId: string,
  callId: string,
): Promise<void> {
  const found = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
    cancelIfNotPlaced(trx, userId, callId, ctx.clock()),
  );
  if (!found) throw new AppError('NOT_FOUND', 'Call not found');
  if (!found.providerCallId) return;
  await ctx.telephony.hangUp(found.providerCallId);
  const owner = found.instanceId;
  if (ctx.telephony.name !== 'simulator' || !owner || owner === ctx.instanceId) return;
  await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    if (await ctx.isInstanceAlive(trx, owner)) return;
    const ended = found.status === 'in-progress' ? 'completed' : 'canceled';
    await closeCall(trx, callId, ended, 'The server running this simulated call stopped', ctx.clock());
  });
}
