import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportFileName } from '#domain/contacts/contact-csv.ts';
import { ContactFilterSchema, ContactTabSchema } from '#domain/contacts/contact-list.schema.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { streamContactsCsv, type ExportScope } from './contact-export.repository.ts';

const approved = { config: { access: 'approved' as const } };

const ExportQuerySchema = ContactFilterSchema.extend({
  tab: ContactTabSchema.default('all'),
  scope: z.enum(['all', 'filter']).default('all'),
});
const ExportSelectionSchema = z.object({ ids: z.array(z.uuid()).min(1, 'No contacts selected').max(10_000) });

/**
 * Export All Contacts as contacts_backup_{date}.csv, and beyond the spec the list's current filter
 * (GET, scope=filter) or a selection of ids (POST).
 */
export function registerContactExportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  const send = (userId: string, scope: ExportScope, reply: FastifyReply) => {
    // A client that goes away mid-download (a closed tab) ends the stream, and with it the database's COPY.
    const stream = streamContactsCsv(ctx, userId, scope, (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
        app.log.info('a contact export ended early: the client went away');
      else app.log.error({ err: error }, 'contact export failed midway');
    });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(ctx.clock())}"`)
      .send(stream);
  };

  typed.get(
    '/api/contacts/export',
    { ...approved, schema: { querystring: ExportQuerySchema } },
    (request, reply) => {
      const { scope, tab, ...filter } = request.query;
      return send(
        viewerOf(request).userId,
        scope === 'all' ? { kind: 'all' } : { kind: 'filter', filter, tab },
        reply,
      );
    },
  );

  typed.post(
    '/api/contacts/export',
    { ...approved, schema: { body: ExportSelectionSchema } },
    (request, reply) => send(viewerOf(request).userId, { kind: 'ids', ids: request.body.ids }, reply),
  );
}
