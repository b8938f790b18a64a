import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asCookie,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type Session,
  type TestContext,
} from '../../test/test-app.ts';

let ctx: TestContext;
let admin: Session;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createFirstAdmin(ctx);
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as: Session = admin) =>
  ctx.app.inject({ method, url, headers: asCookie(as), ...(payload ? { payload } : {}) });

describe('admin user management', () => {
  it('counts total, pending and approved (user or admin) accounts', async () => {
    const before = (await call('GET', '/api/admin/stats')).json();
    await createAccount(ctx, 'pending');
    await createAccount(ctx, 'user');
    await createAccount(ctx, 'denied');
    const after = (await call('GET', '/api/admin/stats')).json();
    expect(after.totalUsers - before.totalUsers).toBe(3);
    expect(after.pendingApproval - before.pendingApproval).toBe(1);
    expect(after.approvedUsers - before.approvedUsers).toBe(1);
    expect(after.deniedUsers - before.deniedUsers).toBe(1);
  });

  it('lists accounts by status and search, newest first', async () => {
    const denied = await createAccount(ctx, 'denied', `zebra-denied-${Date.now()}@example.com`);
    const byStatus = (await call('GET', '/api/admin/users?status=denied')).json();
    expect(byStatus.users.map((u: { id: string }) => u.id)).toContain(denied.userId);
    expect(byStatus.users.every((u: { role: string }) => u.role === 'denied')).toBe(true);

    const bySearch = (await call('GET', '/api/admin/users?search=zebra-denied')).json();
    expect(bySearch.users.map((u: { email: string }) => u.email)).toEqual([denied.email]);
    expect(bySearch.total).toBe(1);

    const wildcard = (await call('GET', '/api/admin/users?search=%25')).json();
    expect(wildcard.total).toBe(0);
  });

  it('changes roles between user and admin', async () => {
    const person = await createAccount(ctx, 'user');
    expect(
      (await call('PUT', `/api/admin/users/${person.userId}/role`, { role: 'admin' })).json(),
    ).toMatchObject({ profile: { role: 'admin' } });
    expect(
      (await call('PUT', `/api/admin/users/${person.userId}/role`, { role: 'user' })).json(),
    ).toMatchObject({ profile: { role: 'user' } });
  });

  it('never demotes or deactivates the last admin', async () => {
    const solo = await createTestApp();
    try {
      const only = await createFirstAdmin(solo);
      const demote = await solo.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${only.userId}/role`,
        headers: asCookie(only),
        payload: { role: 'user' },
      });
      expect(demote.statusCode).toBe(409);
      expect(demote.json()).toMatchObject({ code: 'LAST_ADMIN' });

      const other = await createAccount(solo, 'admin');
      const deactivateSelf = await solo.app.inject({
        method: 'POST',
        url: `/api/admin/users/${only.userId}/deactivate`,
        headers: asCookie(only),
      });
      expect(deactivateSelf.statusCode).toBe(409);
      // Two admins: each may demote the other, but not both at once.
      const results = await Promise.all([
        solo.app.inject({
          method: 'PUT',
          url: `/api/admin/users/${other.userId}/role`,
          headers: asCookie(only),
          payload: { role: 'user' },
        }),
        solo.app.inject({
          method: 'PUT',
          url: `/api/admin/users/${only.userId}/role`,
          headers: asCookie(other),
          payload: { role: 'user' },
        }),
      ]);
      const { rows } = await solo.db.admin.query(
        `select count(*)::int as n from user_profiles where role = 'admin'`,
      );
      expect(rows[0].n).toBe(1);
      // Whichever commits first wins; the other is refused: 409 LAST_ADMIN if it got past the access check before
      // the winner committed, 403 if it arrived after and is no longer an admin itself.
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
    } finally {
      await solo.close();
    }
  });

  it('answers 404 for an unknown account and 400 with the field for a malformed id or role', async () => {
    const unknown = await call('POST', '/api/admin/users/7d0b5a9e-1111-4222-8333-444455556666/approve');
    expect(unknown.statusCode).toBe(404);
    const malformed = await call('POST', '/api/admin/users/not-a-uuid/approve');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'params.userId' }],
    });
    const person = await createAccount(ctx, 'user');
    const badRole = await call('PUT', `/api/admin/users/${person.userId}/role`, { role: 'superuser' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().issues[0].path).toBe('body.role');
  });

  it('refuses to deny an approved account (deactivate is the tool for that)', async () => {
    const person = await createAccount(ctx, 'user');
    const response = await call('POST', `/api/admin/users/${person.userId}/deny`);
    expect(response.statusCode).toBe(409);
  });

  it('reports diagnostics: reachable, version, migration level, row counts', async () => {
    const response = await call('GET', '/api/admin/diagnostics');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ databaseReachable: true, migrationLevel: expect.stringMatching(/^\d{4}-/) });
    expect(body.serverVersion).toMatch(/^\d+/);
    const profiles = body.rowCounts.find((r: { table: string }) => r.table === 'user_profiles');
    const { rows } = await ctx.db.admin.query('select count(*)::int as n from user_profiles');
    expect(profiles.rows).toBe(rows[0].n);
  });
});
