import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing outgoing webhooks the Standard Webhooks way (https://www.standardwebhooks.com, decision 035): each message
 * carries `webhook-id` (the same on every retry and redelivery, so a receiver can drop duplicates),
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` under the endpoint's secret, which is `whsec_` and 32 random bytes in base64. Any
 * receiver using one of the specification's libraries (or Svix's) verifies it.
 */
export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const keyOf = (secret: string) => Buffer.from(secret.replace(SECRET_PREFIX, ''), 'base64');

export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}

/** The three headers a delivery carries, with its JSON content type. */
export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string) {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': webhookSignature(secret, id, timestampSeconds, body),
  };
}

/**
 * What a receiver does (used by the tests' receiver): one of the space-separated `v1,` signatures matches, and the
 * timestamp is within five minutes of now (replays are refused).
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = Buffer.from(webhookSignature(secret, headers.id, timestamp, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
