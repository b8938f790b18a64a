import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local endpoint that receives outgoing webhooks as a user's server would: it keeps each request's headers and raw
 * body, and answers what the test queued (200 after those).
 */
export type WebhookReceiver = {
  url: string;
  received: {
    headers: http.IncomingHttpHeaders;
    body: string;
    json: { type: string; data: Record<string, unknown> };
  }[];
  answers: number[];
  close: () => Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = { received: [], answers: [] } as unknown as WebhookReceiver;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const status = receiver.answers.shift() ?? 200;
      receiver.received.push({
        headers: request.headers,
        body,
        json: JSON.parse(body) as WebhookReceiver['received'][number]['json'],
      });
      response
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status < 300 ? 'thanks' : 'receiver broke');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/callcrm`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
