import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { baseUrlForPeople } from '../ops/demo';
import { messagePage } from '../signin/forms';
import { answerInteraction, send } from './interaction';
import { createProvider, interactionPath } from './provider';

/** RFC 8414's discovery path answers OpenID discovery's document, a superset of it. */
const authorizationServerMetadata = '/.well-known/oauth-authorization-server';
const openidConfiguration = '/.well-known/openid-configuration';

export interface OAuth2Endpoints {
  /** Whether the path is the provider's (src/http/server.ts hands such requests to `handle`, not to yoga). */
  handles(pathname: string): boolean;
  /** Answers one request; `listeningPort` names the issuer when PUBLIC_URL is unset. */
  handle(request: IncomingMessage, response: ServerResponse, listeningPort: number): Promise<void>;
}

/**
 * The OAuth 2.0 and OpenID endpoints as a Node handler. The provider is built at the first request, when the issuer
 * is known: PUBLIC_URL, or else the address people reach the server at (the quick start's `http://127.0.0.1:4000`).
 * Its requests are logged as yoga's are: method, path and status, never the query, which holds codes and tokens.
 */
export function createOAuth2Endpoints(options: {
  config: Pick<Config, 'publicUrl' | 'host' | 'trustProxyHops'>;
  serverKey: Buffer;
  logger: Logger;
}): OAuth2Endpoints {
  const { config, serverKey, logger } = options;
  let provider: Promise<{ provider: Provider; handler: ReturnType<Provider['callback']> }> | undefined;
  const providerFor = (port: number) =>
    (provider ??= createProvider({ config, serverKey, issuer: baseUrlForPeople(config, port), logger }).then(
      (built) => {
        built.on('server_error', (_ctx: unknown, error: unknown) =>
          logger.error({ err: error }, 'OAuth 2.0 server error'),
        );
        return { provider: built, handler: built.callback() };
      },
    )).catch((error) => {
      provider = undefined;
      throw error;
    });

  return {
    handles: (pathname) =>
      pathname.startsWith('/oauth2/') || pathname === openidConfiguration || pathname === authorizationServerMetadata,
    async handle(request, response, listeningPort) {
      const started = performance.now();
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      response.once('finish', () =>
        logger.info(
          {
            method: request.method,
            path,
            status: response.statusCode,
            durationMs: Math.round((performance.now() - started) * 10) / 10,
          },
          'request',
        ),
      );
      try {
        const { provider: built, handler } = await providerFor(listeningPort);
        if (path.startsWith(interactionPath)) {
          if (request.method !== 'GET' && request.method !== 'POST') {
            response.writeHead(405, { allow: 'GET, POST' }).end();
            return;
          }
          await send(await answerInteraction(built, request, response, new URL(built.issuer).origin), response);
          return;
        }
        if (path === authorizationServerMetadata) request.url = openidConfiguration;
        handler(request, response);
      } catch (error) {
        logger.error({ err: error }, 'OAuth 2.0 request failed');
        if (!response.headersSent)
          await send(messagePage('Something went wrong', 'Try again in a moment.', 500), response);
      }
    },
  };
}
