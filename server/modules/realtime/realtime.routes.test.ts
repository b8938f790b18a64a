import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import {
  asCookie,
  buildSecondInstance,
  createAccount,
  createFirstAdmin,
  createTestApp,
  signUp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { waitFor } from '../../test/calls-test-kit.ts';
import { withActor } from '../../db/database.ts';
import { isBrowserOpen } from '../../realtime/browser-presence.repository.ts';

/** Reads Server-Sent Events from a real listening server until `until` matches one, or the deadline passes. */
async function collectEvents(
  baseUrl: string,
  cookie: string,
  act: () => Promise<unknown>,
  until: (e: { event: string; data: unknown }) => boolean,
) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  let acted = false;
  const deadline = Date.now() + 5000;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), 500)),
      ]);
      if (chunk && !chunk.done) buffer += decoder.decode(chunk.value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ? JSON.parse(data) : null });
      }
      if (!acted && events.some((e) => e.event === 'ready')) {
        acted = true;
        await act();
      }
      if (events.some(until)) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}

let ctx: TestContext;
let admin: Session;
let baseUrl: string;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createFirstAdmin(ctx);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => ctx.close());

const isSignup = (e: { event: string; data: unknown }) =>
  e.event === 'change' &&
  (e.data as { topic: string; op: string }).topic === 'profiles' &&
  (e.data as { op: string }).op === 'INSERT';

describe('realtime changes over Server-Sent Events', () => {
  it('tells a watching admin about a new sign-up', async () => {
    let newcomer: Session | null = null;
    const events = await collectEvents(
      baseUrl,
      admin.cookie,
      async () => (newcomer = await signUp(ctx.app)),
      isSignup,
    );
    const signup = events.find(isSignup);
    expect(signup?.data).toMatchObject({
      topic: 'profiles',
      op: 'INSERT',
      role: 'pending',
      id: newcomer!.userId,
    });
  });

  it('tells a pending person about their own approval, and nothing about other people', async () => {
    const person = await createAccount(ctx, 'pending');
    const own = (e: { event: string; data: unknown }) =>
      e.event === 'change' && (e.data as { id: string }).id === person.userId;
    const events = await collectEvents(
      baseUrl,
      person.cookie,
      async () => {
        await signUp(ctx.app); // someone else: must not reach this person
        await ctx.app.inject({
          method: 'POST',
          url: `/api/admin/users/${person.userId}/approve`,
          headers: asCookie(admin),
        });
      },
      own,
    );
    const changes = events
      .filter((e) => e.event === 'change')
      .map((e) => e.data as { id: string; role: string });
    expect(changes).toEqual([expect.objectContaining({ id: person.userId, role: 'user' })]);
  });

  it('tells a rep when a call of theirs completes a contact of a queue (the queue’s counts moved), and nobody else', async () => {
    const rep = await createAccount(ctx, 'user');
    const bystander = await createAccount(ctx, 'user');
    const contact = await insertContact(ctx.app, rep);
    const queue = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/queues',
        headers: asCookie(rep),
        payload: { name: 'Live', selection: { ids: [contact.id] } },
      })
    ).json<{ queue: { id: string } }>().queue;
    const isQueueChange = (e: { event: string; data: unknown }) =>
      e.event === 'change' && (e.data as { topic: string }).topic === 'queues';
    const save = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/dispositions',
        headers: asCookie(rep),
        payload: { contactId: contact.id, disposition: 'no-answer', queueId: queue.id },
      });
    const seen = await collectEvents(baseUrl, rep.cookie, save, isQueueChange);
    expect(seen.find(isQueueChange)?.data).toMatchObject({
      topic: 'queues',
      id: queue.id,
      userId: rep.userId,
    });
    const unseen = await collectEvents(baseUrl, bystander.cookie, save, isQueueChange);
    expect(unseen.filter(isQueueChange)).toEqual([]);
  });

  it("ends a person's open stream the moment they are deactivated, and refuses it again", async () => {
    const person = await createAccount(ctx, 'user');
    const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie: person.cookie } });
    const reader = response.body!.getReader();
    let opened = '';
    while (!opened.includes('event: ready')) opened += new TextDecoder().decode((await reader.read()).value);
    const deactivated = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${person.userId}/deactivate`,
      headers: asCookie(admin),
    });
    expect(deactivated.statusCode).toBe(200);
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    const timeout = new Promise<false>((r) => setTimeout(() => r(false), 3000));
    expect(await Promise.race([ended, timeout])).toBe(true);
    const again = await fetch(`${baseUrl}/api/events`, { headers: { cookie: person.cookie } });
    expect([401, 403]).toContain(again.status);
  });

  it('counts a user as having the app open while any stream of theirs is, on any instance, and not after', async () => {
    const rep = await createAccount(ctx, 'user');
    const open = () => withActor(ctx.app.ctx.db, { kind: 'system' }, (trx) => isBrowserOpen(trx, rep.userId));
    const stream = async () => {
      const controller = new AbortController();
      const response = await fetch(`${baseUrl}/api/events`, {
        headers: { cookie: rep.cookie },
        signal: controller.signal,
      });
      await response.body!.getReader().read();
      return controller;
    };
    expect(await open()).toBe(false);
    const [first, second] = [await stream(), await stream()];
    await waitFor(open, Boolean);
    // Another instance on the same database sees it too.
    const other: App = await buildSecondInstance(ctx);
    try {
      expect(await withActor(other.ctx.db, { kind: 'system' }, (trx) => isBrowserOpen(trx, rep.userId))).toBe(
        true,
      );
    } finally {
      await other.close();
    }
    first.abort();
    await new Promise((r) => setTimeout(r, 200));
    expect(await open()).toBe(true);
    second.abort();
    expect(await waitFor(open, (o) => !o)).toBe(false);
  });

  it('relays a change made through another server instance on the same database', async () => {
    const other: App = await buildSecondInstance(ctx);
    try {
      const events = await collectEvents(baseUrl, admin.cookie, () => signUp(other), isSignup);
      expect(events.some(isSignup)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/session', () => {
  it('answers 200 with who is signed in, or why nobody is', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/session' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ profile: null, reason: 'signed-out' });

    const signedIn = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: asCookie(admin) });
    expect(signedIn.json()).toMatchObject({ profile: { id: admin.userId, role: 'admin' }, reason: null });

    const denied = await createAccount(ctx, 'denied');
    const deniedAnswer = await ctx.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: asCookie(denied),
    });
    expect(deniedAnswer.json()).toEqual({ profile: null, reason: 'denied' });
  });
});
