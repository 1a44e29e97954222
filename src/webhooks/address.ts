/**
 * Which webhook targets may be reached (SSRF guard). By default a target must be https and must not resolve to a
 * loopback, private, link-local (cloud metadata included), multicast or otherwise reserved address. At creation the
 * URL and the addresses its host resolves to now are checked; at delivery the address in the URL is checked again and
 * request-filtering-agent (with isPublicAddress on every address a name resolves to) checks the address each
 * connection is actually opened to, so a name that resolves elsewhere later (DNS rebinding) is still refused.
 * WEBHOOK_ALLOW_HOSTS and WEBHOOK_ALLOW_HTTP open the guard for development and tests.
 */
import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { type LookupFunction, isIP, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { WebhookAddressPolicy } from '../config';

let policy: WebhookAddressPolicy = { allowHosts: new Set(), allowHttp: false };

/** Set once at start from the configuration (createApp). */
export function useWebhookAddressPolicy(configured: WebhookAddressPolicy): void {
  policy = configured;
}

/** The URL's host name, an IPv6 address without its brackets. */
const hostnameOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

const isAllowedHost = (url: URL) =>
  policy.allowHosts.has(url.host.toLowerCase()) || policy.allowHosts.has(url.hostname.toLowerCase());

/** IPv4-compatible IPv6 addresses (`::a.b.c.d`), deprecated by RFC 4291, which ipaddr.js counts as unicast. */
const ipv4Compatible = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

/**
 * Only the public internet: ipaddr.js names every special range (private, loopback, linkLocal, uniqueLocal, ...), and
 * an IPv4-mapped address is its IPv4 address. The ranges that embed an IPv4 address (NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, Teredo `2001::/32`, IPv4-translated) are special ranges of their own, refused whole as the delivery
 * agent refuses them, and the IPv4-compatible range is refused whole too.
 */
export function isPublicAddress(address: string): boolean {
  try {
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`); the URL parser writes IPv6 in hexadecimal.
    const text = isIPv6(address) ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
    const parsed = ipaddr.parse(text);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(ipv4Compatible)) return false;
    return ipaddr.process(text).range() === 'unicast';
  } catch {
    return false;
  }
}

/**
 * dns.lookup for the guarded agents: fails for a name that resolves to any address isPublicAddress refuses, which
 * covers the ranges request-filtering-agent's own check lets through.
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(
    hostname,
    options,
    (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
      const found = typeof address === 'string' ? [address] : (address ?? []).map((entry) => entry.address);
      const refused = error ? undefined : found.find((each) => !isPublicAddress(each));
      if (refused === undefined) return callback(error, address, family);
      callback(
        Object.assign(new Error(`${hostname} resolves to ${refused}, which is not a public address`), {
          code: 'EADDRNOTPUBLIC',
        }),
        address,
        family,
      );
    },
  );

const lookupTimeoutMs = 2_000;

async function resolvedAddresses(hostname: string): Promise<string[]> {
  const timeout = new Promise<never>((_resolve, reject) =>
    setTimeout(() => reject(new Error('lookup timed out')), lookupTimeoutMs).unref(),
  );
  const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
  return found.map((entry) => entry.address);
}

/**
 * Why a target URL is refused, or null when it may be used. A host that does not resolve now is accepted: it is
 * checked again at every delivery, on the address connected to.
 */
export async function targetUrlProblem(text: string): Promise<string | null> {
  const url = new URL(text);
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) return 'must be an https URL';
  if (isAllowedHost(url)) return null;
  const hostname = hostnameOf(url);
  if (isIP(hostname))
    return isPublicAddress(hostname) ? null : 'must not be a loopback, private, link-local or reserved address';
  const addresses = await resolvedAddresses(hostname).catch(() => []);
  return addresses.every(isPublicAddress) ? null : 'resolves to a loopback, private, link-local or reserved address';
}

const keepAlive = { keepAlive: true, maxSockets: 64 };
// An agent's options reach every connection it opens, `lookup` included.
const guarded = { ...keepAlive, lookup: publicAddressLookup };
const agents = {
  open: { http: new http.Agent(keepAlive), https: new https.Agent(keepAlive) },
  guarded: { http: new RequestFilteringHttpAgent(guarded), https: new RequestFilteringHttpsAgent(guarded) },
};

/**
 * The agent a delivery to `url` uses, or why the URL may not be used now: the configuration may have changed, and an
 * address in the URL, which no lookup sees, is checked again (a target saved before its range was refused).
 */
export function deliveryAgent(url: URL): { agent: http.Agent } | { refused: string } {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return { refused: 'target is not https' };
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  if (isAllowedHost(url)) return { agent: agents.open[scheme] };
  const hostname = hostnameOf(url);
  if (isIP(hostname) && !isPublicAddress(hostname)) return { refused: 'target address is not a public address' };
  return { agent: agents.guarded[scheme] };
}
