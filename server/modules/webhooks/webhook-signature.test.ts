import { describe, expect, it } from 'vitest';
import { newWebhookSecret, verifyWebhook, webhookHeaders, webhookSignature } from './webhook-signature.ts';

// The Standard Webhooks specification's published test vector (also Svix's).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';

describe('Standard Webhooks signatures', () => {
  it('reproduces the specification’s test vector', () => {
    expect(webhookSignature(SECRET, ID, TIMESTAMP, BODY)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('carries the id, the timestamp and the signature', () => {
    expect(webhookHeaders(SECRET, ID, TIMESTAMP, BODY)).toEqual({
      'content-type': 'application/json',
      'webhook-id': ID,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies as a receiver does: the right secret and body, within five minutes, among several signatures', () => {
    const signature = webhookSignature(SECRET, ID, TIMESTAMP, BODY);
    const headers = { id: ID, timestamp: String(TIMESTAMP), signature: `v1,bm90LXRoaXMtb25l ${signature}` };
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP + 299)).toBe(true);
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP + 301)).toBe(false);
    expect(verifyWebhook(SECRET, headers, `${BODY} `, TIMESTAMP)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, BODY, TIMESTAMP)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, id: 'msg_other' }, BODY, TIMESTAMP)).toBe(false);
  });

  it('makes secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
