import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SalesforceAuthorizeResponseSchema,
  SalesforceAuthorizeSchema,
  SalesforceImportSchema,
  SalesforceResponseSchema,
  SalesforceSettingsSchema,
  salesforceAuthorizeUrl,
  type SalesforceConnection,
} from '#domain/salesforce/salesforce.ts';
import { crmSyncStateOf } from '#domain/integrations/crm-sync.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { enqueueJob } from '../../jobs/enqueue-job.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { SalesforceError, salesforceOAuth } from './salesforce-client.ts';
import { SALESFORCE_IMPORT_TASK } from './salesforce-jobs.ts';
import {
  deleteSalesforceConnection,
  findSalesforceConnection,
  saveSalesforceConnection,
  saveSignIn,
  startSalesforceImport,
  takeSignIn,
  updateSalesforceChoices,
} from './salesforce.repository.ts';

const approved = { config: { access: 'approved' as const } };
const NOT_CONNECTED = 'Salesforce is not connected.';
const NOT_SET_UP =
  'Salesforce is not set up on this server: its operator sets SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET.';
/** How long the user has to sign in to Salesforce and come back. */
const SIGN_IN_MINUTES = 10;

const base64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest();

const CallbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

type Row = NonNullable<Awaited<ReturnType<typeof findSalesforceConnection>>>;
const toConnection = (row: Row): SalesforceConnection => ({
  username: row.username,
  displayName: row.display_name,
  organizationId: row.organization_id,
  instanceUrl: row.instance_url,
  connectedAt: row.connected_at.toISOString(),
  logCalls: row.log_calls,
  ...crmSyncStateOf(row),
});

/** An instance URL Salesforce answered: https, or http only when the login host itself is (a local fake). */
function instanceUrlOf(answered: string, loginUrl: string): string | null {
  try {
    const url = new URL(answered);
    const allowed = url.protocol === 'https:' || (url.protocol === 'http:' && loginUrl.startsWith('http:'));
    return allowed ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Settings → Integrations → Salesforce (decision 037): the OAuth 2.0 web server flow with PKCE through the
 * operator's connected app (the verifier and state kept server-side, sealed, ten minutes, used once), the choice to
 * log calls as Tasks, the import of Leads and Contacts in the background, disconnect (revoking the token at
 * Salesforce).
 */
export function registerSalesforceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const redirectUri = `${ctx.publicUrl}/api/salesforce/callback`;
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const current = async (userId: string) => {
    const row = await asUser(userId, (trx) => findSalesforceConnection(trx, userId));
    return { configured: ctx.salesforce !== null, redirectUri, salesforce: row ? toConnection(row) : null };
  };

  typed.get(
    '/api/salesforce',
    { ...approved, schema: { response: { 200: SalesforceResponseSchema } } },
    (request) => current(viewerOf(request).userId),
  );

  typed.post(
    '/api/salesforce/authorize',
    {
      ...approved,
      schema: { body: SalesforceAuthorizeSchema, response: { 200: SalesforceAuthorizeResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      if (!ctx.salesforce) throw new AppError('NOT_CONFIGURED', NOT_SET_UP);
      const state = base64url(randomBytes(24));
      const verifier = base64url(randomBytes(32));
      const now = ctx.clock();
      await asUser(userId, (trx) =>
        saveSignIn(
          trx,
          {
            stateHash: sha256(state).toString('hex'),
            userId,
            verifierSealed: ctx.secretBox.seal(verifier),
            logCalls: request.body.logCalls,
            expiresAt: new Date(now.getTime() + SIGN_IN_MINUTES * 60_000),
          },
          now,
        ),
      );
      return {
        url: salesforceAuthorizeUrl({
          loginUrl: ctx.salesforce.loginUrl,
          clientId: ctx.salesforce.clientId,
          redirectUri,
          state,
          codeChallenge: base64url(sha256(verifier)),
        }),
      };
    },
  );

  // Where Salesforce sends the browser back: always answers by sending it to the Integrations tab, which shows that
  // Salesforce is connected or why not.
  typed.get(
    '/api/salesforce/callback',
    { ...approved, schema: { querystring: CallbackQuerySchema } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const back = (outcome: { salesforce: 'connected' } | { salesforceError: string }) =>
        reply.redirect(`/settings?${new URLSearchParams({ tab: 'integrations', ...outcome }).toString()}`);
      const { code, state, error, error_description: description } = request.query;
      const salesforce = ctx.salesforce;
      if (!salesforce) return back({ salesforceError: NOT_SET_UP });
      const signIn = state
        ? await asUser(userId, (trx) => takeSignIn(trx, userId, sha256(state).toString('hex'), ctx.clock()))
        : undefined;
      if (!signIn)
        return back({
          salesforceError:
            'This Salesforce sign-in expired, was already used or was started by someone else; connect again.',
        });
      if (error) return back({ salesforceError: `Salesforce did not connect: ${description ?? error}.` });
      if (!code) return back({ salesforceError: 'Salesforce sent no authorization code; connect again.' });
      try {
        const oauth = salesforceOAuth(salesforce);
        const tokens = await oauth.exchangeCode(
          code,
          ctx.secretBox.open(signIn.verifier_sealed),
          redirectUri,
        );
        if (!tokens.refresh_token)
          return back({
            salesforceError:
              'Salesforce gave no refresh token: the connected app needs the scope "Perform requests at any time (refresh_token, offline_access)".',
          });
        const instanceUrl = instanceUrlOf(tokens.instance_url, salesforce.loginUrl);
        if (!instanceUrl)
          return back({ salesforceError: 'Salesforce answered an instance address that is not https.' });
        const who = await oauth.userInfo(tokens.access_token);
        await asUser(userId, (trx) =>
          saveSalesforceConnection(
            trx,
            userId,
            {
              instanceUrl,
              accessTokenSealed: ctx.secretBox.seal(tokens.access_token),
              refreshTokenSealed: ctx.secretBox.seal(tokens.refresh_token!),
              organizationId: who.organization_id,
              salesforceUserId: who.user_id,
              username: who.preferred_username,
              displayName: who.name ?? null,
              logCalls: signIn.log_calls,
            },
            ctx.clock(),
          ),
        );
        return back({ salesforce: 'connected' });
      } catch (failure) {
        if (!(failure instanceof SalesforceError)) throw failure;
        return back({ salesforceError: `Salesforce did not connect. ${failure.message}` });
      }
    },
  );

  typed.patch(
    '/api/salesforce',
    { ...approved, schema: { body: SalesforceSettingsSchema, response: { 200: SalesforceResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      if (!(await asUser(userId, (trx) => updateSalesforceChoices(trx, userId, request.body))))
        throw new AppError('NOT_FOUND', NOT_CONNECTED);
      return current(userId);
    },
  );

  typed.post(
    '/api/salesforce/import',
    { ...approved, schema: { body: SalesforceImportSchema, response: { 202: SalesforceResponseSchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      await asUser(userId, async (trx) => {
        if (!(await findSalesforceConnection(trx, userId))) throw new AppError('NOT_FOUND', NOT_CONNECTED);
        if (!ctx.salesforce) throw new AppError('NOT_CONFIGURED', NOT_SET_UP);
        if (!(await startSalesforceImport(trx, userId, ctx.clock())))
          throw new AppError('CONFLICT', 'An import from Salesforce is already running.');
        await enqueueJob(
          trx,
          SALESFORCE_IMPORT_TASK,
          { userId, duplicates: request.body.duplicates, objects: request.body.objects },
          { maxAttempts: 5 },
        );
      });
      return reply.status(202).send(await current(userId));
    },
  );

  // Disconnecting forgets the tokens here at once, then asks Salesforce to revoke them (not awaited: an unreachable
  // Salesforce must not hold the user; the tokens are gone from here either way).
  typed.delete('/api/salesforce', approved, async (request, reply) => {
    const userId = viewerOf(request).userId;
    const removed = await asUser(userId, (trx) => deleteSalesforceConnection(trx, userId));
    if (removed && ctx.salesforce)
      void salesforceOAuth(ctx.salesforce)
        .revoke(ctx.secretBox.open(removed.refresh_token_sealed))
        .catch((error: unknown) => request.log.warn({ err: error }, 'Salesforce did not revoke the token'));
    return reply.status(204).send();
  });
}
