import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DuplicateModeSchema,
  IMPORT_MESSAGES,
  importFormatOf,
  ImportMappingSchema,
  ImportPreviewSchema,
  ImportReportSchema,
  type ImportEvent,
  type ImportFormat,
} from '#domain/contacts/contact-import.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { ImportFileError } from './readers/file-rows.ts';
import { findImport, findImports } from './import-records.repository.ts';
import { previewImport, runImport } from './import.service.ts';
import { openRows, uploadedStream } from './upload-reader.ts';
import { keepAnswerAlive } from './answer-keep-alive.ts';

const approved = { config: { access: 'approved' as const } };

const FileQuery = z.object({ fileName: z.string().trim().min(1).max(255) });
const ImportQuery = FileQuery.extend({
  duplicates: DuplicateModeSchema.default('skip'),
  header: z.enum(['true', 'false']).transform((v) => v === 'true'),
  mapping: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The column mapping is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(ImportMappingSchema),
});
const IdParams = z.object({ id: z.uuid('Invalid import id') });

const formatOf = (fileName: string): ImportFormat => {
  const format = importFormatOf(fileName);
  if (!format) throw new AppError('UNSUPPORTED_FILE', IMPORT_MESSAGES.invalidType);
  return format;
};
const asFileError = (error: unknown) =>
  error instanceof ImportFileError ? new AppError('VALIDATION_FAILED', error.message) : error;

/**
 * Contacts in: a preview for the mapping step, the import itself answering with
 * its progress as newline-delimited JSON, and the record of past imports with their skipped rows.
 */
export function registerContactImportRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The file is the raw request body; this parser, and so raw bodies, exist only inside this plugin.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('application/octet-stream', (_request, payload, parsed) =>
      parsed(null, payload),
    );
    registerUploadRoutes(scope, ctx);
    done();
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);

  typed.get(
    '/api/contacts/imports',
    { ...approved, schema: { response: { 200: z.object({ imports: z.array(ImportReportSchema) }) } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      return { imports: await asUser(userId, (trx) => findImports(trx, userId)) };
    },
  );

  typed.get(
    '/api/contacts/imports/:id',
    {
      ...approved,
      schema: { params: IdParams, response: { 200: z.object({ report: ImportReportSchema }) } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const report = await asUser(userId, (trx) => findImport(trx, userId, request.params.id));
      if (!report) throw new AppError('NOT_FOUND', 'Import not found');
      return { report };
    },
  );
}

function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/contacts/imports/preview',
    { ...approved, schema: { querystring: FileQuery, response: { 200: ImportPreviewSchema } } },
    async (request) => {
      const format = formatOf(request.query.fileName);
      const opened = await openRows(format, uploadedStream(request, ctx.importMaxBytes)).catch(
        (e: unknown) => {
          throw asFileError(e);
        },
      );
      try {
        return await previewImport(format, opened.rows);
      } catch (error) {
        throw asFileError(error);
      } finally {
        await opened.cleanup();
      }
    },
  );

  typed.post(
    '/api/contacts/imports',
    { ...approved, schema: { querystring: ImportQuery } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const { fileName, duplicates, header, mapping } = request.query;
      const format = formatOf(fileName);
      const upload = uploadedStream(request, ctx.importMaxBytes);
      const out = new PassThrough();
      const answer = keepAnswerAlive((event: ImportEvent) => out.write(`${JSON.stringify(event)}\n`));
      const emit = answer.say;
      void reply.header('content-type', 'application/x-ndjson; charset=utf-8').send(out);
      let opened: Awaited<ReturnType<typeof openRows>> | null = null;
      try {
        opened = await openRows(format, upload);
        const report = await ctx.work.track(
          runImport(
            ctx,
            {
              userId,
              fileName,
              format,
              rows: opened.rows,
              unreadable: opened.unreadable,
              mapping,
              hasHeader: header,
              duplicates,
            },
            emit,
            (phases) => request.log.info({ phases, fileName }, 'import finished'),
          ),
        );
        emit({ type: 'done', report });
      } catch (error) {
        const cause = error instanceof Error && error.cause ? error.cause : error;
        if (!(cause instanceof ImportFileError) && !(cause instanceof AppError))
          request.log.error({ err: cause }, 'import failed');
        emit({
          type: 'error',
          message:
            error instanceof Error && (error instanceof ImportFileError || error instanceof AppError)
              ? error.message
              : 'The import failed. Nothing was saved; please try again.',
        });
      } finally {
        answer.stop();
        await opened?.cleanup();
        out.end();
      }
      return reply;
    },
  );
}
