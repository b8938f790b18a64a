import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, type FakeTwilio } from './fake-twilio.ts';
import { createTestApp } from './test-app.ts';

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
