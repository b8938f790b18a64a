import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CAMPAIGN_MESSAGES,
  campaignActions,
  CreateEmailCampaignSchema,
  EmailCampaignListSchema,
  EmailCampaignResponseSchema,
  RecipientsPageSchema,
  RecipientsQuerySchema,
  UpdateEmailCampaignSchema,
  type EmailCampaign,
} from '#domain/campaigns/email-campaign.schema.ts';
import { BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import { SKIP_REASONS } from '#domain/campaigns/email-campaign.schema.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { selectedIds } from '../contacts/public.ts';
import { isOwnProject } from '../projects/public.ts';
import {
  addRecipients,
  deleteEmailCampaign,
  findEmailCampaigns,
  findRecipients,
  getEmailCampaign,
  insertEmailCampaign,
  removeRecipients,
  setCampaignStatus,
  updateEmailCampaign,
} from './email-campaigns.repository.ts';
import { scheduleRun, scheduleRunAtPace } from './campaign-schedule.ts';
import { enrollInSequence } from './email-sequence-enrolment.ts';
import { startSequence } from './email-sequences.repository.ts';

const approved = { config: { access: 'approved' as const } };
const CampaignParams = z.object({ campaignId: z.uuid('Invalid campaign id') });
const AddedSchema = z.object({ added: z.number().int() });

async function checkProject(db: DbExecutor, userId: string, projectId: string | null) {
  if (projectId && !(await isOwnProject(db, userId, projectId)))
    throw new AppError('NOT_FOUND', 'Project not found');
}

function requireDraft(campaign: EmailCampaign) {
  if (!campaignActions(campaign.status).edit) throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.notDraft);
  // A sequence's e-mails are edited through /api/email-sequences/:id (they are steps, not one message).
  if (campaign.type === 'sequence') throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.isSequence);
}

/**
 * E-mail campaigns (spec part 2 §2.2–2.3, §3, §5.1; issue 12; docs/decisions/017-email-campaigns.md): list, create
 * with contacts, read, edit while a draft, delete; send, pause, resume and cancel; the recipients with their state.
 * Each change is one transaction; another user's campaign is not found.
 */
export function registerEmailCampaignRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/email-campaigns',
    { ...approved, schema: { response: { 200: EmailCampaignListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { campaigns: await asUser(userId, (trx) => findEmailCampaigns(trx, userId)) };
    },
  );

  typed.post(
    '/api/email-campaigns',
    {
      ...approved,
      schema: { body: CreateEmailCampaignSchema, response: { 201: EmailCampaignResponseSchema } },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { selection, projectId = null, ...fields } = request.body;
      const campaign = await asUser(userId, async (trx) => {
        await checkProject(trx, userId, projectId);
        const id = await insertEmailCampaign(trx, { userId, projectId, ...fields });
        const added = await addRecipients(trx, userId, id, selectedIds(trx, userId, selection, ctx.clock()));
        // None of the contacts is the user's (deleted meanwhile, or never theirs): no campaign is created.
        if (added === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return getEmailCampaign(trx, userId, id);
      });
      return reply.status(201).send({ campaign });
    },
  );

  typed.get(
    '/api/email-campaigns/:campaignId',
    { ...approved, schema: { params: CampaignParams, response: { 200: EmailCampaignResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return {
        campaign: await asUser(userId, (trx) => getEmailCampaign(trx, userId, request.params.campaignId)),
      };
    },
  );

  /** Save Campaign: name, message, pace, contacts added and removed, together or not at all; drafts only. */
  typed.put(
    '/api/email-campaigns/:campaignId',
    {
      ...approved,
      schema: {
        params: CampaignParams,
        body: UpdateEmailCampaignSchema,
        response: { 200: EmailCampaignResponseSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { add, remove, projectId = null, ...fields } = request.body;
      return asUser(userId, async (trx) => {
        const campaign = await getEmailCampaign(trx, userId, request.params.campaignId, { lock: true });
        requireDraft(campaign);
        await checkProject(trx, userId, projectId);
        const now = ctx.clock();
        await updateEmailCampaign(trx, campaign.id, { ...fields, projectId }, now);
        if (remove?.length) await removeRecipients(trx, campaign.id, remove);
        if (add) await addRecipients(trx, userId, campaign.id, selectedIds(trx, userId, add, now));
        const saved = await getEmailCampaign(trx, userId, campaign.id);
        if (saved.counts.total === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return { campaign: saved };
      });
    },
  );

  typed.delete(
    '/api/email-campaigns/:campaignId',
    { ...approved, schema: { params: CampaignParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) =>
        deleteEmailCampaign(
          trx,
          (await getEmailCampaign(trx, userId, request.params.campaignId, { lock: true })).id,
        ),
      );
      return reply.status(204).send();
    },
  );

  typed.get(
    '/api/email-campaigns/:campaignId/recipients',
    {
      ...approved,
      schema: {
        params: CampaignParams,
        querystring: RecipientsQuerySchema,
        response: { 200: RecipientsPageSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await getEmailCampaign(trx, userId, request.params.campaignId);
        return findRecipients(trx, campaign.id, request.query);
      });
    },
  );

  /**
   * Send to Campaign: the selection joins a draft campaign, or a sequence that has not been canceled; contacts
   * already there are ignored.
   */
  typed.post(
    '/api/email-campaigns/:campaignId/recipients',
    {
      ...approved,
      schema: { params: CampaignParams, body: BulkSelectionSchema, response: { 200: AddedSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await getEmailCampaign(trx, userId, request.params.campaignId, { lock: true });
        const now = ctx.clock();
        return {
          added: await enrollInSequence(
            trx,
            userId,
            campaign,
            selectedIds(trx, userId, request.body, now),
            now,
          ),
        };
      });
    },
  );

  /** Send, pause, resume, cancel: each allowed only from the states campaignActions names, else 409. */
  const transition = (
    action: 'send' | 'pause' | 'resume' | 'cancel',
    apply: (trx: DbExecutor, campaign: EmailCampaign, userId: string, now: Date) => Promise<void>,
  ) =>
    typed.post(
      `/api/email-campaigns/:campaignId/${action}`,
      { ...approved, schema: { params: CampaignParams, response: { 200: EmailCampaignResponseSchema } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        return asUser(userId, async (trx) => {
          const campaign = await getEmailCampaign(trx, userId, request.params.campaignId, { lock: true });
          if (!campaignActions(campaign.status, campaign.type)[action])
            throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.notSendable);
          await apply(trx, campaign, userId, ctx.clock());
          return { campaign: await getEmailCampaign(trx, userId, campaign.id) };
        });
      },
    );
  transition('send', async (trx, campaign, userId, now) => {
    await setCampaignStatus(trx, campaign.id, 'sending', now, { started: true });
    if (campaign.type === 'sequence') await startSequence(trx, campaign.id, now);
    await scheduleRun(trx, 'email', campaign.id, userId);
  });
  transition('pause', (trx, campaign, _userId, now) => setCampaignStatus(trx, campaign.id, 'paused', now));
  transition('resume', async (trx, campaign, userId, now) => {
    await setCampaignStatus(trx, campaign.id, 'sending', now);
    // Resuming keeps the pace: the next e-mail is due a spacing after the last one handed over.
    await scheduleRunAtPace(trx, 'email', campaign, userId, now);
  });
  transition('cancel', async (trx, campaign, _userId, now) => {
    await setCampaignStatus(trx, campaign.id, 'canceled', now, { finished: true });
    await trx
      .updateTable('email_campaign_recipients')
      .set({ state: 'skipped', reason: SKIP_REASONS.canceled, due_at: null })
      .where('campaign_id', '=', campaign.id)
      .where('state', '=', 'queued')
      .execute();
  });
}
