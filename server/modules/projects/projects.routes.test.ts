import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRequestId } from '#domain/calls/call-guard.ts';
import { insertContact } from '../../test/contact-factory.ts';
import {
  asCookie,
  createAccount,
  createTestApp,
  type Session,
  type TestContext,
  allowUnknownLocalTime,
} from '../../test/test-app.ts';

let ctx: TestContext;
let owner: Session;
let other: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
  await allowUnknownLocalTime(ctx.app, owner);
  other = await createAccount(ctx, 'user');
});
afterAll(() => ctx.close());

const send = (
  who: Session,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => ctx.app.inject({ method, url, headers: asCookie(who), ...(payload !== undefined && { payload }) });

describe('projects', () => {
  it('lists projects narrowed by a search over name, client and description, a status and a type', async () => {
    const who = await createAccount(ctx, 'user');
    const make = (payload: object) => {
      ctx.clock.advance(1000);
      return send(who, 'POST', '/api/projects', payload);
    };
    await make({ name: 'Zeta outreach', client: 'Acme', status: 'active', type: 'calling' });
    await make({
      name: 'Renewals',
      client: 'Globex',
      status: 'planning',
      type: 'sms',
      description: 'zeta list',
    });
    await make({ name: 'Winter', client: 'Initech', status: 'active', type: 'sms' });
    const names = async (query: string) =>
      (await send(who, 'GET', `/api/projects?${query}`)).json().projects.map((p: { name: string }) => p.name);
    expect(await names('')).toEqual(['Winter', 'Renewals', 'Zeta outreach']);
    expect(await names('search=ZETA')).toEqual(['Renewals', 'Zeta outreach']);
    expect(await names('search=acme')).toEqual(['Zeta outreach']);
    expect(await names('status=active')).toEqual(['Winter', 'Zeta outreach']);
    expect(await names('type=sms&status=active')).toEqual(['Winter']);
    expect(await names('search=nothing-like-it')).toEqual([]);
    expect((await send(who, 'GET', '/api/projects?status=finished')).statusCode).toBe(400);
  });

  it('creates a project with only a name (the rest unset), reads, edits and lists it', async () => {
    const created = await send(owner, 'POST', '/api/projects', { name: '  Spring push ' });
    expect(created.statusCode).toBe(201);
    const project = created.json().project;
    expect(project).toMatchObject({
      name: 'Spring push',
      client: null,
      status: 'planning',
      deadline: null,
      budget: null,
      description: null,
      type: 'calling',
      queueCount: 0,
    });
    const edited = await send(owner, 'PUT', `/api/projects/${project.id}`, {
      name: 'Spring push',
      client: 'Acme',
      status: 'active',
      deadline: '2026-12-31',
      budget: 1250.5,
      description: 'Call every lead from the fair',
      type: 'calling',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().project).toMatchObject({ client: 'Acme', deadline: '2026-12-31', budget: 1250.5 });
    const list = (await send(owner, 'GET', '/api/projects')).json().projects;
    expect(list.map((p: { id: string }) => p.id)).toContain(project.id);
    expect((await send(other, 'GET', '/api/projects')).json().projects).toEqual([]);
  });

  it('refuses bad input with a clear message and saves nothing', async () => {
    for (const [body, message] of [
      [{ name: '   ' }, 'Please provide a name for your project'],
      [{ name: 'X', budget: -1 }, 'The budget cannot be negative'],
      [{ name: 'X', deadline: '31/12/2026' }, 'Enter the deadline as a date'],
      [{ name: 'X', status: 'paused' }, undefined],
    ] as const) {
      const response = await send(owner, 'POST', '/api/projects', body);
      expect(response.statusCode).toBe(400);
      if (message) expect(JSON.stringify(response.json().issues)).toContain(message);
    }
    const count = await ctx.db.admin.query("select count(*)::int as n from projects where name = 'X'");
    expect(count.rows[0].n).toBe(0);
  });

  it('another user’s project is not found: not read, edited, deleted, nor used for a queue', async () => {
    const theirs = (await send(other, 'POST', '/api/projects', { name: 'Theirs' })).json().project;
    expect((await send(owner, 'GET', `/api/projects/${theirs.id}`)).statusCode).toBe(404);
    expect((await send(owner, 'PUT', `/api/projects/${theirs.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await send(owner, 'DELETE', `/api/projects/${theirs.id}`)).statusCode).toBe(404);
    const contact = await insertContact(ctx.app, owner);
    const queue = await send(owner, 'POST', '/api/queues', {
      name: 'Sneaky',
      projectId: theirs.id,
      selection: { ids: [contact.id] },
    });
    expect(queue.statusCode).toBe(404);
    expect((await send(other, 'GET', `/api/projects/${theirs.id}`)).json().project).toMatchObject({
      name: 'Theirs',
      queueCount: 0,
    });
  });

  it('a queue belongs to a project; its calls carry the project; deleting the project keeps the queue', async () => {
    const project = (await send(owner, 'POST', '/api/projects', { name: 'Fair leads' })).json().project;
    const contact = await insertContact(ctx.app, owner, { phone: '5550107777' });
    const queue = (
      await send(owner, 'POST', '/api/queues', {
        name: 'Fair queue',
        projectId: project.id,
        selection: { ids: [contact.id] },
      })
    ).json().queue;
    expect(queue.projectId).toBe(project.id);
    expect((await send(owner, 'GET', `/api/projects/${project.id}`)).json().project.queueCount).toBe(1);
    const call = await send(owner, 'POST', '/api/calls', {
      requestId: newRequestId(),
      contactId: contact.id,
      queueId: queue.id,
    });
    expect(call.statusCode).toBe(201);
    const row = await ctx.db.admin.query('select queue_id, project_id from calls where id = $1', [
      call.json().call.id,
    ]);
    expect(row.rows[0]).toEqual({ queue_id: queue.id, project_id: project.id });

    expect((await send(owner, 'DELETE', `/api/projects/${project.id}`)).statusCode).toBe(204);
    expect((await send(owner, 'GET', `/api/queues/${queue.id}`)).json().queue).toMatchObject({
      name: 'Fair queue',
      projectId: null,
    });
  });
});
