import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signSimulatorFields } from '../telephony/simulator.ts';
import {
  allowUnknownLocalTime,
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from './test-app.ts';

type Recipient = {
  contactId: string;
  state: string;
  reason: string | null;
  delivery: string | null;
  deliveryError: string | null;
  reply: string | null;
};

/**
 * What SMS tests share: the app on the simulator (a hundredth of real time) logging every message it accepts (its
 * "provider"), a rep, and the calls the tests make: create and send a campaign, wait for it to settle, read its
 * recipients, and post a message received, signed as the simulator signs.
 */
export function createSmsKit() {
  let smsLog = '';
  const kit = {
    ctx: undefined as unknown as TestContext,
    rep: undefined as unknown as Session,
    /** Starts the app on the simulator, with a rep. */
    onSimulator: async () => {
      smsLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'sms-log-')), 'sms.jsonl');
      await kit.use(
        await createTestApp({
          telephony: { provider: 'simulator', timeScale: 0.01, timeoutMs: 300, smsLogFile: smsLog },
        }),
      );
    },
    /** Uses another app (Twilio against its fake), with a rep. */
    use: async (app: TestContext) => {
      kit.ctx = app;
      kit.rep = await createAccount(app, 'user');
      await allowUnknownLocalTime(app.app, kit.rep);
    },
    close: () => kit.ctx.close(),
    call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as?: Session) =>
      kit.ctx.app.inject({ method, url, headers: asCookie(as ?? kit.rep), ...(payload ? { payload } : {}) }),
    create: (ids: string[], extra: object = {}, as?: Session) =>
      kit.call(
        'POST',
        '/api/sms-campaigns',
        {
          name: 'Open house',
          message: 'Hi {{firstName}}, open house on Friday!',
          perMinute: 3000,
          selection: { ids },
          ...extra,
        },
        as,
      ),
    /** The campaign once it is no longer sending (or as it is after `ms`). */
    settled: async (id: string, ms = 10_000, as?: Session) => {
      const until = Date.now() + ms;
      for (;;) {
        const answer = await kit.call('GET', `/api/sms-campaigns/${id}`, undefined, as);
        const { campaign } = answer.json<{ campaign: { status: string } & Record<string, unknown> }>();
        if (campaign.status !== 'sending' || Date.now() > until) return campaign;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    recipients: async (id: string, as?: Session) =>
      (await kit.call('GET', `/api/sms-campaigns/${id}/recipients`, undefined, as)).json<{
        recipients: Recipient[];
      }>().recipients,
    /** Every message the simulated provider accepted, in order. */
    accepted: () =>
      existsSync(smsLog)
        ? readFileSync(smsLog, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { to: string; body: string })
        : [],
    until: async (check: () => Promise<boolean> | boolean, ms = 5_000) => {
      const end = Date.now() + ms;
      while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    },
    /** A message from `From` to our number `To`, signed as the simulator signs (its secret comes from the session's). */
    inbound: (fields: Record<string, string>, secret = 'test-session-secret-that-is-long-enough-1234') => {
      const key = createHmac('sha256', secret).update('telephony-simulator').digest('base64url');
      return kit.ctx.app.inject({
        method: 'POST',
        url: '/api/telephony/simulator/sms-inbound',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-simulator-signature': signSimulatorFields(key, fields),
        },
        payload: new URLSearchParams(fields).toString(),
      });
    },
    optOuts: async () =>
      (await kit.ctx.db.admin.query<{ phone: string }>('select phone from sms_opt_outs order by phone')).rows,
  };
  return kit;
}
