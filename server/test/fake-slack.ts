import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Slack's incoming webhooks (https://api.slack.com/messaging/webhooks): a POST of JSON
 * `{ text, blocks }` to the webhook's address answers 200 `ok`; a broken address answers Slack's plain-text error
 * (`no_service` with 404, `channel_is_archived` with 410, `invalid_payload` with 400…). Tests queue the answers.
 */
export type FakeSlack = {
  /** An incoming-webhook address on this fake. */
  webhookUrl: string;
  posts: { path: string; body: { text?: string; blocks?: unknown[] } }[];
  /** The next answers, in order; after them, 200 ok. */
  answers: { status: number; text: string }[];
  close: () => Promise<void>;
};

export async function startFakeSlack(): Promise<FakeSlack> {
  const fake = { posts: [], answers: [] } as unknown as FakeSlack;
  const server = http.createServer((request, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString()));
    request.on('end', () => {
      const answer = fake.answers.shift() ?? { status: 200, text: 'ok' };
      let body: FakeSlack['posts'][number]['body'] = {};
      try {
        body = JSON.parse(data) as typeof body;
      } catch {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
        return;
      }
      if (request.method !== 'POST' || request.headers['content-type'] !== 'application/json') {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
        return;
      }
      fake.posts.push({ path: request.url ?? '', body });
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.webhookUrl = `http://127.0.0.1:${port}/services/T0001/B0002/secretpart123`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
