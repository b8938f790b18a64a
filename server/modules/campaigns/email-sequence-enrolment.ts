import type { SelectQueryBuilder } from 'kysely';
import type { EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES } from '#domain/campaigns/email-sequence.schema.ts';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { requireAction } from './campaign-routes.ts';
import { scheduleRunAtPace } from './campaign-schedule.ts';
import { insertRecipients, setStatus } from './campaigns.repository.ts';
import { getEmailCampaign } from './email-campaigns.repository.ts';
import { firstDueAt } from './email-sequences.repository.ts';

/**
 * Contacts join an e-mail campaign (its row locked by the caller); ones already in it are ignored. A one-time
 * campaign takes contacts only as a draft. A sequence takes them until it is canceled: in a sequence under way
 * their first e-mail is due its delay from now, and a sequence that had finished starts again for them. Returns how
 * many joined.
 */
export async function enrollInSequence(
  trx: DbExecutor,
  userId: string,
  campaign: EmailCampaign,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
  now: Date,
): Promise<number> {
  if (campaign.type === 'sequence' && campaign.status === 'canceled')
    throw new AppError('CONFLICT', SEQUENCE_MESSAGES.notEnrollable);
  requireAction(campaign, 'enroll');
  if (campaign.status === 'draft') return insertRecipients(trx, 'email', userId, campaign.id, contactIds);
  const dueAt = await firstDueAt(trx, campaign.id, now);
  const added = await insertRecipients(trx, 'email', userId, campaign.id, contactIds, dueAt);
  if (added === 0) return 0;
  if (campaign.status === 'sent')
    await setStatus(trx, 'email', campaign.id, 'sending', now, { reopened: true });
  // A paused sequence sends to them once resumed.
  if (campaign.status !== 'paused') await scheduleRunAtPace(trx, 'email', campaign, userId, now);
  return added;
}

/**
 * The enroll-in-sequence call: one contact (already checked to be the user's) joins the user's sequence. Returns
 * the sequence and whether the contact joined (false: already in it).
 */
export async function enrollContact(
  trx: DbExecutor,
  userId: string,
  sequenceId: string,
  contactId: string,
  now: Date,
): Promise<{ sequence: EmailCampaign; added: boolean }> {
  const sequence = await getEmailCampaign(trx, userId, sequenceId, { lock: true });
  if (sequence.type !== 'sequence') throw new AppError('CONFLICT', SEQUENCE_MESSAGES.notSequence);
  return { sequence, added: (await enrollInSequence(trx, userId, sequence, [contactId], now)) > 0 };
}
