import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BulkDeleteResultSchema, BulkSelectionSchema } from '#domain/contacts/bulk-selection.schema.ts';
import { ColdLeadInputSchema } from '#domain/contacts/cold-lead.ts';
import {
  ContactDetailSchema,
  ContactIdParamsSchema,
  ContactSchema,
  CreateContactInputSchema,
  UpdateContactInputSchema,
} from '#domain/contacts/contact.schema.ts';
import {
  CONTACTS_PAGE_SIZE,
  ContactCountsSchema,
  ContactFilterSchema,
  ContactsPageSchema,
  ListContactsQuerySchema,
  ContactLookupResultSchema,
  ContactLookupSchema,
} from '#domain/contacts/contact-list.schema.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { getContact, findContactsByIds, findHistory, deleteContacts } from './contacts.repository.ts';
import { countContactTabs, findContactsPage, findTags } from './contacts-list.repository.ts';
import { selectedIds } from './contact-selection.repository.ts';
import { createColdLead, createContact, deleteContact, updateContact } from './contacts.service.ts';

const approved = { config: { access: 'approved' as const } };
const ContactResponse = z.object({ contact: ContactSchema });

/** The contact area: every query scoped to the signed-in user. */
export function registerContactRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/contacts',
    { ...approved, schema: { querystring: ListContactsQuerySchema, response: { 200: ContactsPageSchema } } },
    (request) => {
      const userId = viewerOf(request).userId;
      const now = ctx.clock();
      return asUser(userId, async (trx) => ({
        ...(await findContactsPage(trx, userId, request.query, now)),
        page: request.query.page,
        pageSize: CONTACTS_PAGE_SIZE,
      }));
    },
  );

  /** The user's contacts among these ids, in the order given; another user's ids are left out, not refused. */
  typed.post(
    '/api/contacts/lookup',
    {
      ...approved,
      schema: { body: ContactLookupSchema, response: { 200: ContactLookupResultSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { contacts: await asUser(userId, (trx) => findContactsByIds(trx, userId, request.body.ids)) };
    },
  );

  /** Tab counts for the current filters: exact while cheap, otherwise estimates. */
  typed.get(
    '/api/contacts/counts',
    { ...approved, schema: { querystring: ContactFilterSchema, response: { 200: ContactCountsSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const now = ctx.clock();
      return asUser(userId, (trx) => countContactTabs(trx, userId, request.query, now));
    },
  );

  typed.get(
    '/api/contacts/tags',
    { ...approved, schema: { response: { 200: z.object({ tags: z.array(z.string()) }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { tags: await asUser(userId, (trx) => findTags(trx, userId)) };
    },
  );

  typed.get(
    '/api/contacts/:id',
    { ...approved, schema: { params: ContactIdParamsSchema, response: { 200: ContactDetailSchema } } },
    (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, async (trx) => {
        const contact = await getContact(trx, userId, request.params.id);
        return { contact, history: await findHistory(trx, contact.id) };
      });
    },
  );

  typed.post(
    '/api/contacts',
    { ...approved, schema: { body: CreateContactInputSchema, response: { 201: ContactResponse } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const contact = await asUser(userId, (trx) =>
        createContact(ctx, trx, userId, request.body, ctx.clock()),
      );
      return reply.status(201).send({ contact });
    },
  );

  typed.post(
    '/api/contacts/cold-leads',
    { ...approved, schema: { body: ColdLeadInputSchema, response: { 201: ContactResponse } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const contact = await asUser(userId, (trx) =>
        createColdLead(ctx, trx, userId, request.body, ctx.clock()),
      );
      return reply.status(201).send({ contact });
    },
  );

  typed.patch(
    '/api/contacts/:id',
    {
      ...approved,
      schema: {
        params: ContactIdParamsSchema,
        body: UpdateContactInputSchema,
        response: { 200: ContactResponse },
      },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return {
        contact: await asUser(userId, (trx) =>
          updateContact(trx, userId, request.params.id, request.body, ctx.clock()),
        ),
      };
    },
  );

  typed.delete(
    '/api/contacts/:id',
    { ...approved, schema: { params: ContactIdParamsSchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, (trx) => deleteContact(trx, userId, request.params.id));
      return reply.status(204).send();
    },
  );

  /** Delete Selected: the ticked ids, or everything matching; another user's ids are never touched. */
  typed.post(
    '/api/contacts/bulk-delete',
    { ...approved, schema: { body: BulkSelectionSchema, response: { 200: BulkDeleteResultSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const deleted = await asUser(userId, (trx) =>
        deleteContacts(trx, userId, selectedIds(trx, userId, request.body, ctx.clock())),
      );
      return { deleted };
    },
  );
}
