import type { DispositionRecord, SaveDispositionRequest } from '#domain/calls/call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import { isPastDay, LATEST_DAY_ZONE } from '#domain/time/zoned-time.ts';
import { findProfile } from '../profiles/public.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { SEQUENCE_EXIT_REASONS } from '#domain/campaigns/email-sequence.schema.ts';
import { leaveSequences } from '../campaigns/public.ts';
import { getContact } from '../contacts/public.ts';
import { scheduleCallbackNotice } from './callback-due.task.ts';
import { completeQueueMembers, lockQueueIfAny, storeWalkIndex } from '../queues/public.ts';
import { insertDisposition, recordCallNotes } from './dispositions.repository.ts';
import { getCall } from './calls.repository.ts';
import { putOnDoNotCall } from '../consent/public.ts';

export const MISSING_DISPOSITION_INFO = 'Missing required information to save disposition';

/**
 * Saves a disposition: a contact (the call's, when saved for a call), a disposition and
 * the user are needed; a callback date may not be in the past; qualified sets is_qualified. It is linked to its call
 * (decision 000), so the call log never has to guess. The contact's flags and last call follow at once (the
 * latest-disposition trigger). Do-not-call puts the contact's number on the user's do-not-call list. Saved from a
 * queue's walk, it carries the queue's id and completes the contact there, in the same
 * transaction; a queue deleted mid-walk leaves the disposition saved without it. The call keeps the notes.
 * Do-not-call and not-interested take the contact out of the user's e-mail sequences. A call-back queues
 * its announcement for its time.
 */
export async function saveDisposition(
  db: DbExecutor,
  userId: string,
  input: SaveDispositionRequest & { qualification: string },
  now: Date,
): Promise<DispositionRecord> {
  // The call's row is taken before anything else the save touches: a Parallel round and a voicemail drop take their
  // calls first and the queue after, so the save must not hold the queue while it waits for the call.
  const call = input.callId
    ? await getCall(db, userId, input.callId, { lock: 'for no key update' })
    : undefined;
  const contactId = input.contactId ?? call?.contactId ?? null;
  if (!contactId) throw new AppError('VALIDATION_FAILED', MISSING_DISPOSITION_INFO);
  const contact = await getContact(db, userId, contactId);
  const callbackDate = input.callbackDate ? new Date(input.callbackDate) : null;
  if (input.disposition === 'call-back' && !callbackDate)
    throw new AppError('VALIDATION_FAILED', 'Choose a callback date');
  // The form's own rule, on the user's day (Settings → Profile); without a zone, on the last day on Earth to end.
  const zone = async () => (await findProfile(db, userId))?.timeZone ?? LATEST_DAY_ZONE;
  if (callbackDate && isPastDay(callbackDate, now, await zone()))
    throw new AppError('VALIDATION_FAILED', 'The callback date cannot be in the past');
  // The queue's row first, as every queue change takes it, so a walk and this save never wait on each other.
  const queueId = input.queueId ? ((await lockQueueIfAny(db, userId, input.queueId))?.id ?? null) : null;
  const disposition = await insertDisposition(db, userId, {
    contactId,
    callId: call?.id ?? null,
    disposition: input.disposition,
    notes: input.notes || null,
    qualification: input.qualification,
    callbackDate,
    callDurationSeconds: input.callDurationSeconds ?? call?.durationSeconds ?? null,
    calledAt: call ? new Date(call.startedAt) : now,
    queueId,
  });
  if (call) await recordCallNotes(db, call.id, input.notes || null);
  // Its owner hears of a call-back when its time comes (Settings → Notifications).
  if (input.disposition === 'call-back' && callbackDate)
    await scheduleCallbackNotice(db, userId, disposition.id, callbackDate);
  if (queueId) {
    await completeQueueMembers(db, queueId, [contactId], now);
    await storeWalkIndex(db, queueId, now);
  }
  const number = contact.phoneE164 ?? normalizePhone(contact.phone);
  if (input.disposition === 'do-not-call' && number)
    await putOnDoNotCall(db, userId, { id: contactId, e164: number }, now);
  // A contact who asked not to be called, or is not interested, leaves the user's e-mail sequences too.
  if (input.disposition === 'do-not-call' || input.disposition === 'not-interested')
    await leaveSequences(
      db,
      userId,
      { contactId },
      input.disposition === 'do-not-call'
        ? SEQUENCE_EXIT_REASONS.doNotCall
        : SEQUENCE_EXIT_REASONS.notInterested,
    );
  return disposition;
}
