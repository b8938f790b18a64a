import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact } from '../test/contact-factory.ts';
import { asCookie, createAccount, createTestApp, type Session, type TestContext } from '../test/test-app.ts';

const SCRIPT = `export const screen = ${JSON.stringify('x'.repeat(4000))};\n`;

describe('compressed answers', () => {
  let ctx: TestContext;
  let webDist: string;
  let owner: Session;

  beforeAll(async () => {
    // A built app as `vite build` leaves it: each asset with its .br and .gz beside it.
    webDist = await mkdtemp(path.join(tmpdir(), 'callcrm-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    const asset = path.join(webDist, 'assets', 'index-abc.js');
    await writeFile(asset, SCRIPT);
    await writeFile(`${asset}.br`, brotliCompressSync(SCRIPT));
    await writeFile(`${asset}.gz`, gzipSync(SCRIPT));
    ctx = await createTestApp({ webDist });
    owner = await createAccount(ctx, 'user');
    for (let i = 0; i < 12; i++) await insertContact(ctx.app, owner);
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const asset = (acceptEncoding?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the brotli file to a browser that accepts brotli, and says the answer varies by encoding', async () => {
    const response = await asset('gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
  });

  it('sends the gzip file when only gzip is accepted, and the plain file when nothing is', async () => {
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('compresses a JSON answer above the threshold and leaves a small one alone', async () => {
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts?limit=50',
      headers: { ...asCookie(owner), 'accept-encoding': 'br, gzip' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(list.rawPayload).toString()) as { contacts: unknown[] };
    expect(body.contacts).toHaveLength(12);

    const health = await ctx.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toMatchObject({ status: 'ok' });
  });

  it('compresses a streamed CSV download, whose rows arrive whole', async () => {
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/api/contacts/export?scope=all',
      headers: { ...asCookie(owner), 'accept-encoding': 'br, gzip' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-encoding']).toBe('br');
    const rows = brotliDecompressSync(csv.rawPayload).toString().split(/\r?\n/).filter(Boolean);
    expect(rows).toHaveLength(13);
  });

  it('never inflates a compressed request body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { ...asCookie(owner), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ firstName: 'Zip', lastName: 'Bomb', phone: '5550100000' })),
    });
    expect(response.statusCode).toBe(400);
  });
});
