import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CAMPAIGN_MESSAGES,
  campaignActions,
  RecipientsQuerySchema,
} from '#domain/campaigns/email-campaign.schema.ts';
import {
  CreateSmsCampaignSchema,
  SimulateReplySchema,
  SMS_MESSAGES,
  SMS_SKIP_REASONS,
  SmsCampaignListSchema,
  SmsCampaignResponseSchema,
  SmsRecipientsPageSchema,
  UpdateSmsCampaignSchema,
  type SmsCampaign,
} from '#domain/campaigns/sms-campaign.schema.ts';
import { BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { selectedIds } from '../contacts/public.ts';
import { isOwnProject } from '../projects/public.ts';
import { deleteRecipients, insertRecipients, setStatus } from './campaign-recipients.repository.ts';
import { scheduleRun, scheduleRunAtPace } from './campaign-schedule.ts';
import {
  findSmsCampaigns,
  findSmsRecipients,
  getSmsCampaign,
  insertSmsCampaign,
  updateSmsCampaign,
} from './sms-campaigns.repository.ts';

const approved = { config: { access: 'approved' as const } };
const CampaignParams = z.object({ campaignId: z.uuid('Invalid campaign id') });
const RecipientParams = CampaignParams.extend({ contactId: z.uuid('Invalid contact id') });
const AddedSchema = z.object({ added: z.number().int() });
const ReplySchema = z.object({ reply: z.string().nullable() });

async function checkProject(db: DbExecutor, userId: string, projectId: string | null) {
  if (projectId && !(await isOwnProject(db, userId, projectId)))
    throw new AppError('NOT_FOUND', 'Project not found');
}
function requireDraft(campaign: SmsCampaign) {
  if (!campaignActions(campaign.status).edit) throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.notDraft);
}

/**
 * SMS campaigns (spec part 2 §2.2–2.3, §3, §5.1; issue 12; docs/decisions/019-sms-campaigns.md): list, create with
 * contacts, read, edit while a draft, delete; send, pause, resume and cancel; the recipients with their state,
 * delivery and reply; on the simulator, a recipient's reply can be simulated. Each change is one transaction;
 * another user's campaign is not found.
 */
export function registerSmsCampaignRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/sms-campaigns',
    { ...approved, schema: { response: { 200: SmsCampaignListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { campaigns: await asUser(userId, (trx) => findSmsCampaigns(trx, userId)) };
    },
  );

  typed.post(
    '/api/sms-campaigns',
    { ...approved, schema: { body: CreateSmsCampaignSchema, response: { 201: SmsCampaignResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { selection, projectId = null, ...fields } = request.body;
      const campaign = await asUser(userId, async (trx) => {
        await checkProject(trx, userId, projectId);
        const id = await insertSmsCampaign(trx, userId, { ...fields, projectId });
        const added = await insertRecipients(
          trx,
          'sms',
          userId,
          id,
          selectedIds(trx, userId, selection, ctx.clock()),
        );
        if (added === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return getSmsCampaign(trx, userId, id);
      });
      return reply.status(201).send({ campaign });
    },
  );

  typed.get(
    '/api/sms-campaigns/:campaignId',
    { ...approved, schema: { params: CampaignParams, response: { 200: SmsCampaignResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return {
        campaign: await asUser(userId, (trx) => getSmsCampaign(trx, userId, request.params.campaignId)),
      };
    },
  );

  /** Save Campaign: name, message, pace, contacts added and removed, together or not at all; drafts only. */
  typed.put(
    '/api/sms-campaigns/:campaignId',
    {
      ...approved,
      schema: {
        params: CampaignParams,
        body: UpdateSmsCampaignSchema,
        response: { 200: SmsCampaignResponseSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { add, remove, projectId = null, ...fields } = request.body;
      return asUser(userId, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId, { lock: true });
        requireDraft(campaign);
        await checkProject(trx, userId, projectId);
        const now = ctx.clock();
        await updateSmsCampaign(trx, campaign.id, { ...fields, projectId }, now);
        if (remove?.length) await deleteRecipients(trx, 'sms', campaign.id, remove);
        if (add) await insertRecipients(trx, 'sms', userId, campaign.id, selectedIds(trx, userId, add, now));
        const saved = await getSmsCampaign(trx, userId, campaign.id);
        if (saved.counts.total === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return { campaign: saved };
      });
    },
  );

  typed.delete(
    '/api/sms-campaigns/:campaignId',
    { ...approved, schema: { params: CampaignParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId, { lock: true });
        await trx.deleteFrom('sms_campaigns').where('id', '=', campaign.id).execute();
      });
      return reply.status(204).send();
    },
  );

  typed.get(
    '/api/sms-campaigns/:campaignId/recipients',
    {
      ...approved,
      schema: {
        params: CampaignParams,
        querystring: RecipientsQuerySchema,
        response: { 200: SmsRecipientsPageSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId);
        return findSmsRecipients(trx, campaign.id, request.query);
      });
    },
  );

  /** Send to Campaign: the selection joins a draft SMS campaign; contacts already there are ignored. */
  typed.post(
    '/api/sms-campaigns/:campaignId/recipients',
    {
      ...approved,
      schema: { params: CampaignParams, body: BulkSelectionSchema, response: { 200: AddedSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId, { lock: true });
        requireDraft(campaign);
        const ids = selectedIds(trx, userId, request.body, ctx.clock());
        return { added: await insertRecipients(trx, 'sms', userId, campaign.id, ids) };
      });
    },
  );

  /**
   * The simulator's "Simulate reply" (DECISIONS.md): the recipient answers the message they got, through the same
   * signed inbound webhook a provider calls. Only for a recipient who was sent a message, and only on the simulator.
   */
  typed.post(
    '/api/sms-campaigns/:campaignId/recipients/:contactId/simulate-reply',
    {
      ...approved,
      schema: { params: RecipientParams, body: SimulateReplySchema, response: { 200: ReplySchema } },
    },
    async (request) => {
      const simulate = ctx.telephony.sms.simulateInbound;
      if (!simulate) throw new AppError('NOT_FOUND', SMS_MESSAGES.simulatorOnly);
      const userId = viewerOf(request).userId;
      const sent = await asUser(userId, async (trx) => {
        const campaign = await getSmsCampaign(trx, userId, request.params.campaignId);
        return trx
          .selectFrom('sms_campaign_recipients')
          .select(['phone', 'from_number'])
          .where('campaign_id', '=', campaign.id)
          .where('contact_id', '=', request.params.contactId)
          .where('state', '=', 'sent')
          .executeTakeFirst();
      });
      if (!sent?.phone || !sent.from_number)
        throw new AppError('CONFLICT', 'Only a contact who was sent this message can reply to it.');
      const answer = await simulate({ from: sent.phone, to: sent.from_number, body: request.body.text });
      return { reply: answer };
    },
  );

  /** Send, pause, resume, cancel: each allowed only from the states campaignActions names, else 409. */
  const transition = (
    action: 'send' | 'pause' | 'resume' | 'cancel',
    apply: (trx: DbExecutor, campaign: SmsCampaign, userId: string, now: Date) => Promise<void>,
  ) =>
    typed.post(
      `/api/sms-campaigns/:campaignId/${action}`,
      { ...approved, schema: { params: CampaignParams, response: { 200: SmsCampaignResponseSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        return asUser(userId, async (trx) => {
          const campaign = await getSmsCampaign(trx, userId, request.params.campaignId, { lock: true });
          if (!campaignActions(campaign.status)[action])
            throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.notSendable);
          await apply(trx, campaign, userId, ctx.clock());
          return { campaign: await getSmsCampaign(trx, userId, campaign.id) };
        });
      },
    );
  transition('send', async (trx, campaign, userId, now) => {
    await setStatus(trx, 'sms', campaign.id, 'sending', now, { started: true });
    await scheduleRun(trx, 'sms', campaign.id, userId);
  });
  transition('pause', (trx, campaign, _userId, now) => setStatus(trx, 'sms', campaign.id, 'paused', now));
  transition('resume', async (trx, campaign, userId, now) => {
    await setStatus(trx, 'sms', campaign.id, 'sending', now);
    await scheduleRunAtPace(trx, 'sms', campaign, userId, now);
  });
  transition('cancel', async (trx, campaign, _userId, now) => {
    await setStatus(trx, 'sms', campaign.id, 'canceled', now, { finished: true });
    await trx
      .updateTable('sms_campaign_recipients')
      .set({ state: 'skipped', reason: SMS_SKIP_REASONS.canceled })
      .where('campaign_id', '=', campaign.id)
      .where('state', '=', 'queued')
      .execute();
  });
}
