import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** The address of a request handed to `app.fetch` directly (tests, in-process callers), which has no socket. */
export const inProcessAddress = '127.0.0.1';

/** The node request behind a yoga server context: `req` over HTTP, `extra.request` for a graphql-ws operation. */
function nodeRequestOf(serverContext: Record<string, unknown>): IncomingMessage | undefined {
  const extra = serverContext.extra as { request?: IncomingMessage } | undefined;
  return (serverContext.req as IncomingMessage | undefined) ?? extra?.request;
}

/** An IPv4 address that reached an IPv6 socket (`::ffff:192.0.2.1`) written as IPv4. */
export function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/**
 * Where a request comes from. With `trustedProxies` proxies in front of the server, each appending the address it
 * received the request from to X-Forwarded-For, the client is that many entries from the right of the list followed by
 * the socket's peer: entries further left are whatever the client wrote, so they are never read. Without proxies
 * (the default) the header is ignored and the socket's peer is the client.
 */
export function clientAddress(
  request: Request,
  serverContext: Record<string, unknown>,
  trustedProxies: number,
): string {
  const node = nodeRequestOf(serverContext);
  const peer = plainAddress(node?.socket?.remoteAddress ?? inProcessAddress);
  if (trustedProxies === 0) return peer;
  // A graphql-ws operation's Request is built by the server without the upgrade request's headers.
  const forwarded = node ? node.headers['x-forwarded-for'] : request.headers.get('x-forwarded-for');
  const entries = [forwarded ?? ''].flat().join(',').split(',');
  const chain = [...entries.map((entry) => entry.trim()).filter(Boolean), peer];
  const client = plainAddress(chain[Math.max(0, chain.length - 1 - trustedProxies)]!);
  // A trusted proxy writes addresses only; anything else would give its sender a fresh counter per spelling.
  return isIP(client) ? client : peer;
}

/**
 * What an address is counted under: IPv4 addresses one by one, IPv6 ones by their /64, since a single subscriber is
 * usually given a whole /64 and could otherwise change address on every request.
 */
export function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  // WHATWG URL canonicalizes IPv6 (lower case, hexadecimal groups, the longest zero run as ::).
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const groups = head.split(':').filter(Boolean);
  if (tail !== undefined) {
    const tailGroups = tail.split(':').filter(Boolean);
    groups.push(...Array<string>(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups);
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}
