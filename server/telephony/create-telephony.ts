import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { notifyChannel, type ChannelListener } from '../db/notify.ts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { createSimulator, type CallModel, type SimulatorObserver } from './simulator.ts';
import type { TelephonyProvider } from './telephony-provider.ts';
import { createTwilioProvider, type TwilioSettings } from './twilio.ts';

export type TelephonyConfig = (
  | {
      provider: 'simulator';
      timeScale: number;
      /** A file every text message the simulator accepts is appended to (a JSON line each): its provider's records. */
      smsLogFile?: string | null;
      /** Benchmarks only (in-process): calls drawn from a seeded model, and a watcher of their moments. */
      model?: CallModel;
      observer?: SimulatorObserver;
    }
  | { provider: 'twilio'; twilio: Omit<TwilioSettings, 'publicUrl'> }
) & { timeoutMs?: number; bulkSpacingMs?: number };

const HANGUP_CHANNEL = 'simulator_hangups';

/**
 * The configured provider: Twilio, or the built-in simulator (the default). The simulator's status events take the
 * route a real provider's webhooks take, through app.inject (no network), signed with a secret derived from the
 * session secret; its hang-ups reach the instance running the call through PostgreSQL NOTIFY.
 */
export function createTelephony(
  config: TelephonyConfig | undefined,
  deps: {
    app: FastifyInstance;
    db: Db;
    connection: ChannelListener;
    sessionSecret: string;
    publicUrl: string;
  },
): TelephonyProvider {
  if (config?.provider === 'twilio')
    return createTwilioProvider({ ...config.twilio, publicUrl: deps.publicUrl });
  const { app } = deps;
  return createSimulator({
    secret: createHmac('sha256', deps.sessionSecret).update('telephony-simulator').digest('base64url'),
    timeScale: config?.provider === 'simulator' ? config.timeScale : 1,
    ...(config?.provider === 'simulator' && { model: config.model, observer: config.observer }),
    ...(config?.provider === 'simulator' &&
      config.smsLogFile && {
        onSmsAccepted: (message) =>
          appendFileSync(
            config.smsLogFile!,
            `${JSON.stringify({ ...message, at: new Date().toISOString() })}\n`,
          ),
      }),
    deliver: async ({ path = '/api/telephony/simulator/status', query, body, signature }) => {
      const response = await app.inject({
        method: 'POST',
        url: `${path}${query}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-simulator-signature': signature,
        },
        payload: body,
      });
      if (response.statusCode >= 300)
        throw new Error(`the webhook answered ${response.statusCode}: ${response.body}`);
      return response.body;
    },
    onDeliveryFailure: (what, error) =>
      app.log.error({ err: error, event: what }, 'simulator status event lost'),
    relay: {
      publish: async (providerCallId) => {
        await notifyChannel(deps.db, HANGUP_CHANNEL, providerCallId);
      },
      subscribe: (handler) =>
        deps.connection.listen(HANGUP_CHANNEL, (payload) => {
          if (payload) handler(payload);
        }),
    },
  });
}
