import type { SelectQueryBuilder } from 'kysely';
import {
  CAMPAIGN_MESSAGES,
  campaignActions,
  type EmailCampaign,
} from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES } from '#domain/campaigns/email-sequence.schema.ts';
import type { Database } from '../../db/schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import { scheduleRunAtPace } from './campaign-schedule.ts';
import { addRecipients, getEmailCampaign, setCampaignStatus } from './email-campaigns.repository.ts';
import { firstDueAt } from './email-sequences.repository.ts';

/**
 * Contacts join a campaign (its row locked by the caller); ones already in it are ignored (spec part 2 §2.3). A
 * one-time campaign takes contacts only as a draft. A sequence takes them until it is canceled: in a sequence under
 * way their first e-mail is due its delay from now, and a sequence that had finished starts again for them.
 * Returns how many joined.
 */
export async function enrollInSequence(
  trx: DbExecutor,
  userId: string,
  campaign: EmailCampaign,
  contactIds: readonly string[] | SelectQueryBuilder<Database, 'contacts', { id: string }>,
  now: Date,
): Promise<number> {
  if (!campaignActions(campaign.status, campaign.type).enroll)
    throw new AppError(
      'CONFLICT',
      campaign.type === 'sequence' ? SEQUENCE_MESSAGES.notEnrollable : CAMPAIGN_MESSAGES.notDraft,
    );
  if (campaign.status === 'draft') return addRecipients(trx, userId, campaign.id, contactIds);
  const added = await addRecipients(
    trx,
    userId,
    campaign.id,
    contactIds,
    await firstDueAt(trx, campaign.id, now),
  );
  if (added === 0) return 0;
  if (campaign.status === 'sent') {
    await setCampaignStatus(trx, campaign.id, 'sending', now);
    await trx
      .updateTable('email_campaigns')
      .set({ finished_at: null })
      .where('id', '=', campaign.id)
      .execute();
  }
  // A paused sequence sends to them once resumed.
  if (campaign.status !== 'paused') await scheduleRunAtPace(trx, 'email', campaign, userId, now);
  return added;
}

/**
 * The enroll-in-sequence call (spec part 2 §7.2): one contact (already checked to be the user's) joins the user's
 * sequence. Returns the sequence and whether the contact joined (false: already in it).
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
