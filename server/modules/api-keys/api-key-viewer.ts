import { createHash } from 'node:crypto';
import { API_KEY_PATTERN, rateVerdict, type ApiKeyScope } from '#domain/api-keys/api-key.ts';
import { DEACTIVATED_MESSAGE, DENIED_MESSAGE } from '#domain/auth/auth-messages.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import type { Viewer } from '../../plugins/access-control.ts';
import { useApiKey } from './api-keys.repository.ts';

export const hashOfKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

const INVALID =
  'This API key is not valid. It may have been revoked: make a new one in Settings → Integrations.';

/**
 * The viewer a request's API key speaks for (decision 033): the key's user, as a session would make them, with the
 * key's scope. Each use is counted against the key's limit in the same statement that finds it, so instances share
 * the count. Refused: an unknown or revoked key (401), a key over its limit (429, with when to try again), a denied
 * or deactivated account (403, as for a session).
 */
export async function resolveApiKeyViewer(
  ctx: Pick<AppContext, 'db' | 'clock' | 'apiKeyRequestsPerMinute'>,
  secret: string,
): Promise<Viewer & { apiKey: { id: string; scope: ApiKeyScope } }> {
  if (!API_KEY_PATTERN.test(secret)) throw new AppError('UNAUTHENTICATED', INVALID);
  const now = ctx.clock();
  const found = await useApiKey(ctx.db, hashOfKey(secret), now);
  if (!found?.profile) throw new AppError('UNAUTHENTICATED', INVALID);
  const { key, profile } = found;
  if (profile.role === 'denied') throw new AppError('ACCOUNT_DENIED', DENIED_MESSAGE);
  if (profile.deactivated) throw new AppError('ACCOUNT_DEACTIVATED', DEACTIVATED_MESSAGE);
  const verdict = rateVerdict(
    { startedAt: key.windowStartedAt, count: key.windowCount },
    now,
    ctx.apiKeyRequestsPerMinute,
  );
  if (!verdict.allowed)
    throw new AppError(
      'RATE_LIMITED',
      `This API key made more than ${ctx.apiKeyRequestsPerMinute} requests in a minute. Try again in ${verdict.retryAfterSeconds} s.`,
      { retryAfterSeconds: verdict.retryAfterSeconds },
    );
  return { userId: key.userId, profile, apiKey: { id: key.id, scope: key.scope } };
}
