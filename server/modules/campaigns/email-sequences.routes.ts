import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EmailCampaignResponseSchema, type EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import { AddedSchema, CAMPAIGN_MESSAGES } from '#domain/campaigns/campaign.schema.ts';
import { campaignActions } from '#domain/campaigns/campaign-state.ts';
import {
  CreateEmailSequenceSchema,
  EnrollInSequenceSchema,
  SEQUENCE_EXIT_REASONS,
  SEQUENCE_MESSAGES,
  UpdateEmailSequenceSchema,
} from '#domain/campaigns/email-sequence.schema.ts';
import { withActor, type DbExecutor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { getContact, selectedIds } from '../contacts/public.ts';
import { isOwnProject } from '../projects/public.ts';
import { deleteRecipients, insertRecipients } from './campaigns.repository.ts';
import { getEmailCampaign, insertEmailCampaign, updateEmailCampaign } from './email-campaigns.repository.ts';
import { enrollContact } from './email-sequence-enrolment.ts';
import { leaveSequence, replaceSteps } from './email-sequences.repository.ts';

const approved = { config: { access: 'approved' as const } };
const CampaignParams = z.object({ campaignId: z.uuid('Invalid campaign id') });
const LeaveSchema = z.object({ contactIds: z.array(z.uuid('Invalid contact id')).min(1).max(10_000) });
const LeftSchema = z.object({ left: z.number().int() });

async function checkProject(db: DbExecutor, userId: string, projectId: string | null) {
  if (projectId && !(await isOwnProject(db, userId, projectId)))
    throw new AppError('NOT_FOUND', 'Project not found');
}

/** The user's sequence, locked; a one-time campaign here is a conflict, another user's is not found. */
async function getSequence(db: DbExecutor, userId: string, id: string): Promise<EmailCampaign> {
  const campaign = await getEmailCampaign(db, userId, id, { lock: true });
  if (campaign.type !== 'sequence') throw new AppError('CONFLICT', SEQUENCE_MESSAGES.notSequence);
  return campaign;
}

/**
 * E-mail sequences (enroll-in-sequence; docs/decisions/018-email-sequences.md):
 * create with its e-mails and contacts, edit while a draft, enrol one contact, and let contacts leave a sequence
 * under way. Reading, sending, pausing, resuming, canceling and deleting a sequence go through the e-mail campaign
 * routes, as a sequence is a campaign of type 'sequence'.
 */
export function registerEmailSequenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.post(
    '/api/email-sequences',
    {
      ...approved,
      schema: { body: CreateEmailSequenceSchema, response: { 201: EmailCampaignResponseSchema } },
    },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { selection, projectId = null, steps, name, perMinute, description } = request.body;
      const campaign = await asUser(userId, async (trx) => {
        await checkProject(trx, userId, projectId);
        const id = await insertEmailCampaign(trx, userId, {
          type: 'sequence',
          name,
          subject: '',
          body: '',
          perMinute,
          projectId,
          description: description ?? null,
        });
        await replaceSteps(trx, userId, id, steps);
        const ids = selectedIds(trx, userId, selection, ctx.clock());
        const added = await insertRecipients(trx, 'email', userId, id, ids);
        if (added === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return getEmailCampaign(trx, userId, id);
      });
      return reply.status(201).send({ campaign });
    },
  );

  /** Save Sequence: name, e-mails, pace, contacts added and removed, together or not at all; drafts only. */
  typed.put(
    '/api/email-sequences/:campaignId',
    {
      ...approved,
      schema: {
        params: CampaignParams,
        body: UpdateEmailSequenceSchema,
        response: { 200: EmailCampaignResponseSchema },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { add, remove, projectId = null, steps, name, perMinute, description } = request.body;
      return asUser(userId, async (trx) => {
        const sequence = await getSequence(trx, userId, request.params.campaignId);
        if (!campaignActions(sequence.status, 'sequence').edit)
          throw new AppError('CONFLICT', SEQUENCE_MESSAGES.notEditable);
        await checkProject(trx, userId, projectId);
        const now = ctx.clock();
        await updateEmailCampaign(
          trx,
          sequence.id,
          { name, subject: '', body: '', perMinute, projectId, description: description ?? null },
          now,
        );
        await replaceSteps(trx, userId, sequence.id, steps);
        if (remove?.length) await deleteRecipients(trx, 'email', sequence.id, remove);
        if (add)
          await insertRecipients(trx, 'email', userId, sequence.id, selectedIds(trx, userId, add, now));
        const saved = await getEmailCampaign(trx, userId, sequence.id);
        if (saved.counts.total === 0)
          throw new AppError('VALIDATION_FAILED', CAMPAIGN_MESSAGES.contactsRequired.description);
        return { campaign: saved };
      });
    },
  );

  /** enroll-in-sequence: one of the user's contacts joins; one already in it is ignored. */
  typed.post(
    '/api/email-sequences/:campaignId/enroll',
    {
      ...approved,
      schema: { params: CampaignParams, body: EnrollInSequenceSchema, response: { 200: AddedSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const contact = await getContact(trx, userId, request.body.contactId);
        const enrolled = await enrollContact(trx, userId, request.params.campaignId, contact.id, ctx.clock());
        return { added: enrolled.added ? 1 : 0 };
      });
    },
  );

  /** Contacts leave a sequence under way: e-mails sent stay sent, nothing more goes to them. */
  typed.post(
    '/api/email-sequences/:campaignId/leave',
    { ...approved, schema: { params: CampaignParams, body: LeaveSchema, response: { 200: LeftSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const sequence = await getSequence(trx, userId, request.params.campaignId);
        if (!campaignActions(sequence.status, 'sequence').leave)
          throw new AppError('CONFLICT', CAMPAIGN_MESSAGES.notSendable);
        return {
          left: await leaveSequence(trx, sequence.id, request.body.contactIds, SEQUENCE_EXIT_REASONS.removed),
        };
      });
    },
  );
}
