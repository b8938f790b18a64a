import type { DispositionRecord, SaveDispositionRequest } from '#domain/calls/call.schema.ts';
import { normalizePhone } from '#domain/contacts/phone.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { findContact } from '../contacts/public.ts';
import { DISPOSITION_COLUMNS, findCall, toDisposition } from './calls.repository.ts';
import { addDoNotCall } from './do-not-call.repository.ts';

export const MISSING_DISPOSITION_INFO = 'Missing required information to save disposition';

/**
 * Saves a disposition (spec part 2 §4.4, §5.5): a contact (the call's, when saved for a call), a disposition and
 * the user are needed; a callback date may not be in the past; qualified sets is_qualified. It is linked to its call
 * (decision 000), so the call log never has to guess. The contact's flags and last call follow at once (the
 * latest-disposition trigger). Do-not-call puts the contact's number on the user's do-not-call list.
 */
export async function saveDisposition(
  db: DbExecutor,
  userId: string,
  input: SaveDispositionRequest & { qualification: string },
  now: Date,
): Promise<DispositionRecord> {
  const call = input.callId ? await findCall(db, userId, input.callId) : undefined;
  if (input.callId && !call) throw new AppError('NOT_FOUND', 'Call not found');
  const contactId = input.contactId ?? call?.contactId ?? null;
  if (!contactId) throw new AppError('VALIDATION_FAILED', MISSING_DISPOSITION_INFO);
  const contact = await findContact(db, userId, contactId);
  if (!contact) throw new AppError('NOT_FOUND', 'Contact not found');
  const callbackDate = input.callbackDate ? new Date(input.callbackDate) : null;
  // A day's slack: the browser's "today" may still be yesterday in UTC.
  if (callbackDate && callbackDate.getTime() < now.getTime() - 24 * 3600 * 1000)
    throw new AppError('VALIDATION_FAILED', 'The callback date cannot be in the past');
  if (input.disposition === 'call-back' && !callbackDate)
    throw new AppError('VALIDATION_FAILED', 'Choose a callback date');
  const row = await db
    .insertInto('call_dispositions')
    .values({
      user_id: userId,
      contact_id: contactId,
      call_id: call?.id ?? null,
      disposition: input.disposition,
      notes: input.notes || null,
      is_qualified: input.disposition === 'qualified',
      qualification: input.qualification,
      callback_date: callbackDate,
      call_duration: input.callDurationSeconds ?? call?.durationSeconds ?? null,
      called_at: call ? new Date(call.startedAt) : now,
    })
    .returning(DISPOSITION_COLUMNS)
    .executeTakeFirstOrThrow();
  const number = normalizePhone(contact.phone);
  if (input.disposition === 'do-not-call' && number) await addDoNotCall(db, userId, number);
  return toDisposition(row);
}
