import { BlockList, isIPv4 } from 'node:net';

/** Addresses a reverse proxy of this server can have without being named: loopback and private networks. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return PRIVATE.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}

/**
 * Fastify's trustProxy for TRUST_PROXY (config/env.ts). A number of hops trusts that many proxies, each on a
 * private or loopback address, so the client address is the one the outermost of them saw: the right-most
 * X-Forwarded-For entries they appended, never the left-most one a client may write itself, and a client reaching
 * the server directly from the internet is never believed. A list of addresses trusts exactly those.
 */
export function trustProxyOption(
  setting: false | number | string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || Array.isArray(setting)) return setting;
  return (address, hop) => hop < setting && isPrivateAddress(address);
}
