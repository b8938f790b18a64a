import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_KEY_PREFIX,
  ApiKeyListSchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  MAX_API_KEYS,
  type ApiKey,
} from '#domain/api-keys/api-key.ts';
import { withActor } from '../../db/database.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { hashOfKey } from './api-key-viewer.ts';
import { countKeys, deleteKey, insertKey, listKeys, lockKeysOf } from './api-keys.repository.ts';

const approved = { config: { access: 'approved' as const } };

const toApiKey = (row: Awaited<ReturnType<typeof listKeys>>[number]): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  hint: row.hint,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

/**
 * Personal API keys (decision 033), Settings → Integrations → API keys: listed with when each was last used, made
 * (the key shown this once), revoked. Only a signed-in session manages keys: a key cannot reach these routes.
 */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/api-keys',
    { ...approved, schema: { response: { 200: ApiKeyListSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const rows = await withActor(ctx.db, { kind: 'user', userId }, (trx) => listKeys(trx, userId));
      return { keys: rows.map(toApiKey) };
    },
  );

  typed.post(
    '/api/api-keys',
    { ...approved, schema: { body: CreateApiKeySchema, response: { 201: CreatedApiKeySchema } } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        // One key made at a time per user, so the limit holds against requests sent together.
        await lockKeysOf(trx, userId);
        if ((await countKeys(trx, userId)) >= MAX_API_KEYS)
          throw new AppError(
            'CONFLICT',
            `You have ${MAX_API_KEYS} API keys, the most allowed: revoke one you no longer use first.`,
          );
        return insertKey(
          trx,
          { userId, ...request.body, tokenHash: hashOfKey(secret), hint: secret.slice(-4) },
          ctx.clock(),
        );
      });
      return reply.status(201).send({ key: toApiKey(row), secret });
    },
  );

  typed.delete(
    '/api/api-keys/:id',
    { ...approved, schema: { params: z.object({ id: z.uuid() }) } },
    async (request, reply) => {
      const userId = viewerOf(request).userId;
      const deleted = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        deleteKey(trx, userId, request.params.id),
      );
      if (!deleted) throw notFound('No such API key.');
      return reply.status(204).send();
    },
  );
}
