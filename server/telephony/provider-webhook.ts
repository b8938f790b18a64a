import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { TelephonyProvider } from './telephony-provider.ts';

/**
 * Registers webhook routes a telephony provider calls (call status, SMS delivery reports, messages received, the
 * Voice URL): they take form bodies, as providers post them. Each route must still verify its body
 * (verifiedWebhookBody) before acting on it.
 */
export function registerProviderWebhooks(app: FastifyInstance, register: (scope: FastifyInstance) => void) {
  void app.register(async (scope) => {
    await scope.register(formBody);
    register(scope);
  });
}

/**
 * The fields of a provider's webhook request, once its signature over our public URL and the body verifies: 404
 * when the route names another provider than the one configured, 403 (nothing done) when the signature fails.
 */
export function verifiedWebhookBody(
  telephony: TelephonyProvider,
  publicUrl: string,
  request: FastifyRequest,
  provider: string = telephony.name,
): Record<string, string> {
  if (provider !== telephony.name) throw new AppError('NOT_FOUND', 'Unknown provider');
  const body = (request.body ?? {}) as Record<string, string>;
  const url = `${publicUrl}${request.url}`;
  if (typeof body !== 'object' || !telephony.verifyWebhook({ url, headers: request.headers, body }))
    throw new AppError('FORBIDDEN', 'The webhook signature does not verify');
  return body;
}
