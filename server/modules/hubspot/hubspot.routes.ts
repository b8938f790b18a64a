import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  HubSpotConnectSchema,
  HubSpotImportSchema,
  HubSpotResponseSchema,
  HubSpotSettingsSchema,
  type HubSpotConnection,
} from '#domain/hubspot/hubspot.ts';
import { crmSyncStateOf } from '#domain/integrations/crm-sync.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { HubSpotError, hubspotClient } from './hubspot-client.ts';
import { HUBSPOT_IMPORT_TASK } from './hubspot-jobs.ts';
import {
  deleteHubspotConnection,
  findHubspotConnection,
  saveHubspotConnection,
  startHubspotImport,
  updateHubspotChoices,
} from './hubspot.repository.ts';

const approved = { config: { access: 'approved' as const } };
const NOT_CONNECTED = 'HubSpot is not connected.';

type Row = NonNullable<Awaited<ReturnType<typeof findHubspotConnection>>>;
const toConnection = (row: Row): HubSpotConnection => ({
  portalId: row.portal_id,
  accountDomain: row.account_domain,
  connectedAt: row.connected_at.toISOString(),
  logCalls: row.log_calls,
  createMissing: row.create_missing,
  ...crmSyncStateOf(row),
});

/**
 * Settings → Integrations → HubSpot (decision 036): connect with a private app's access token (checked against
 * HubSpot before it is kept, sealed), choose whether calls are logged there and whether a missing contact is made,
 * import the account's contacts in the background, disconnect.
 */
export function registerHubspotRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const current = async (userId: string) => {
    const row = await asUser(userId, (trx) => findHubspotConnection(trx, userId));
    return { hubspot: row ? toConnection(row) : null };
  };

  typed.get(
    '/api/hubspot',
    { ...approved, schema: { response: { 200: HubSpotResponseSchema } } },
    (request) => current(viewerOf(request).userId),
  );

  typed.put(
    '/api/hubspot',
    { ...approved, schema: { body: HubSpotConnectSchema, response: { 200: HubSpotResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { token, logCalls, createMissing } = request.body;
      let account: { portalId: number | string; uiDomain?: string };
      try {
        account = await hubspotClient(ctx.hubspotApiUrl, token).account();
      } catch (error) {
        if (!(error instanceof HubSpotError)) throw error;
        if (error.status === 401 || error.status === 403)
          throw new AppError('VALIDATION_FAILED', 'Some fields are invalid.', {
            issues: [{ path: 'token', message: `HubSpot refused this token. ${error.message}` }],
          });
        throw new AppError('PROVIDER_ERROR', error.message);
      }
      await asUser(userId, (trx) =>
        saveHubspotConnection(
          trx,
          userId,
          {
            tokenSealed: ctx.secretBox.seal(token),
            portalId: String(account.portalId),
            accountDomain: account.uiDomain ?? null,
            logCalls,
            createMissing,
          },
          ctx.clock(),
        ),
      );
      return current(userId);
    },
  );

  typed.patch(
    '/api/hubspot',
    { ...approved, schema: { body: HubSpotSettingsSchema, response: { 200: HubSpotResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      if (!(await asUser(userId, (trx) => updateHubspotChoices(trx, userId, request.body))))
        throw new AppError('NOT_FOUND', NOT_CONNECTED);
      return current(userId);
    },
  );

  typed.post(
    '/api/hubspot/import',
    { ...approved, schema: { body: HubSpotImportSchema, response: { 202: HubSpotResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) => {
        if (!(await findHubspotConnection(trx, userId))) throw new AppError('NOT_FOUND', NOT_CONNECTED);
        if (!(await startHubspotImport(trx, userId, ctx.clock())))
          throw new AppError('CONFLICT', 'An import from HubSpot is already running.');
        await enqueueJob(
          trx,
          HUBSPOT_IMPORT_TASK,
          { userId, duplicates: request.body.duplicates },
          { maxAttempts: 5 },
        );
      });
      return reply.status(202).send(await current(userId));
    },
  );

  typed.delete('/api/hubspot', approved, async (request, reply) => {
    const userId = viewerOf(request).userId;
    await asUser(userId, (trx) => deleteHubspotConnection(trx, userId));
    return reply.status(204).send();
  });
}
