import { afterEach, describe, expect, it } from 'vitest';
import { asCookie, createFirstAdmin, createTestApp, signUp, type TestContext } from '../test/test-app.ts';
import { TEST_ORIGIN } from '../test/test-constants.ts';
import { startTestSmtpServer } from '../test/test-smtp-server.ts';

let ctx: TestContext | undefined;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>> | undefined;
afterEach(async () => {
  await ctx?.close();
  await smtp?.close();
  ctx = smtp = undefined;
});

const outboxCount = async (c: TestContext) =>
  (await c.db.admin.query('select count(*)::int as n from outbox_messages')).rows[0].n as number;

describe('system mail through a configured mail server', () => {
  it('delivers the approval notice to the person, from the configured sender, and keeps nothing in the outbox', async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestApp({ systemSmtpUrl: smtp.url });
    const admin = await createFirstAdmin(ctx);
    const person = await signUp(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/approve`,
      headers: asCookie(admin),
    });
    expect(response.statusCode).toBe(200);

    // The admin also hears of the sign-up (Settings → Notifications), by a background job: count only the person's.
    const toPerson = smtp.received.filter((m) => m.to.includes(person.email));
    expect(toPerson).toHaveLength(1);
    const mail = toPerson[0]!;
    expect(mail.to).toEqual([person.email]);
    expect(mail.from).toBe('no-reply@localhost');
    expect(mail.raw).toMatch(/^Subject: Your CallCRM account has been approved$/m);
    expect(mail.raw).toContain('http://localhost:3000/auth');
    expect(await outboxCount(ctx)).toBe(0);
  });

  it('mails a password-reset link that works', async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestApp({ systemSmtpUrl: smtp.url });
    const person = await signUp(ctx.app);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: TEST_ORIGIN },
      payload: { email: person.email, redirectTo: '/reset-password' },
    });
    expect(smtp.received).toHaveLength(1);
    const body = smtp.received[0]!.raw.replace(/=\r?\n/g, '');
    const token = /reset-password\?token=([\w-]+)/.exec(body)?.[1];
    expect(token).toBeTruthy();
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin: TEST_ORIGIN },
      payload: { token, newPassword: 'mailed link password' },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('keeps the message in the outbox when the mail server refuses it, and the approval still happens', async () => {
    smtp = await startTestSmtpServer({ reject: 'mailbox unavailable' });
    ctx = await createTestApp({ systemSmtpUrl: smtp.url });
    const admin = await createFirstAdmin(ctx);
    const person = await signUp(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/approve`,
      headers: asCookie(admin),
    });
    expect(response.json()).toMatchObject({ profile: { role: 'user' } });
    const { rows } = await ctx.db.admin.query(
      `select to_address, kind from outbox_messages where kind = 'account-approved'`,
    );
    expect(rows).toEqual([{ to_address: person.email, kind: 'account-approved' }]);
  });
});
