import type { Call } from '#domain/calls/call.schema.ts';
import {
  VOICEMAIL_DROP_MESSAGES,
  voicemailLeftNote,
  type DropVoicemailRequest,
} from '#domain/recordings/voicemail-drop.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { ProviderError } from '../../telephony/telephony-provider.ts';
import { decideForContact, decideForNumber, recordDecisions } from '../consent/public.ts';
import { findVoicemailDrop, signedRecordingUrl } from '../recordings/public.ts';
import { getCall, lockCallForDrop, markVoicemailDropped } from './calls.repository.ts';
import { saveDisposition } from './dispositions.service.ts';

/**
 * Leaves one of the rep's recorded messages on an answered call (decision 031) and lets the rep go at once: the
 * consent gate must allow a prerecorded message for the contact (its decision joins their consent record either
 * way); the call keeps the message's name, the contact gets a 'voicemail' disposition saying which message was left
 * (completing them in the call's queue), and the provider plays the message to the machine, then ends the call.
 * All of it or nothing: a provider that refuses leaves the call as it was. A second drop on the call is refused.
 */
export async function dropVoicemail(
  ctx: AppContext,
  userId: string,
  callId: string,
  input: DropVoicemailRequest,
): Promise<Call> {
  const now = ctx.clock();
  const outcome: { refused: AppError } | { call: Call } = await withActor(
    ctx.db,
    { kind: 'user', userId },
    async (trx): Promise<{ refused: AppError } | { call: Call }> => {
      const call = await lockCallForDrop(trx, userId, callId);
      if (!call) throw new AppError('NOT_FOUND', 'Call not found');
      if (call.direction === 'inbound') throw new AppError('CONFLICT', VOICEMAIL_DROP_MESSAGES.notYours);
      if (call.voicemail_dropped_at) throw new AppError('CONFLICT', VOICEMAIL_DROP_MESSAGES.alreadyLeft);
      if (call.status !== 'in-progress' || !call.provider_call_id)
        throw new AppError('CONFLICT', VOICEMAIL_DROP_MESSAGES.notAnswered);
      const drop = await findVoicemailDrop(trx, userId, input.dropId);
      if (!drop) throw new AppError('NOT_FOUND', VOICEMAIL_DROP_MESSAGES.notFound);

      const reach = call.contact_id
        ? await decideForContact(trx, userId, call.contact_id, 'prerecorded', now)
        : await decideForNumber(trx, userId, call.to_number, 'prerecorded', now);
      // No answer from the gate (the contact is gone): no prerecorded message.
      if (!reach) throw new AppError('NOT_FOUND', 'Contact not found');
      await recordDecisions(
        trx,
        userId,
        [{ contactId: call.contact_id, channel: 'prerecorded', reach }],
        now,
      );
      // The refusal stays in the consent record (this transaction commits), then is answered.
      if (!reach.decision.allowed)
        return {
          refused: new AppError(
            reach.decision.code === 'do-not-call' ? 'DO_NOT_CALL' : 'CONSENT_REFUSED',
            reach.decision.reason,
          ),
        };

      await markVoicemailDropped(trx, call.id, drop.name, now);
      if (call.contact_id)
        await saveDisposition(
          trx,
          userId,
          {
            callId: call.id,
            contactId: call.contact_id,
            disposition: 'voicemail',
            notes: voicemailLeftNote(drop.name, drop.duration_seconds),
            qualification: 'cold',
            queueId: call.queue_id ?? undefined,
          },
          now,
        );
      // Last, so a refusal rolls everything back; the URL is signed for the provider, which has no session.
      const audioUrl = signedRecordingUrl(ctx.publicUrl, ctx.urlSigningKey, drop.recording_id, now);
      try {
        await ctx.telephony.dropVoicemail(call.provider_call_id, {
          audioUrl,
          seconds: drop.duration_seconds,
        });
      } catch (error) {
        throw new AppError(
          'PROVIDER_ERROR',
          error instanceof ProviderError ? error.message : 'Could not connect to calling service',
        );
      }
      return { call: await getCall(trx, userId, call.id) };
    },
  );
  if ('refused' in outcome) throw outcome.refused;
  return outcome.call;
}
