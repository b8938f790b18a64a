import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, type Session, type TestContext } from '../../test/test-app.ts';

/** A download the client abandons (a closed tab) gives its database connection back at once. */
let ctx: TestContext;
let owner: Session;
let base: string;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createAccount(ctx, 'user');
  await ctx.db.admin.query(
    `insert into contacts (user_id, first_name, last_name, email, phone, notes)
     select $1, 'Exp' || g, 'Orter', 'exp-' || g || '@example.com', '555010' || lpad((g % 10000)::text, 4, '0'),
       repeat('note ', 40)
     from generate_series(1, 60000) g`,
    [owner.userId],
  );
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

const poolInUse = () => ctx.app.ctx.pool.totalCount - ctx.app.ctx.pool.idleCount;

describe('an export the client stops reading', () => {
  it('releases its connection when the client goes away, ten times over, and the server keeps answering', async () => {
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const response = await fetch(`${base}/api/contacts/export`, {
        headers: { cookie: owner.cookie, 'accept-encoding': 'br, gzip' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      // A browser asks for compression, so this is the compressed stream: the compressor must pass the abort on.
      expect(response.headers.get('content-encoding')).toBe('br');
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
    }
    const until = Date.now() + 10_000;
    while (poolInUse() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(poolInUse()).toBe(0);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    // And a whole export still arrives complete.
    const whole = await (
      await fetch(`${base}/api/contacts/export`, { headers: { cookie: owner.cookie } })
    ).text();
    expect(whole.trim().split('\n')).toHaveLength(60_001);
  }, 60_000);
});
