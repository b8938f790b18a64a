import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.ts';

describe('configuration', () => {
  it('has working defaults with no configuration at all', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
      BACKGROUND_JOBS: 'on',
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('names every bad key and its value', () => {
    expect(() =>
      parseEnv({ PORT: 'eighty', ADMIN_EMAIL: 'not-an-address', SESSION_SECRET: 'short' }),
    ).toThrow(ConfigError);
    try {
      parseEnv({ PORT: 'eighty', ADMIN_EMAIL: 'not-an-address', SESSION_SECRET: 'short' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT: .*"eighty"/);
      expect(message).toMatch(/ADMIN_EMAIL/);
      expect(message).toMatch(/SESSION_SECRET: must be at least 32 characters/);
    }
  });

  it('treats empty values as unset and validates URLs', () => {
    const empty = parseEnv({ DATABASE_URL: '', ADMIN_EMAIL: '' });
    expect([empty.DATABASE_URL, empty.ADMIN_EMAIL]).toEqual([undefined, undefined]);
    expect(() => parseEnv({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ SYSTEM_SMTP_URL: 'http://x' })).toThrow(/SYSTEM_SMTP_URL/);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(parseEnv({ BACKGROUND_JOBS: 'off' }).BACKGROUND_JOBS).toBe('off');
    expect(() => parseEnv({ BACKGROUND_JOBS: 'false' })).toThrow(/BACKGROUND_JOBS/);
  });

  it('asks for every Twilio credential and a public URL when Twilio is the provider', () => {
    expect(() =>
      parseEnv({ TELEPHONY_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}` }),
    ).toThrow(/TWILIO_AUTH_TOKEN: is required when TELEPHONY_PROVIDER=twilio[\s\S]*PUBLIC_URL: is required/);
    expect(() => parseEnv({ TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(/TWILIO_ACCOUNT_SID: must look like AC/);
    const twilio = parseEnv({
      TELEPHONY_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_API_KEY_SID: `SK${'2'.repeat(32)}`,
      TWILIO_API_KEY_SECRET: 'secret',
      TWILIO_TWIML_APP_SID: `AP${'3'.repeat(32)}`,
      PUBLIC_URL: 'https://crm.example.com',
    });
    expect(twilio.TELEPHONY_PROVIDER).toBe('twilio');
    expect(parseEnv({}).TELEPHONY_PROVIDER).toBe('simulator');
  });

  it('stores recordings in a bucket when FILES_S3_BUCKET is set, its keys in pairs and its endpoint a URL', () => {
    const bucket = parseEnv({
      FILES_S3_BUCKET: 'recordings',
      FILES_S3_ENDPOINT: 'http://minio:9000',
      FILES_S3_ACCESS_KEY_ID: 'key',
      FILES_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(bucket).toMatchObject({ FILES_S3_BUCKET: 'recordings', FILES_S3_REGION: 'us-east-1' });
    expect(parseEnv({ FILES_S3_BUCKET: '' }).FILES_S3_BUCKET).toBeUndefined();
    expect(() => parseEnv({ FILES_S3_BUCKET: 'recordings', FILES_S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /FILES_S3_SECRET_ACCESS_KEY: is required with the other FILES_S3 key/,
    );
    expect(() => parseEnv({ FILES_S3_ENDPOINT: 'not a url' })).toThrow(/FILES_S3_ENDPOINT/);
    expect(() => parseEnv({ FILES_S3_PATH_STYLE: 'yes' })).toThrow(/FILES_S3_PATH_STYLE/);
  });
});
