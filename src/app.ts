import { GraphQLError } from 'graphql';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { type Plugin, createYoga, useErrorHandler } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { authenticationChallenge, createAuthenticator } from './auth/authenticate';
import { createRateLimiter } from './auth/rate-limit';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Context } from './graphql/builder';
import { schema } from './graphql/schema';
import { createLogger, requestIdOf, useRequestLogging, yogaLogger } from './logging';
import { useRestFacade } from './rest/facade';
import { useRestReference, useRestReferencePreflight } from './rest/reference';
import { restRoutes } from './rest/routes';

export interface AppOptions {
  config: Config;
  database: Database;
  serverKey: Buffer;
  logger?: Logger;
  /** Shared counters for a scaled-out deployment (REDIS_URL); the database holds them otherwise. */
  redis?: Redis | null;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

/** /healthz: the process answers. /readyz: the database answers and every migration is applied. */
function useHealthChecks(database: Database): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname === '/healthz') return endResponse(json(200, { status: 'ok' }));
      if (url.pathname !== '/readyz') return;
      try {
        const pending = await database.pendingMigrations();
        endResponse(pending.length ? json(503, { status: 'migrations pending', pending }) : json(200, { status: 'ready' }));
      } catch {
        endResponse(json(503, { status: 'database unreachable' }));
      }
    },
  };
}

/**
 * A 401 must name the scheme to authenticate with; the one for a missing credential comes from the schema's auth
 * scope, which knows nothing of HTTP, so the challenge is added here for /graphql and /v1 alike.
 */
function useAuthenticationChallenge(): Plugin {
  return {
    onResponse({ response }) {
      if (response.status === 401 && !response.headers.has('www-authenticate')) {
        response.headers.set('www-authenticate', authenticationChallenge);
      }
    },
  };
}

/** createApp builds the whole HTTP surface (GraphQL, REST, health) without listening, so tests call `app.fetch`. */
export function createApp({ config, database, serverKey, logger = createLogger(config), redis = null }: AppOptions) {
  const authenticate = createAuthenticator({
    secretKey: serverKey,
    publicUrl: config.publicUrl,
    oauthSkewSeconds: config.oauthSkewSeconds,
  });
  const rateLimit = createRateLimiter(config.rateLimit, redis);

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // Checked against Content-Length and while reading, so a chunked body cannot exceed it either; /v1 has its own.
    maxRequestBodySize: config.bodyLimitBytes,
    landingPage: false,
    graphiql: { title: 'Lectern GraphQL', subscriptionsProtocol: 'WS' },
    // GraphiQL served from this server rather than a CDN, for school networks that filter outside hosts.
    renderGraphiQL,
    logging: yogaLogger(logger),
    context: async ({ request }): Promise<Context> => {
      const viewer = await authenticate(request);
      if (viewer) await rateLimit(viewer.credential);
      return { viewer, requestId: requestIdOf(request), serverKey };
    },
    plugins: [
      useRequestLogging(logger),
      useHealthChecks(database),
      // /v1/openapi.json and /v1/docs (public), before the facade, whose router would answer them with 404.
      useRestReference({ routes: restRoutes, publicUrl: config.publicUrl }),
      useRestFacade({ routes: restRoutes, publicUrl: config.publicUrl, bodyLimitBytes: config.bodyLimitBytes, logger }),
      // After the facade, whose onResponse answers OPTIONS on every /v1 path.
      useRestReferencePreflight(),
      // After the facade, whose onResponse may replace the response (OPTIONS), so headers land on the final response.
      useAuthenticationChallenge(),
      // Unexpected errors reach clients masked; the log keeps the cause with the request id the 500 answer names.
      useErrorHandler(({ errors, context, phase }) => {
        // In the execution phase `context` is the execution arguments; the request is in their contextValue.
        const scope = (phase === 'execution' ? (context as { contextValue?: unknown }).contextValue : context) as
          | { request?: Request }
          | undefined;
        const requestId = scope?.request ? requestIdOf(scope.request) : undefined;
        for (const error of errors) {
          const cause = error instanceof GraphQLError ? error.originalError : error;
          if (cause && !(cause instanceof GraphQLError) && !(cause as { __typename?: string }).__typename) {
            logger.error({ err: cause, requestId }, 'unexpected error');
          }
        }
      }),
    ],
  });
  return yoga;
}

export type App = ReturnType<typeof createApp>;
