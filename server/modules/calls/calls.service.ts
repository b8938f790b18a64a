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
import { decideForContact, decideForNumber, recordDecisions, type Reach } from '../consent/public.ts';
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

/**
 * Places a call (decision 000 duplicate prevention, server as the authority):
 * 1. the number: the contact's phone ('Contact does not have a valid phone number'), or the one given;
 * 2. the caller ID: one of the user's, or their default, or the instance's ('Missing phone number'); never the
 *    number being called ('Invalid call configuration'); never a number on the do-not-call list;
 * 3. under a per-user advisory lock, so it holds across tabs, devices and server instances: a request id already
 *    used answers the same call (idempotent); otherwise the lock, very-recent, concurrent and pair-window rules,
 *    refused with DUPLICATE_PREVENTED or CONCURRENT_PREVENTED; the call is recorded and the lock taken;
 * 4. the provider is asked outside any transaction; its answer (accepted or refused in its own words) is
 *    recorded and the lock released either way.
 */
export async function placeCall(ctx: CallingContext, userId: string, input: PlaceCallInput): Promise<Call> {
  const asUser = <T>(work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  if (input.via === 'browser' && !ctx.telephony.browserPhone)
    throw new AppError(
      'VALIDATION_FAILED',
      'The browser phone dials through Twilio; on the built-in simulator the server places the call.',
    );
  const prepared = await asUser(async (trx) => {
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
    // The consent gate: do-not-call, calling hours where the contact is, their state's daily limit.
    const reach = input.contactId
      ? await decideForContact(trx, userId, input.contactId, 'call', ctx.clock())
      : await decideForNumber(trx, userId, toE164, 'call', ctx.clock());
    if (reach && !reach.decision.allowed) {
      // The refusal is kept in the contact's consent record (this transaction commits), then answered.
      await recordDecisions(
        trx,
        userId,
        [{ contactId: input.contactId ?? null, channel: 'call', reach }],
        ctx.clock(),
      );
      return {
        refused: new AppError(
          reach.decision.code === 'do-not-call' ? 'DO_NOT_CALL' : 'CONSENT_REFUSED',
          reach.decision.code === 'do-not-call'
            ? `${toE164} is on your do-not-call list. Remove it there before calling.`
            : reach.decision.reason,
        ),
      };
    }
    // A call made from a queue carries its id and its project's; another user's queue, or one deleted meanwhile,
    // is not found.
    const queue = input.queueId ? await lockQueueIfAny(trx, userId, input.queueId) : undefined;
    if (input.queueId && !queue) throw new AppError('NOT_FOUND', 'Queue not found');
    const recording = await recordingOf(trx, userId, () => reach?.facts.state ?? stateOfNumber(toE164), from);
    return { to: toE164, from, queue, reach, recording };
  });
  if ('existing' in prepared && prepared.existing) return prepared.existing;
  if ('refused' in prepared && prepared.refused) throw prepared.refused;
  const { to, from, queue, reach, recording } = prepared as {
    reach: Reach | undefined;
    to: string;
    from: string;
    queue?: { id: string; projectId: string | null };
    recording: { disclosure: string | null } | undefined;
  };

  const now = ctx.clock();
  const call = await asUser(async (trx) => {
    await lockUserCalling(trx, userId);
    const again = await findCallByRequestId(trx, userId, input.requestId);
    if (again) return again;
    const verdict = checkCall(
      { to, from },
      await findGuardState(trx, userId, to, new Date(now.getTime() - PAIR_WINDOW_MS)),
      now,
    );
    if (!verdict.ok) throw new AppError(serverCodeFor(verdict.code), verdict.message);
    await takeCallLock(trx, userId, input.requestId, now);
    if (reach)
      await recordDecisions(
        trx,
        userId,
        [{ contactId: input.contactId ?? null, channel: 'call', reach }],
        now,
      );
    return insertCall(trx, {
      userId,
      contactId: input.contactId ?? null,
      requestId: input.requestId,
      provider: ctx.telephony.name,
      // A simulated call lives in this process: the instance is recorded so its end can be found from any other.
      instanceId: ctx.telephony.name === 'simulator' ? ctx.instanceId : null,
      from,
      to,
      now,
      queueId: queue?.id ?? null,
      projectId: queue?.projectId ?? null,
      ...(recording && { recording }),
    });
  });
  if (call.status !== 'queued' || call.requestId !== input.requestId) return call;
  if (input.via === 'browser') {
    // The browser phone connects it now, through the Voice URL (claimBrowserCall); the sweeper closes it if not.
    await asUser((trx) => releaseCallLock(trx, userId, input.requestId));
    return call;
  }

  try {
    const accepted = await withTimeout(
      ctx.telephony.placeCall({
        callId: call.id,
        from,
        to,
        agentIdentity: agentIdentity(userId),
        ...(recording && { recording }),
      }),
      ctx.providerTimeoutMs,
      'The telephony provider did not answer in time. Could not connect to calling service',
    );
    const recorded = await asUser((trx) => recordProviderAnswer(trx, userId, call.id, accepted, ctx.clock()));
    // END CALL came while the provider was still answering: end it now that it has an id.
    if (recorded.status === 'canceled')
      await ctx.telephony.hangUp(accepted.providerCallId).catch(() => undefined);
    return recorded;
  } catch (error) {
    const message = error instanceof ProviderError ? error.message : 'Could not connect to calling service';
    await asUser((trx) => recordProviderAnswer(trx, userId, call.id, { error: message }, ctx.clock()));
    throw new AppError('PROVIDER_ERROR', message);
  } finally {
    await asUser((trx) => releaseCallLock(trx, userId, input.requestId));
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
