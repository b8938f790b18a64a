import twilio from 'twilio';
import { openBrowserOf } from './calls-test-kit.ts';
import type { App } from '../app.ts';
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, startFakeTwilio, type FakeTwilio } from './fake-twilio.ts';
import { TEST_PUBLIC_URL } from './test-constants.ts';
import {
  allowUnknownLocalTime,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from './test-app.ts';

export const TWILIO_API_KEY_SID = `SK${'2'.repeat(32)}`;
export const TWILIO_TWIML_APP_SID = `AP${'3'.repeat(32)}`;
/** Twilio's magic test number: the instance's caller ID in these tests. */
export const TWILIO_CALLER_ID = '+15005550006';

/** The real server on Twilio, its REST API a local fake (fake-twilio.ts), its caller ID TWILIO_CALLER_ID. */
export function createTwilioTestApp(fake: FakeTwilio) {
  return createTestApp({
    defaultCallerId: TWILIO_CALLER_ID,
    telephony: {
      provider: 'twilio',
      twilio: {
        accountSid: FAKE_ACCOUNT_SID,
        authToken: FAKE_AUTH_TOKEN,
        apiKeySid: TWILIO_API_KEY_SID,
        apiKeySecret: 'api-key-secret',
        twimlAppSid: TWILIO_TWIML_APP_SID,
        apiBaseUrl: fake.baseUrl,
      },
      timeoutMs: 1000,
    },
  });
}

/** The fake, the app on it and a rep who calls the fictional numbers: what each Twilio test starts from. */
export async function startTwilioRep(): Promise<{ fake: FakeTwilio; ctx: TestContext; rep: Session }> {
  const fake = await startFakeTwilio();
  const ctx = await createTwilioTestApp(fake);
  const rep = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, rep);
  // The rep has the app open: calls coming in ring their browser.
  await openBrowserOf(ctx.app, rep.userId);
  return { fake, ctx, rep };
}

/** Posts a webhook as Twilio does: form-encoded, signed with Twilio's own helper over the public URL. */
export const twilioWebhook = (
  app: App,
  path: string,
  fields: Record<string, string>,
  token = FAKE_AUTH_TOKEN,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(token, `${TEST_PUBLIC_URL}${path}`, fields),
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });
