import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isAllowedMailHost } from '#domain/email/mail-hosts.ts';

/**
 * Requests this server makes to addresses its users give it (a Slack incoming webhook today). A user must not be able
 * to make the server reach its own network: a destination is refused when its name resolves to a private, loopback,
 * link-local or otherwise internal address, unless the operator allows that host (WEBHOOK_ALLOWED_HOSTS, the same
 * form as SMTP_ALLOWED_HOSTS). The check runs on the addresses the connection really uses (a custom DNS lookup), so a
 * name that resolves differently the second time cannot slip past it. Plain http is for allowed hosts only.
 */
const INTERNAL = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  INTERNAL.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address is internal (private, loopback, link-local, multicast, reserved). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class DestinationRefused extends Error {}

export type OutgoingOptions = {
  /** Hosts the operator lets users reach even on internal addresses, and over plain http. */
  allowedHosts: readonly string[] | null;
  timeoutMs: number;
  /** More headers (a webhook's signature). */
  headers?: Record<string, string>;
};

const refusedMessage = (host: string) =>
  `${host} is on a private or local network, which this server does not send to. Ask your administrator to allow it (WEBHOOK_ALLOWED_HOSTS).`;

/** Why a destination address cannot be used, before any request (its form and scheme); null when it may be tried. */
export function destinationProblem(url: string, allowedHosts: readonly string[] | null): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter a full web address, starting with https://.';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const allowed = (allowedHosts?.length ?? 0) > 0 && isAllowedMailHost(host, allowedHosts);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && allowed))
    return 'The address must start with https://.';
  if (parsed.username || parsed.password) return 'The address must not contain a user name or password.';
  if (!allowed && (host === 'localhost' || (net.isIP(host) !== 0 && isInternalAddress(host))))
    return refusedMessage(host);
  return null;
}

/**
 * POSTs JSON (a value, or its exact text when the text is what was signed) to a user's destination and reads the answer (at most 64 KB of it). Throws DestinationRefused for an
 * address it may not reach, and the network's own error (timeouts included) when it could not be reached.
 */
export async function postJson(
  url: string,
  body: unknown,
  options: OutgoingOptions,
): Promise<{ status: number; text: string }> {
  const problem = destinationProblem(url, options.allowedHosts);
  if (problem) throw new DestinationRefused(problem);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const allowed = (options.allowedHosts?.length ?? 0) > 0 && isAllowedMailHost(host, options.allowedHosts);
  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = !allowed && addresses.some((a) => isInternalAddress(a.address));
      if (refused) return callback(new DestinationRefused(refusedMessage(hostname)), '', 0);
      if (lookupOptions.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        lookup,
        timeout: options.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'user-agent': 'CallCRM',
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < 65_536) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8').slice(0, 65_536),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`No answer within ${Math.round(options.timeoutMs / 1000)} s.`)),
    );
    request.on('error', reject);
    request.end(payload);
  });
}
