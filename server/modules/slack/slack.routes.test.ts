import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackConnection } from '#domain/slack/slack-messages.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { startFakeSlack, type FakeSlack } from '../../test/fake-slack.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

/*
 * Slack (decision 034) through the real routes, the job queue and PostgreSQL, against a local fake of Slack's
 * incoming webhooks: connect, choose events, a test message, the events posted as they happen, Slack's refusals
 * shown in its words, retries only when they can help, disconnect.
 */

let ctx: TestContext;
let rep: Session;
let slack: FakeSlack;
beforeEach(async () => {
  slack = await startFakeSlack();
  ctx = await createTestApp({ webhookAllowedHosts: ['127.0.0.1'] });
  rep = await createAccount(ctx, 'user');
});
afterEach(async () => {
  await ctx.close();
  await slack.close();
});

const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(rep), ...(payload && { payload }) });
const connect = async (events: string[]) => {
  const answer = await send('PUT', '/api/slack', { webhookUrl: slack.webhookUrl, events });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ slack: SlackConnection }>().slack;
};
const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const qualify = async (contactId: string, notes = 'Budget approved, wants a demo') => {
  const saved = await send('POST', '/api/dispositions', { contactId, disposition: 'qualified', notes });
  expect(saved.statusCode, saved.body).toBe(201);
};
const notify = (kind: string, title: string) =>
  ctx.db.admin.query(`select notify_user($1, $2, $3, $4, 'Sent to 10 of 10.', '/campaigns')`, [
    rep.userId,
    kind,
    `subject-${Math.random()}`,
    title,
  ]);

describe('Slack', () => {
  it('connects, shows the address without its secret, and sends a test message', async () => {
    expect((await send('GET', '/api/slack')).json()).toEqual({ slack: null });
    const connected = await connect(['qualified-lead']);
    expect(connected).toMatchObject({
      destination: expect.stringMatching(/^127\.0\.0\.1:\d+\/services\/T0001\/B0002\/…$/),
      events: ['qualified-lead'],
      lastSentAt: null,
      lastError: null,
    });
    expect((await send('GET', '/api/slack')).body).not.toContain('secretpart123');

    const tested = await send('POST', '/api/slack/test');
    expect(tested.statusCode, tested.body).toBe(200);
    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0]!.path).toBe('/services/T0001/B0002/secretpart123');
    expect(slack.posts[0]!.body.text).toBe('CallCRM is connected to this channel.');
    expect(tested.json<{ slack: SlackConnection }>().slack.lastSentAt).not.toBeNull();

    // Slack's refusal, in its words, on the answer and on the card.
    slack.answers.push({ status: 404, text: 'no_service' });
    const refused = await send('POST', '/api/slack/test');
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: 'Slack answered 404: no_service',
    });
    const card = (await send('GET', '/api/slack')).json<{ slack: SlackConnection }>().slack;
    expect(card.lastError).toBe('Slack answered 404: no_service');
  });

  it('refuses addresses that are not web addresses or point into a private network', async () => {
    const bare = await createTestApp();
    try {
      const who = await createAccount(bare, 'user');
      for (const [webhookUrl, message] of [
        ['not a url', 'Enter a full web address, starting with https://.'],
        ['http://hooks.slack.com/services/x', 'The address must start with https://.'],
        ['https://10.1.2.3/services/x', expect.stringContaining('private or local network')],
        ['https://[::1]/services/x', expect.stringContaining('private or local network')],
        ['https://localhost/services/x', expect.stringContaining('private or local network')],
        [slack.webhookUrl, 'The address must start with https://.'],
        ['https://user:pw@hooks.slack.com/services/x', expect.stringContaining('user name or password')],
      ] as const) {
        const answer = await bare.app.inject({
          method: 'PUT',
          url: '/api/slack',
          headers: asCookie(who),
          payload: { webhookUrl, events: [] },
        });
        expect(answer.statusCode, webhookUrl).toBe(400);
        expect(answer.json<{ issues: unknown[] }>().issues, webhookUrl).toEqual([
          { path: 'webhookUrl', message },
        ]);
      }
      // Events alone need a connection first.
      const noAddress = await bare.app.inject({
        method: 'PUT',
        url: '/api/slack',
        headers: asCookie(who),
        payload: { events: ['missed-call'] },
      });
      expect(noAddress.statusCode).toBe(400);
    } finally {
      await bare.close();
    }
  });

  it('posts each chosen event as it happens, and nothing it was not asked for', async () => {
    await connect(['qualified-lead', 'campaign-finished']);
    const ada = await insertContact(ctx.app, rep, {
      firstName: 'Ada',
      lastName: 'Byron',
      company: 'Analytical <Engines>',
      phone: '(720) 555-0177',
    });
    await qualify(ada.id);
    await until(() => slack.posts.length === 1);
    const lead = JSON.stringify(slack.posts[0]!.body);
    expect(slack.posts[0]!.body.text).toBe('Qualified lead: Ada Byron');
    expect(lead).toContain(`/contacts/${ada.id}|Ada Byron>`);
    expect(lead).toContain('Analytical &lt;Engines&gt;');
    expect(lead).toContain('Budget approved, wants a demo');

    await notify('missed-call', 'Missed call from Bob');
    await notify('campaign-finished', 'Campaign "Spring" finished');
    await until(() => slack.posts.length === 2);
    expect(slack.posts[1]!.body.text).toBe('Campaign "Spring" finished');
    await new Promise((r) => setTimeout(r, 500));
    expect(slack.posts.map((p) => p.body.text)).not.toContain('Missed call from Bob');
    const card = (await send('GET', '/api/slack')).json<{ slack: SlackConnection }>().slack;
    expect(card.lastSentAt).not.toBeNull();
  });

  it('retries when Slack fails on its side, and not when the webhook is gone', async () => {
    await connect(['qualified-lead']);
    const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', lastName: 'Retry' });
    slack.answers.push({ status: 500, text: 'internal_error' });
    await qualify(ada.id);
    await until(() => slack.posts.length === 2);
    expect(slack.posts[1]!.body.text).toBe('Qualified lead: Ada Retry');
    await until(
      async () =>
        (await send('GET', '/api/slack')).json<{ slack: SlackConnection }>().slack.lastError === null,
    );

    slack.answers.push({ status: 410, text: 'channel_is_archived' });
    const bea = await insertContact(ctx.app, rep, { firstName: 'Bea', lastName: 'Gone' });
    await qualify(bea.id);
    await until(() => slack.posts.length === 3);
    await until(
      async () =>
        (await send('GET', '/api/slack')).json<{ slack: SlackConnection }>().slack.lastError ===
        'Slack answered 410: channel_is_archived',
    );
    const { rows } = await ctx.db.admin.query(
      `select 1 from graphile_worker.jobs where task_identifier = 'slack-post'`,
    );
    expect(rows).toHaveLength(0);
    expect(slack.posts).toHaveLength(3);
  });

  it('disconnects: nothing more is posted', async () => {
    await connect(['qualified-lead']);
    expect((await send('DELETE', '/api/slack')).statusCode).toBe(204);
    expect((await send('GET', '/api/slack')).json()).toEqual({ slack: null });
    const ada = await insertContact(ctx.app, rep, { firstName: 'Ada', lastName: 'Quiet' });
    await qualify(ada.id);
    await new Promise((r) => setTimeout(r, 700));
    expect(slack.posts).toHaveLength(0);
    expect((await send('POST', '/api/slack/test')).statusCode).toBe(404);
  });
});
