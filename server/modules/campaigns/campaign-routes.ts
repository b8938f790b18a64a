import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import {
  AddedSchema,
  CAMPAIGN_MESSAGES,
  RecipientsQuerySchema,
  type CampaignCore,
  type RecipientsQuery,
} from '#domain/campaigns/campaign.schema.ts';
import {
  campaignActions,
  CAMPAIGN_TRANSITIONS,
  COMMON_SKIP_REASONS,
  type CampaignChannel,
  type CampaignTransition,
  type CampaignType,
} from '#domain/campaigns/campaign-state.ts';
import { BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import type { Database } from '../../db/schema.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { selectedIds } from '../contacts/public.ts';
import { isOwnProject } from '../projects/public.ts';
import { deleteCampaign, deleteRecipients, setStatus, skipQueued } from './campaigns.repository.ts';
import { scheduleRun, scheduleRunAtPace } from './campaign-schedule.ts';

type Campaign = CampaignCore & { type?: CampaignType };
type ContactIds = SelectQueryBuilder<Database, 'contacts', { id: string }>;
/** A channel's form: the name, the pace and its message fields (the project and contacts are the routes'). */
type Form = { name: string; perMinute: number };
type Selection = z.output<typeof BulkSelectionSchema>;
type ProjectField = { projectId?: string | null | undefined };
type CreateBody<F> = F & ProjectField & { selection: Selection };
type UpdateBody<F> = F & ProjectField & { add?: Selection | undefined; remove?: string[] | undefined };

/**
 * What a channel (e-mail, SMS) supplies to the one set of campaign routes: its path, its schemas, and its
 * campaign rows. Everything else (who may see what, drafts only for edits, the send / pause / resume / cancel
 * transitions and what they allow, contacts joining and leaving) is defined once, in registerCampaignRoutes.
 */
export type ChannelRoutes<C extends Campaign, F extends Form> = {
  channel: CampaignChannel;
  /** '/api/email-campaigns' */
  path: string;
  /** What a delete that failed on our side says ('Failed to delete SMS campaign'). */
  deleteFailed: string;
  schemas: {
    create: z.ZodType<CreateBody<F>>;
    update: z.ZodType<UpdateBody<F>>;
    campaign: z.ZodType<C>;
    recipientsPage: z.ZodType;
  };
  find: (db: DbExecutor, userId: string) => Promise<C[]>;
  get: (db: DbExecutor, userId: string, id: string, options?: { lock?: boolean }) => Promise<C>;
  insert: (db: DbExecutor, userId: string, fields: F & { projectId: string | null }) => Promise<string>;
  update: (db: DbExecutor, id: string, fields: F & { projectId: string | null }, now: Date) => Promise<void>;
  findRecipients: (db: DbExecutor, id: string, page: RecipientsQuery) => Promise<unknown>;
  /** Contacts join (Create, Save, Send to Campaign): only the user's, ones already in it ignored; how many joined. */
  addContacts: (
    trx: DbExecutor,
    userId: string,
    campaign: C,
    ids: ContactIds | string[],
    now: Date,
  ) => Promise<number>;
  /** Refuses a save this channel's form may not make (an e-mail sequence is saved as a sequence). */
  checkSave?: (campaign: C) => void;
  /** More for Send to do (a sequence's first e-mails fall due). */
  onSend?: (trx: DbExecutor, campaign: C, now: Date) => Promise<void>;
};

const approved = { config: { access: 'approved' as const } };
const CampaignParams = z.object({ campaignId: z.uuid('Invalid campaign id') });

/** Refused unless the campaign's state allows it (edits only while a draft; transitions as campaignActions says). */
export function requireAction(campaign: Campaign, action: keyof ReturnType<typeof campaignActions>) {
  if (campaignActions(campaign.status, campaign.type)[action]) return;
  throw new AppError(
    'CONFLICT',
    action === 'edit' || action === 'enroll' ? CAMPAIGN_MESSAGES.notDraft : CAMPAIGN_MESSAGES.notSendable,
  );
}

async function checkProject(db: DbExecutor, userId: string, projectId: string | null) {
  if (projectId && !(await isOwnProject(db, userId, projectId)))
    throw new AppError('NOT_FOUND', 'Project not found');
}

const requireContacts = (count: number) => {
  if (count === 0) throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
};

/** What each transition does besides moving the status (Send has the channel's own part too). */
async function applyTransition<C extends Campaign>(
  trx: DbExecutor,
  routes: ChannelRoutes<C, Form>,
  action: CampaignTransition,
  campaign: C,
  userId: string,
  now: Date,
): Promise<void> {
  const { channel } = routes;
  if (action === 'send') {
    await setStatus(trx, channel, campaign.id, 'sending', now, { started: true });
    await routes.onSend?.(trx, campaign, now);
    await scheduleRun(trx, channel, campaign.id, userId);
  } else if (action === 'pause') await setStatus(trx, channel, campaign.id, 'paused', now);
  else if (action === 'resume') {
    await setStatus(trx, channel, campaign.id, 'sending', now);
    // Resuming keeps the pace: the next message is due a spacing after the last one handed over.
    await scheduleRunAtPace(trx, channel, campaign, userId, now);
  } else {
    await setStatus(trx, channel, campaign.id, 'canceled', now, { finished: true });
    await skipQueued(trx, channel, campaign.id, COMMON_SKIP_REASONS.canceled);
  }
}

/**
 * A channel's campaigns (docs/decisions/017-email-campaigns.md, 019-sms-campaigns.md): list, create with
 * contacts, read, edit while a draft, delete; send, pause, resume and cancel; the recipients with their state; Send
 * to Campaign. Each change is one transaction; another user's campaign is not found.
 */
export function registerCampaignRoutes<C extends Campaign, F extends Form>(
  app: FastifyInstance,
  ctx: AppContext,
  routes: ChannelRoutes<C, F>,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const { path, schemas } = routes;
  const One = z.object({ campaign: schemas.campaign });

  typed.get(
    path,
    { ...approved, schema: { response: { 200: z.object({ campaigns: z.array(schemas.campaign) }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { campaigns: await asUser(userId, (trx) => routes.find(trx, userId)) };
    },
  );

  typed.post(
    path,
    { ...approved, schema: { body: schemas.create, response: { 201: One } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { selection, projectId = null, ...form } = request.body as CreateBody<F>;
      const campaign = await asUser(userId, async (trx) => {
        await checkProject(trx, userId, projectId);
        const id = await routes.insert(trx, userId, { ...(form as unknown as F), projectId });
        const created = await routes.get(trx, userId, id, { lock: true });
        const now = ctx.clock();
        // None of the contacts is the user's (deleted meanwhile, or never theirs): no campaign is created.
        requireContacts(
          await routes.addContacts(trx, userId, created, selectedIds(trx, userId, selection, now), now),
        );
        return routes.get(trx, userId, id);
      });
      return reply.status(201).send({ campaign });
    },
  );

  typed.get(
    `${path}/:campaignId`,
    { ...approved, schema: { params: CampaignParams, response: { 200: One } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { campaign: await asUser(userId, (trx) => routes.get(trx, userId, request.params.campaignId)) };
    },
  );

  /** Save Campaign: name, message, pace, contacts added and removed, together or not at all; drafts only. */
  typed.put(
    `${path}/:campaignId`,
    { ...approved, schema: { params: CampaignParams, body: schemas.update, response: { 200: One } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { add, remove, projectId = null, ...form } = request.body as UpdateBody<F>;
      return asUser(userId, async (trx) => {
        const campaign = await routes.get(trx, userId, request.params.campaignId, { lock: true });
        requireAction(campaign, 'edit');
        routes.checkSave?.(campaign);
        await checkProject(trx, userId, projectId);
        const now = ctx.clock();
        await routes.update(trx, campaign.id, { ...(form as unknown as F), projectId }, now);
        if (remove?.length) await deleteRecipients(trx, routes.channel, campaign.id, remove);
        if (add) await routes.addContacts(trx, userId, campaign, selectedIds(trx, userId, add, now), now);
        const saved = await routes.get(trx, userId, campaign.id);
        requireContacts(saved.counts.total);
        return { campaign: saved };
      });
    },
  );

  typed.delete(
    `${path}/:campaignId`,
    { ...approved, schema: { params: CampaignParams } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) => {
        const campaign = await routes.get(trx, userId, request.params.campaignId, { lock: true });
        await deleteCampaign(trx, routes.channel, campaign.id);
      }).catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        request.log.error({ err: error }, 'campaign delete failed');
        throw new AppError('INTERNAL', routes.deleteFailed);
      });
      return reply.status(204).send();
    },
  );

  typed.get(
    `${path}/:campaignId/recipients`,
    {
      ...approved,
      schema: {
        params: CampaignParams,
        querystring: RecipientsQuerySchema,
        response: { 200: schemas.recipientsPage },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await routes.get(trx, userId, request.params.campaignId);
        return routes.findRecipients(trx, campaign.id, request.query);
      });
    },
  );

  /** Send to Campaign: the selection joins the campaign, as its state allows; contacts already there are ignored. */
  typed.post(
    `${path}/:campaignId/recipients`,
    {
      ...approved,
      schema: { params: CampaignParams, body: BulkSelectionSchema, response: { 200: AddedSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const campaign = await routes.get(trx, userId, request.params.campaignId, { lock: true });
        const now = ctx.clock();
        const ids = selectedIds(trx, userId, request.body, now);
        return { added: await routes.addContacts(trx, userId, campaign, ids, now) };
      });
    },
  );

  /** Send, pause, resume, cancel: each allowed only from the states campaignActions names, else 409. */
  for (const action of CAMPAIGN_TRANSITIONS)
    typed.post(
      `${path}/:campaignId/${action}`,
      { ...approved, schema: { params: CampaignParams, response: { 200: One } } },
      async (request) => {
        const userId = viewerOf(request).userId;
        return asUser(userId, async (trx) => {
          const campaign = await routes.get(trx, userId, request.params.campaignId, { lock: true });
          requireAction(campaign, action);
          await applyTransition(
            trx,
            routes as unknown as ChannelRoutes<C, Form>,
            action,
            campaign,
            userId,
            ctx.clock(),
          );
          return { campaign: await routes.get(trx, userId, campaign.id) };
        });
      },
    );
}
