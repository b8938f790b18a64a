import dns from 'node:dns/promises';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../test/fake-slack.ts';
import { DestinationRefused, destinationProblem, isInternalAddress, postJson } from './outgoing-post.ts';

describe('isInternalAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['52.1.2.3', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2600:1f18::1', false],
    ['not an address', true],
  ])('%s → %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});

describe('destinationProblem', () => {
  it.each([
    ['https://hooks.slack.com/services/T/B/x', null, null],
    ['http://hooks.slack.com/services/T/B/x', null, 'The address must start with https://.'],
    ['ftp://hooks.slack.com/x', null, 'The address must start with https://.'],
    ['https://10.0.0.5/x', null, 'private'],
    ['https://10.0.0.5/x', ['10.0.0.5'], null],
    ['http://chat.internal/x', ['*.internal'], null],
    ['https://localhost/x', null, 'private'],
    ['https://[fd00::1]/x', null, 'private'],
    ['https://a:b@hooks.slack.com/x', null, 'user name or password'],
    ['nonsense', null, 'Enter a full web address'],
  ] as const)('%s (allowed %j) → %s', (url, allowed, problem) => {
    const found = destinationProblem(url, allowed);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('postJson', () => {
  let fake: FakeSlack;
  afterEach(() => fake.close());

  it('refuses a name that resolves to an internal address when it connects, unless the operator allows it', async () => {
    fake = await startFakeSlack();
    const host = os.hostname();
    // This machine's own name resolves to loopback (/etc/hosts): a name that passes every check on its face.
    expect(isInternalAddress((await dns.lookup(host)).address)).toBe(true);
    const url = fake.webhookUrl.replace('127.0.0.1', host).replace('http:', 'https:');
    await expect(
      postJson(url, { text: 'hi' }, { allowedHosts: null, timeoutMs: 2000 }),
    ).rejects.toBeInstanceOf(DestinationRefused);
    expect(fake.posts).toHaveLength(0);
    const allowed = await postJson(
      url.replace('https:', 'http:'),
      { text: 'hi' },
      { allowedHosts: [host], timeoutMs: 2000 },
    );
    expect(allowed).toEqual({ status: 200, text: 'ok' });
    expect(fake.posts).toEqual([{ path: '/services/T0001/B0002/secretpart123', body: { text: 'hi' } }]);
  });
});
