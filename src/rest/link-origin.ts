import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { plainAddress } from '../auth/client-address';
import type { Config } from '../config';

/** The base URL (no trailing slash) that links, Location headers and the OpenAPI `servers` entry start with. */
export type LinkOrigin = (request: Request, serverContext: Record<string, unknown>) => string;

/**
 * PUBLIC_URL with its path prefix when set; otherwise the request's host if ALLOWED_HOSTS lists it; otherwise the
 * address the server accepted the connection on (HOST:PORT for a request without a socket, handed to `app.fetch`).
 * Never a Host header nobody vouched for, which would put the client's choice of host in Location headers, in
 * `links` that other clients follow, and in the cached OpenAPI document.
 */
export function createLinkOrigin(config: Pick<Config, 'publicUrl' | 'allowedHosts' | 'host' | 'port'>): LinkOrigin {
  const publicOrigin = config.publicUrl?.href.replace(/\/$/, '');
  return (request, serverContext) => {
    if (publicOrigin) return publicOrigin;
    const url = new URL(request.url);
    const host = (request.headers.get('host') ?? url.host).toLowerCase();
    if (config.allowedHosts.has(host)) return `${url.protocol}//${host}`;
    const socket = (serverContext.req as IncomingMessage | undefined)?.socket;
    const address = plainAddress(socket?.localAddress ?? config.host);
    return new URL(`http://${isIP(address) === 6 ? `[${address}]` : address}:${socket?.localPort ?? config.port}`)
      .origin;
  };
}
