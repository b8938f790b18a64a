import { afterEach, describe, expect, it } from 'vitest';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createFirstAdmin,
  createTestApp,
  signUp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { startTestSmtpServer } from '../../test/test-smtp-server.ts';
import { announceCallback } from '../calls/public.ts';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>> | undefined;
afterEach(async () => {
  await ctx.close();
  await smtp?.close();
  smtp = undefined;
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: Session, payload?: object) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });
const list = async (as: Session) => (await call('GET', '/api/notifications', as)).json();
const ALL_ON = {
  callbacksApp: true,
  callbacksEmail: true,
  campaignsApp: true,
  campaignsEmail: true,
  signupsApp: true,
  signupsEmail: true,
  missedCallsApp: true,
  missedCallsEmail: true,
  integrationsApp: true,
  integrationsEmail: true,
};

/** A call-back disposition of `who` for a contact, due `minutesAgo` minutes ago. */
async function dueCallback(who: Session, contactId: string, minutesAgo: number, notes = 'Asked for Friday') {
  const { rows } = await ctx.db.admin.query<{ id: string }>(
    `insert into call_dispositions (contact_id, user_id, disposition, notes, callback_date, called_at)
     values ($1, $2, 'call-back', $3, now() - make_interval(mins => $4), now() - interval '2 days') returning id`,
    [contactId, who.userId, notes, minutesAgo],
  );
  return rows[0]!.id;
}

const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('callbacks due', () => {
  it('is announced at its time by the job the call-back queued, before it never', async () => {
    ctx = await createTestApp();
    const rep = await createAccount(ctx, 'user');
    const cy = await insertContact(ctx.app, rep, { firstName: 'Cy', lastName: 'Soon' });
    const saved = await call('POST', '/api/dispositions', rep, {
      contactId: cy.id,
      disposition: 'call-back',
      callbackDate: new Date(Date.now() + 1500).toISOString(),
    });
    expect(saved.statusCode).toBe(201);
    expect((await list(rep)).notifications).toEqual([]);
    await until(async () => (await list(rep)).unread === 1);
    expect((await list(rep)).notifications[0]).toMatchObject({
      kind: 'callback-due',
      title: 'Callback due: Cy Soon',
      link: `/contacts/${cy.id}`,
    });
  });

  it('tells the owner once, however many announcements run at once, and only the owner', async () => {
    ctx = await createTestApp();
    const rep = await createAccount(ctx, 'user');
    const stranger = await createAccount(ctx, 'user');
    const ann = await insertContact(ctx.app, rep, {
      firstName: 'Ann',
      lastName: 'Lee',
      phone: '555-010-0099',
    });
    const id = await dueCallback(rep, ann.id, 5);
    const db = ctx.app.ctx.db;

    const made = await Promise.all(Array.from({ length: 20 }, () => announceCallback(db, rep.userId, id)));
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await announceCallback(db, stranger.userId, id)).toBeNull();
    const mine = await list(rep);
    expect(mine.unread).toBe(1);
    expect(mine.notifications).toEqual([
      expect.objectContaining({
        kind: 'callback-due',
        title: 'Callback due: Ann Lee',
        link: `/contacts/${ann.id}`,
        read: false,
      }),
    ]);
    expect(mine.notifications[0].body).toContain('Asked for Friday');
    expect((await list(stranger)).notifications).toEqual([]);
    expect(await announceCallback(db, rep.userId, id)).toBeNull();

    // Marking read: the stranger cannot, the owner can.
    const noteId = mine.notifications[0].id;
    await call('POST', '/api/notifications/read', stranger, { ids: [noteId] });
    expect((await list(rep)).unread).toBe(1);
    expect((await call('POST', '/api/notifications/read', rep, { ids: [noteId] })).statusCode).toBe(204);
    expect((await list(rep)).unread).toBe(0);
  });

  it('says nothing when turned off, or when the contact was called again since', async () => {
    ctx = await createTestApp();
    const rep = await createAccount(ctx, 'user');
    const saved = await call('PUT', '/api/notification-settings', rep, { ...ALL_ON, callbacksApp: false });
    expect(saved.json()).toEqual({ settings: { ...ALL_ON, callbacksApp: false }, emailAvailable: false });
    // A change naming some settings keeps the others (a script written before a setting existed).
    const partly = await call('PUT', '/api/notification-settings', rep, { integrationsEmail: false });
    expect(partly.json().settings).toEqual({ ...ALL_ON, callbacksApp: false, integrationsEmail: false });
    expect(
      (await call('PUT', '/api/notification-settings', rep, { integrationsEmail: 'no' })).statusCode,
    ).toBe(400);
    const db = ctx.app.ctx.db;
    const first = await dueCallback(rep, (await insertContact(ctx.app, rep)).id, 5);
    expect(await announceCallback(db, rep.userId, first)).toBeNull();
    expect((await list(rep)).notifications).toEqual([]);

    await call('PUT', '/api/notification-settings', rep, ALL_ON);
    const bo = await insertContact(ctx.app, rep);
    const second = await dueCallback(rep, bo.id, 5);
    await ctx.db.admin.query(
      `insert into call_dispositions (contact_id, user_id, disposition) values ($1, $2, 'answered')`,
      [bo.id, rep.userId],
    );
    expect(await announceCallback(db, rep.userId, second)).toBeNull();
    expect((await list(rep)).notifications).toEqual([]);
  });

  it('e-mails the notice through the instance mail server when on, and never when off', async () => {
    smtp = await startTestSmtpServer();
    ctx = await createTestApp({ systemSmtpUrl: smtp.url });
    await createFirstAdmin(ctx);
    const rep = await createAccount(ctx, 'user');
    const quiet = await createAccount(ctx, 'user');
    expect((await call('GET', '/api/notification-settings', rep)).json().emailAvailable).toBe(true);
    await call('PUT', '/api/notification-settings', quiet, { ...ALL_ON, callbacksEmail: false });
    const db = ctx.app.ctx.db;
    const loud = await dueCallback(
      rep,
      (await insertContact(ctx.app, rep, { firstName: 'Cy', lastName: 'Ng' })).id,
      1,
    );
    const hushed = await dueCallback(quiet, (await insertContact(ctx.app, quiet)).id, 1);
    expect(await announceCallback(db, rep.userId, loud)).not.toBeNull();
    expect(await announceCallback(db, quiet.userId, hushed)).not.toBeNull();

    const mailTo = (email: string) => smtp!.received.filter((m) => m.to.includes(email));
    await until(() => mailTo(rep.email).length === 1);
    expect(mailTo(rep.email)[0]!.raw).toMatch(/^Subject: Callback due: Cy Ng$/m);
    expect(mailTo(rep.email)[0]!.raw).toContain('http://localhost:3000/contacts/');
    // The quiet user's notice is in the app, and no e-mail comes: give the queue time to prove it.
    expect((await list(quiet)).unread).toBe(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailTo(quiet.email)).toEqual([]);
    expect(mailTo(rep.email)).toHaveLength(1);
  });
});

describe('campaign results and sign-ups', () => {
  it('tells the owner when a campaign finishes or pauses itself on an error, unless turned off', async () => {
    ctx = await createTestApp();
    const rep = await createAccount(ctx, 'user');
    const insert = async (table: 'email_campaigns' | 'sms_campaigns', name: string) => {
      const extra = table === 'sms_campaigns' ? `, message` : '';
      const { rows } = await ctx.db.admin.query<{ id: string }>(
        `insert into ${table} (user_id, name, status${extra}) values ($1, $2, 'sending'${extra ? `, 'Hi'` : ''}) returning id`,
        [rep.userId, name],
      );
      return rows[0]!.id;
    };
    const mail = await insert('email_campaigns', 'Spring promo');
    const texts = await insert('sms_campaigns', 'Open house');
    await ctx.db.admin.query(`update email_campaigns set status = 'sent' where id = $1`, [mail]);
    await ctx.db.admin.query(
      `update sms_campaigns set status = 'paused', pause_reason = 'The provider could not be reached' where id = $1`,
      [texts],
    );
    // A pause by the user is not a failure.
    await ctx.db.admin.query(`update email_campaigns set status = 'paused' where id = $1`, [
      await insert('email_campaigns', 'Paused by hand'),
    ]);
    const notes = (await list(rep)).notifications;
    expect(
      notes.map((n: { kind: string; title: string; link: string }) => [n.kind, n.title, n.link]),
    ).toEqual([
      ['campaign-failed', 'SMS campaign paused on an error: Open house', `/projects/sms/edit/${texts}`],
      ['campaign-finished', 'Email campaign finished: Spring promo', `/projects/email/edit/${mail}`],
    ]);
    expect(notes[0].body).toBe('The provider could not be reached');

    await call('PUT', '/api/notification-settings', rep, { ...ALL_ON, campaignsApp: false });
    await ctx.db.admin.query(`update email_campaigns set status = 'sent' where id = $1`, [
      await insert('email_campaigns', 'Silent'),
    ]);
    expect((await list(rep)).notifications).toHaveLength(2);
  });

  it('tells every admin of a new sign-up waiting, settles it once decided, and never tells other users', async () => {
    ctx = await createTestApp();
    const admin = await createFirstAdmin(ctx);
    const rep = await createAccount(ctx, 'user');
    const newcomer = await signUp(ctx.app);
    const notes = (await list(admin)).notifications.filter((n: { kind: string }) => n.kind === 'new-signup');
    expect(notes.map((n: { title: string }) => n.title)).toContain(`New sign-up waiting: ${newcomer.email}`);
    expect(notes.every((n: { link: string }) => n.link === '/admin')).toBe(true);
    expect((await list(rep)).notifications).toEqual([]);
    await call('POST', `/api/admin/users/${newcomer.userId}/approve`, admin);
    const after = (await list(admin)).notifications.find(
      (n: { title: string }) => n.title === `New sign-up waiting: ${newcomer.email}`,
    );
    expect(after.read).toBe(true);

    await call('PUT', '/api/notification-settings', admin, { ...ALL_ON, signupsApp: false });
    const unheard = await signUp(ctx.app);
    expect(JSON.stringify((await list(admin)).notifications)).not.toContain(unheard.email);
  });

  it('pages the list and refuses a bad page position', async () => {
    ctx = await createTestApp();
    const rep = await createAccount(ctx, 'user');
    for (let i = 0; i < 3; i++) {
      const id = await dueCallback(rep, (await insertContact(ctx.app, rep)).id, i + 1);
      await announceCallback(ctx.app.ctx.db, rep.userId, id);
    }
    const first = (await call('GET', '/api/notifications?limit=2', rep)).json();
    expect(first.notifications).toHaveLength(2);
    expect(first.unread).toBe(3);
    const rest = (
      await call('GET', `/api/notifications?limit=2&after=${encodeURIComponent(first.next)}`, rep)
    ).json();
    expect(rest.notifications).toHaveLength(1);
    expect(rest.next).toBeNull();
    expect((await call('GET', '/api/notifications?after=x', rep)).statusCode).toBe(400);
    expect((await call('POST', '/api/notifications/read', rep, {})).statusCode).toBe(204);
    expect((await list(rep)).unread).toBe(0);
  });
});
