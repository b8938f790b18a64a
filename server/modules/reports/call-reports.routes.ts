import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CALL_REPORT_COLUMNS,
  CALL_REPORTS_FILE,
  CallReportsExportQuerySchema,
  CallReportsPageSchema,
  CallReportsQuerySchema,
} from '#domain/reports/call-report.schema.ts';
import { streamCsv } from '../../db/copy-csv.ts';
import { inlineParameters } from '../../db/inline-parameters.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { callReportsExportQuery, findCallReports } from './call-reports.repository.ts';

const approved = { config: { access: 'approved' as const } };

/**
 * The Call Reports page: the user's calls page by page with the text filter, and
 * call_reports.csv streamed straight from PostgreSQL (COPY inside the user's row-security transaction): byte-order
 * mark, comma, double quotes, formula-safe cells; never built in memory, so a million rows export with flat memory.
 * A failure midway destroys the stream, so the download fails rather than ending short without a word.
 */
export function registerCallReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/call-reports',
    {
      ...approved,
      schema: { querystring: CallReportsQuerySchema, response: { 200: CallReportsPageSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return ctx.reportReads.read({ kind: 'user', userId }, (trx) =>
        findCallReports(trx, userId, request.query),
      );
    },
  );

  typed.get(
    '/api/call-reports/export',
    { ...approved, schema: { querystring: CallReportsExportQuerySchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const compiled = callReportsExportQuery(ctx.db, userId, request.query.search).compile();
      // COPY takes no bind parameters; the values inlined are our own validated ones (quoted as literals).
      const out = streamCsv(
        await ctx.reportReads.exportPool(),
        userId,
        CALL_REPORT_COLUMNS,
        inlineParameters(compiled.sql, compiled.parameters),
        (error) => {
          if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
            app.log.info('a call reports export ended early: the client went away');
          else app.log.error({ err: error }, 'call reports export failed midway');
        },
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${CALL_REPORTS_FILE}"`)
        .send(out);
    },
  );
}
