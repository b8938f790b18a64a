import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  daysEnding,
  dayOverview,
  OutcomesQuerySchema,
  OutcomesSchema,
  OverviewQuerySchema,
  OverviewSchema,
} from '#domain/reports/overview.ts';
import {
  QualifiedLeadsPageSchema,
  QualifiedLeadsQuerySchema,
} from '#domain/reports/qualified-leads.schema.ts';
import type { DbExecutor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findDayLog } from '../calls/public.ts';
import { daysBounds, findOutcomes } from './overview.repository.ts';
import { findQualifiedLeads } from './qualified-leads.repository.ts';

const approved = { config: { access: 'approved' as const } };

/**
 * /reports: the Overview of one day in the user's time zone, the outcomes of the last
 * 7 or 30 days, and the Qualified Leads search. Every read runs in the user's row-security transaction, so another
 * user's calls never count, on the read replica when there is one (decision 040).
 */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: (trx: DbExecutor) => Promise<T>) =>
    ctx.reportReads.read({ kind: 'user', userId }, work);

  typed.get(
    '/api/reports/overview',
    { ...approved, schema: { querystring: OverviewQuerySchema, response: { 200: OverviewSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { day, tz } = request.query;
      return asUser(userId, async (trx) => {
        const { from, to } = await daysBounds(trx, day, day, tz);
        return dayOverview(day, tz, await findDayLog(trx, userId, from, to));
      });
    },
  );

  typed.get(
    '/api/reports/outcomes',
    { ...approved, schema: { querystring: OutcomesQuerySchema, response: { 200: OutcomesSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { day, tz, days } = request.query;
      const range = daysEnding(day, days);
      const counts = await asUser(userId, async (trx) =>
        findOutcomes(trx, userId, await daysBounds(trx, range[0]!, day, tz), tz),
      );
      return {
        days: range.map((d) => {
          const outcomes: Record<string, number> = {};
          let total = 0;
          for (const c of counts) {
            if (c.day !== d) continue;
            outcomes[c.outcome] = c.count;
            total += c.count;
          }
          return { day: d, total, outcomes };
        }),
      };
    },
  );

  typed.get(
    '/api/reports/qualified-leads',
    {
      ...approved,
      schema: { querystring: QualifiedLeadsQuerySchema, response: { 200: QualifiedLeadsPageSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      return asUser(userId, (trx) => findQualifiedLeads(trx, userId, request.query));
    },
  );
}
