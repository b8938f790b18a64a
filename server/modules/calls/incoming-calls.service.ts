import { chooseCallee, INCOMING_MESSAGES, INCOMING_RING_SECONDS } from '#domain/calls/incoming-call.ts';
import { formatPhoneForDisplay, normalizePhone } from '#domain/contacts/phone.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import {
  agentIdentity,
  type IncomingCallEvent,
  type WebhookReply,
} from '../../telephony/telephony-provider.ts';
import { notifyUser } from '../notifications/public.ts';
import { isBrowserOpen } from '../../realtime/browser-presence.repository.ts';
import { applyStatusEvent } from './calls.repository.ts';
import { voicemailReply } from './voicemail.service.ts';
import { recordingOf } from './call-recording-choice.ts';
import { decideForContact } from '../consent/public.ts';
import { stateOfNumber } from '../../telephony/number-places.ts';
import {
  contactName,
  contactWithNumber,
  findIncomingCall,
  findUsersIncomingCall,
  missIncomingCall,
  recordIncomingCall,
  takeIncomingCall,
  usersWithNumber,
} from './incoming-calls.repository.ts';

/**
 * A call to one of our numbers (decision 028): it goes to the user who has the number (a caller who calls back
 * reaches the user who called them), is recorded ringing with the caller's contact, and rings that user's browser
 * phones, or, with none of them open, is missed at once and goes to voicemail; a number nobody has is told it is not
 * in service. A simulated call reaches only the user who made it.
 */
export async function receiveIncomingCall(ctx: AppContext, event: IncomingCallEvent): Promise<WebhookReply> {
  const { incoming } = ctx.telephony;
  const from = normalizePhone(event.from) ?? event.from;
  const to = normalizePhone(event.to) ?? event.to;
  const owners = await withActor(ctx.db, { kind: 'system' }, (trx) =>
    usersWithNumber(trx, to, from, ctx.defaultCallerId),
  );
  // A simulated call reaches only the user who made it, on their number or on the instance's.
  const simulated = event.simulatedFor;
  const candidates = simulated
    ? owners.some((o) => o.userId === simulated)
      ? owners.filter((o) => o.userId === simulated)
      : to === ctx.defaultCallerId
        ? [{ userId: simulated, numberAddedAt: null, lastCalledCallerAt: null }]
        : []
    : owners;
  const ranked = await Promise.all(
    candidates.map(async (candidate) => ({
      ...candidate,
      hasCallerAsContact: Boolean(
        await withActor(ctx.db, { kind: 'user', userId: candidate.userId }, (trx) =>
          contactWithNumber(trx, candidate.userId, from),
        ),
      ),
    })),
  );
  const userId = chooseCallee(ranked);
  if (!userId) return incoming.sayReply(INCOMING_MESSAGES.notInService);
  const now = ctx.clock();
  const { call, recording } = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
    const contact = await contactWithNumber(trx, userId, from);
    // Recorded as the user's calls are; the caller hears the disclosure first where their state or ours needs it.
    const callerState = async () =>
      (contact && (await decideForContact(trx, userId, contact.id, 'call', now))?.facts.state) ??
      stateOfNumber(from);
    const recording = await recordingOf(trx, userId, callerState, to);
    const call = await recordIncomingCall(
      trx,
      {
        userId,
        contactId: contact?.id ?? null,
        provider: ctx.telephony.name,
        providerCallId: event.providerCallId,
        from,
        to,
        instanceId: ctx.telephony.name === 'simulator' ? ctx.instanceId : null,
        recording,
      },
      now,
    );
    return { call, recording };
  });
  // With no browser of theirs open nothing can ring: missed at once, and the caller goes straight to voicemail
  // (again, if the provider retries the webhook of a call missed so).
  const missedNow =
    call.status === 'ringing' &&
    !(await withActor(ctx.db, { kind: 'system' }, (trx) => isBrowserOpen(trx, userId)));
  if (missedNow || call.status === 'no-answer') {
    return withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
      const missed = await findIncomingCall(trx, ctx.telephony.name, call.id);
      if (!missed) return incoming.endReply();
      if (await missIncomingCall(trx, call.id, 'no-answer', now)) await notifyMissedCall(trx, missed);
      return voicemailReply(ctx, trx, missed);
    });
  }
  if (call.status !== 'ringing') return incoming.endReply();
  return incoming.ringReply({
    id: call.id,
    identity: agentIdentity(userId),
    ringSeconds: INCOMING_RING_SECONDS,
    recording,
  });
}

/**
 * The incoming call's progress (incoming-status webhook): the ringing leg answered or ended moves the call as any
 * status does; the end of the ringing with nobody answering makes it missed, once, with a notification, and the
 * caller is told. Unknown calls are answered with the end of the call.
 */
export async function incomingCallProgress(
  ctx: AppContext,
  callId: string,
  body: Record<string, string>,
): Promise<WebhookReply> {
  const { incoming } = ctx.telephony;
  const progress = incoming.parseStatus(body);
  const now = ctx.clock();
  const call = await withActor(ctx.db, { kind: 'system' }, (trx) =>
    findIncomingCall(trx, ctx.telephony.name, callId),
  );
  if (!call || !progress) return incoming.endReply();
  // Twilio's Dial action says 'completed' only for a call that was answered, even if its answer event was lost.
  const answered = call.answered_at !== null || ['in-progress', 'completed'].includes(progress.status);
  if (progress.final && !answered) {
    // Missed (once, however often the provider retries), then the caller may leave a voicemail (decision 029).
    return withActor(ctx.db, { kind: 'user', userId: call.user_id }, async (trx) => {
      if (await missIncomingCall(trx, call.id, progress.status, now)) await notifyMissedCall(trx, call);
      return voicemailReply(ctx, trx, call);
    });
  }
  // An answer, or the end of an answered call, moves it as any status does; a leg that rang out on one device is
  // not the call missed (the end of the ringing says that).
  const status = progress.status === 'in-progress' ? 'in-progress' : answered ? 'completed' : null;
  if (status && call.provider_call_id) {
    const providerCallId = call.provider_call_id;
    await withActor(ctx.db, { kind: 'system' }, (trx) =>
      applyStatusEvent(
        trx,
        {
          provider: ctx.telephony.name,
          callId: null,
          providerCallId,
          status,
          durationSeconds: progress.durationSeconds,
        },
        now,
      ),
    );
  }
  return incoming.endReply();
}

async function notifyMissedCall(
  trx: Parameters<typeof notifyUser>[0],
  call: { id: string; user_id: string; contact_id: string | null; from_number: string },
) {
  const contact = call.contact_id ? await contactName(trx, call.contact_id) : undefined;
  const number = formatPhoneForDisplay(call.from_number);
  const who = contact ? `${contact.first_name} ${contact.last_name}`.trim() : number;
  await notifyUser(trx, {
    userId: call.user_id,
    kind: 'missed-call',
    subject: call.id,
    title: `Missed call from ${who}`,
    body: contact
      ? `${who} (${number}) called and nobody answered. Call them back from their page.`
      : `${number} called and nobody answered. Add them as a contact to call them back.`,
    link: call.contact_id
      ? `/contacts/${call.contact_id}`
      : `/contacts/new?phone=${encodeURIComponent(call.from_number)}`,
  });
}

/**
 * The user declines a call ringing them (the simulator; on Twilio the browser phone rejects it itself): the ringing
 * ends now and the caller hears the greeting and may leave a voicemail, as when nobody answers.
 */
export async function declineIncomingCall(ctx: AppContext, userId: string, callId: string): Promise<void> {
  const decline = ctx.telephony.incoming.decline;
  if (!decline) throw new AppError('CONFLICT', INCOMING_MESSAGES.declineInBrowserPhone);
  const call = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
    findUsersIncomingCall(trx, userId, callId),
  );
  if (!call) throw new AppError('NOT_FOUND', 'Call not found');
  if (!['queued', 'ringing'].includes(call.status))
    throw new AppError(
      'CONFLICT',
      call.status === 'in-progress' ? INCOMING_MESSAGES.answeredElsewhere : INCOMING_MESSAGES.ended,
    );
  if (call.provider_call_id) await decline(call.provider_call_id);
}

/**
 * The user picks up in one tab or device (the simulator; on Twilio the browser phone answers the provider itself):
 * the first takes the call, the others are told it was answered elsewhere, or that it has ended.
 */
export async function answerIncomingCall(ctx: AppContext, userId: string, callId: string): Promise<void> {
  const answer = ctx.telephony.incoming.answer;
  if (!answer) throw new AppError('CONFLICT', INCOMING_MESSAGES.answerInBrowserPhone);
  const taken = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
    takeIncomingCall(trx, userId, callId, ctx.clock()),
  );
  if (!taken.taken) {
    if (taken.status === null) throw new AppError('NOT_FOUND', 'Call not found');
    throw new AppError(
      'CONFLICT',
      taken.status === 'in-progress' ? INCOMING_MESSAGES.answeredElsewhere : INCOMING_MESSAGES.ended,
    );
  }
  if (taken.providerCallId) await answer(taken.providerCallId);
}
