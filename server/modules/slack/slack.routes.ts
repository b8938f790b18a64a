import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SlackResponseSchema,
  SlackSettingsInputSchema,
  slackDestination,
  testMessage,
  type SlackConnection,
  type SlackEvent,
} from '#domain/slack/slack-messages.ts';
import { withActor } from '../../db/database.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { destinationProblem } from '../../http/outgoing-post.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import {
  deleteSlackConnection,
  findSlackConnection,
  recordSlackOutcome,
  saveSlackConnection,
} from './slack-connections.repository.ts';
import { sendToSlack } from './slack-sender.ts';

const approved = { config: { access: 'approved' as const } };

type Row = NonNullable<Awaited<ReturnType<typeof findSlackConnection>>>;
const toConnection = (row: Row): SlackConnection => ({
  destination: row.destination,
  events: row.events as SlackEvent[],
  connectedAt: row.connected_at.toISOString(),
  lastSentAt: row.last_sent_at?.toISOString() ?? null,
  lastError: row.last_error,
  lastErrorAt: row.last_error_at?.toISOString() ?? null,
});

/**
 * Settings → Integrations → Slack (decision 034): connect an incoming webhook, choose the events, send a test
 * message, disconnect. The address is the secret (whoever has it posts to the channel): it is sealed and never shown
 * again in full, and it must not point into this server's own network.
 */
export function registerSlackRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const asUser = <T>(userId: string, work: Parameters<typeof withActor<T>>[2]) =>
    withActor(ctx.db, { kind: 'user', userId }, work);
  const current = async (userId: string) => {
    const row = await asUser(userId, (trx) => findSlackConnection(trx, userId));
    return { slack: row ? toConnection(row) : null };
  };

  typed.get('/api/slack', { ...approved, schema: { response: { 200: SlackResponseSchema } } }, (request) =>
    current(viewerOf(request).userId),
  );

  typed.put(
    '/api/slack',
    { ...approved, schema: { body: SlackSettingsInputSchema, response: { 200: SlackResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const { webhookUrl, events } = request.body;
      let address: { sealed: string; destination: string } | undefined;
      if (webhookUrl) {
        const problem = destinationProblem(webhookUrl, ctx.webhookAllowedHosts);
        if (problem)
          throw new AppError('VALIDATION_FAILED', 'Some fields are invalid.', {
            issues: [{ path: 'webhookUrl', message: problem }],
          });
        address = { sealed: ctx.secretBox.seal(webhookUrl), destination: slackDestination(webhookUrl) };
      }
      const unique = [...new Set(events)];
      const saved = await asUser(userId, (trx) =>
        saveSlackConnection(trx, userId, { events: unique, ...(address && { address }) }, ctx.clock()),
      );
      if (!saved)
        throw new AppError('VALIDATION_FAILED', 'Some fields are invalid.', {
          issues: [{ path: 'webhookUrl', message: 'Paste the incoming webhook address Slack gave you.' }],
        });
      return current(userId);
    },
  );

  typed.post(
    '/api/slack/test',
    { ...approved, schema: { response: { 200: SlackResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const row = await asUser(userId, (trx) => findSlackConnection(trx, userId));
      if (!row) throw new AppError('NOT_FOUND', 'Slack is not connected.');
      const outcome = await sendToSlack(
        ctx,
        ctx.secretBox.open(row.webhook_url_sealed),
        testMessage(ctx.publicUrl),
      );
      const now = ctx.clock();
      await asUser(userId, (trx) =>
        recordSlackOutcome(trx, userId, outcome.ok ? { sentAt: now } : { error: outcome.error, at: now }),
      );
      if (!outcome.ok) throw new AppError('PROVIDER_ERROR', outcome.error);
      return current(userId);
    },
  );

  typed.delete('/api/slack', approved, async (request, reply) => {
    const userId = viewerOf(request).userId;
    await asUser(userId, (trx) => deleteSlackConnection(trx, userId));
    return reply.status(204).send();
  });
}
