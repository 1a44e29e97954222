/**
 * Which webhook targets may be reached (SSRF guard). By default a target must be https and must not resolve to a
 * loopback, private, link-local (cloud metadata included), multicast or otherwise reserved address. At creation the
 * URL and the addresses its host resolves to now are checked; at delivery request-filtering-agent checks the address
 * each connection is actually opened to, so a name that resolves elsewhere later (DNS rebinding) is still refused.
 * WEBHOOK_ALLOW_HOSTS and WEBHOOK_ALLOW_HTTP open the guard for development and tests.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { WebhookAddressPolicy } from '../../config';

let policy: WebhookAddressPolicy = { allowHosts: new Set(), allowHttp: false };

/** Set once at start from the configuration (createApp). */
export function useWebhookAddressPolicy(configured: WebhookAddressPolicy): void {
  policy = configured;
}

const isAllowedHost = (url: URL) => policy.allowHosts.has(url.host.toLowerCase()) || policy.allowHosts.has(url.hostname.toLowerCase());

/** Only the public internet: ipaddr.js names every special range (private, loopback, linkLocal, uniqueLocal, ...). */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

const lookupTimeoutMs = 2_000;

async function resolvedAddresses(hostname: string): Promise<string[]> {
  const timeout = new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('lookup timed out')), lookupTimeoutMs).unref());
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
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) return isPublicAddress(hostname) ? null : 'must not be a loopback, private, link-local or reserved address';
  const addresses = await resolvedAddresses(hostname).catch(() => []);
  return addresses.every(isPublicAddress) ? null : 'resolves to a loopback, private, link-local or reserved address';
}

const keepAlive = { keepAlive: true, maxSockets: 64 };
const agents = {
  open: { http: new http.Agent(keepAlive), https: new https.Agent(keepAlive) },
  guarded: { http: new RequestFilteringHttpAgent(keepAlive), https: new RequestFilteringHttpsAgent(keepAlive) },
};

/** The agent a delivery to `url` uses, or why the URL may not be used now (the configuration may have changed). */
export function deliveryAgent(url: URL): { agent: http.Agent } | { refused: string } {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) return { refused: 'target is not https' };
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return { agent: isAllowedHost(url) ? agents.open[scheme] : agents.guarded[scheme] };
}
