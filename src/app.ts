import { initContextCache } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { type Plugin, createYoga, maskError, useErrorHandler } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createAuthFailureGuard } from './auth/auth-failures';
import { type SharedCredential, authenticationChallenge, createAuthenticator } from './auth/authenticate';
import { clientAddress } from './auth/client-address';
import { CredentialCache } from './auth/credential-cache';
import { useOAuth1Endpoints } from './auth/oauth1-endpoints';
import { createRateLimiter, useRateLimitReporting } from './auth/rate-limit';
import type { Config } from './config';
import { breakerOf } from './redis/breaker';
import type { Database } from './db/database';
import { databaseUnavailability, isDatabaseUnavailable, serviceUnavailable } from './db/unavailable';
import type { Context } from './graphql/builder';
import { refusedConnectionArgument } from './graphql/connections';
import { useContextCacheRelease } from './graphql/context-cache';
import { useExecutionBounds } from './graphql/execution-bounds';
import { queryCostOf, useQueryLimits } from './graphql/limits';
import { schema } from './graphql/schema';
import { createLogger, requestIdOf, useRequestLogging, yogaLogger } from './http/logging';
import { useMetrics } from './http/metrics';
import { useRestFacade } from './rest/facade';
import { createLinkOrigin } from './rest/link-origin';
import { useIdempotencyKeys } from './rest/idempotency';
import { useRestReference, useRestReferencePreflight } from './rest/reference';
import { restRoutes } from './rest/routes';
import { useCalendarFeeds } from './modules/calendar-feeds/calendar-feed.http';
import { limitSubscriptionsPerCredential } from './modules/subscriptions/event.quota';
import { useEventStreamIds } from './modules/subscriptions/event.sse';
import { fileStore, insufficientStorage, storageUnavailableIn } from './modules/uploads/file-store';
import { type StorageFinding, createStorageCheck } from './modules/uploads/storage-check';
import { configureUploads } from './modules/uploads/upload.service';
import { useWebPackageSites } from './modules/web-packages/web-package.http';
import { useOAuth1Authorize } from './signin/oauth1-authorize.http';
import { createOAuth2Endpoints } from './oauth2/endpoints';
import { useUpstreamSignIn } from './signin/oidc-upstream.http';
import { useSignInPages } from './signin/sign-in.http';
import { configureWebPackages } from './modules/web-packages/web-package.service';
import { useWebhookAddressPolicy } from './webhooks/address';
import { isTracing } from './ops/tracing';
import { useTracing } from './ops/tracing-plugin';
import { corsPolicy } from './http/cors';
import { useGraphQLBodyLimit } from './http/body-limit';
import { useEntityTags } from './http/etag';
import { useCompression } from './http/compression';
import { useHttpStatusInErrors } from './http/error-status';
import { type StoppingServerContext, refusedWhileStopping } from './http/stopping';
import { useGraphiQLPage } from './http/graphiql';
import {
  documentIdParameter,
  memoryQueryStore,
  readTrustedDocuments,
  redisQueryStore,
  useAutomaticPersistedQueries,
  useTrustedDocuments,
} from './http/persisted-queries';

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

/**
 * /healthz: the process answers. /readyz: the database answers and every migration is applied; when Redis does not
 * answer a PING within its budget it is still ready (200, `degraded`), because the instance serves, counting rate
 * limits locally, and must stay in rotation. So it is with file storage that is full or read-only (`storage`):
 * everything but storing a file is served, and taking the instance out of rotation would not give the storage room.
 */
function useHealthChecks(database: Database, redis: Redis | null, storage: () => Promise<StorageFinding>): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname === '/healthz') return endResponse(json(200, { status: 'ok' }));
      if (url.pathname !== '/readyz') return;
      try {
        const [pending, redisAnswers] = await Promise.all([
          database.pendingMigrations(),
          redis ? breakerOf(redis).ping() : true,
        ]);
        if (pending.length) return endResponse(json(503, { status: 'migrations pending', pending }));
        const finding = await storage();
        const degraded = {
          ...(redisAnswers ? {} : { redis: 'unreachable' }),
          ...(finding ? { storage: finding } : {}),
        };
        endResponse(
          json(200, Object.keys(degraded).length ? { status: 'degraded', ...degraded } : { status: 'ready' }),
        );
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
    failures: createAuthFailureGuard(config.authFailureLimits, redis),
    credentials: new CredentialCache({ maxAgeMs: config.credentialCacheMs }),
    redis,
  });
  const linkOrigin = createLinkOrigin(config);
  const rateLimiter = createRateLimiter(config.rateLimit, redis, logger);
  limitSubscriptionsPerCredential(config.subscriptionsPerCredential);
  configureUploads(config);
  configureWebPackages(config);
  useWebhookAddressPolicy(config.webhooks);

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // useGraphQLBodyLimit checks it; /v1 has its own.
    maxRequestBodySize: false,
    landingPage: false,
    // Served by useGraphiQLPage: a small page and cacheable, compressed assets.
    graphiql: false,
    // A trusted document may be named by `documentId` (GraphQL over HTTP) beside the usual parameters.
    extraParamNames: config.trustedDocumentsPath ? [documentIdParameter] : [],
    cors: corsPolicy(config.corsOrigins),
    // The error handler below reports a lost database and full storage (as warnings, with the request id).
    logging: yogaLogger(logger, (error) => isDatabaseUnavailable(error) || storageUnavailableIn(error) !== null),
    // A lost database is the service's failure, not the request's: 503 with Retry-After rather than a masked 500; so is
    // file storage that is full or read-only: 507. A connection argument Pothos refuses (a malformed cursor) is the
    // request's: 400.
    maskedErrors: {
      maskError: (error, message, isDev) => {
        if (isDatabaseUnavailable(error)) return serviceUnavailable();
        const storage = storageUnavailableIn(error);
        if (storage) return insufficientStorage(storage.condition);
        return refusedConnectionArgument(error) ?? maskError(error, message, isDev);
      },
    },
    context: async (initialContext): Promise<Context> => {
      const { request } = initialContext;
      if ((initialContext as StoppingServerContext).arrivedWhileStopping) throw refusedWhileStopping();
      const shared = (initialContext as { sharedCredential?: SharedCredential }).sharedCredential;
      const address = clientAddress(request, initialContext, config.trustProxyHops);
      const viewer = await (shared
        ? (shared.viewer ??= authenticate(request, address))
        : authenticate(request, address));
      // Charged per user with the cost validation computed (useQueryLimits), for /graphql and /v1 alike.
      if (viewer) await rateLimiter.charge(viewer, queryCostOf(initialContext), request);
      return {
        viewer,
        requestId: requestIdOf(request),
        serverKey,
        origin: linkOrigin(request, initialContext),
        lastEventId: request.headers.get('last-event-id'),
        // Spread last (docs/adding-a-resource.md: young garbage); useContextCacheRelease replaces it when execution
        // ends.
        ...initContextCache(),
      };
    },
    plugins: [
      // First, so a request's measured time covers every other plugin (METRICS_PORT or METRICS_TOKEN turns it on).
      ...(config.metrics ? [useMetrics(config.metrics)] : []),
      useRequestLogging(logger),
      useGraphQLBodyLimit(config.bodyLimitBytes),
      useHealthChecks(database, redis, createStorageCheck(fileStore)),
      useGraphiQLPage({ graphqlEndpoint: '/graphql', title: 'Lectern GraphQL' }),
      // Trusted documents (TRUSTED_DOCUMENTS) replace automatic persisted queries, which would register any query.
      ...(config.trustedDocumentsPath
        ? useTrustedDocuments(readTrustedDocuments(config.trustedDocumentsPath))
        : [useAutomaticPersistedQueries(redis ? redisQueryStore(redis) : memoryQueryStore())]),
      // Before the facade, so /v1 documents pass the same validation, cost, deadline and answer budget (their parse is
      // skipped).
      useQueryLimits(),
      useExecutionBounds({ timeoutMs: config.queryTimeoutMs, answerBytes: config.responseLimitBytes }),
      useContextCacheRelease(),
      useRateLimitReporting(rateLimiter),
      // /calendar/{token}.ics: calendar apps send the feed's token in its URL and no other credential.
      useCalendarFeeds(),
      // /web-packages/{id}/{grant}/...: browsers open a package's site with the signed grant in its URL, no OAuth.
      useWebPackageSites(serverKey),
      // /v1/oauth/request_token and /v1/oauth/access_token answer form-encoded tokens, before the facade's router.
      useOAuth1Endpoints({ authenticate, serverKey, trustProxyHops: config.trustProxyHops }),
      // /sign-in/oidc/{id}[/callback]: signing in at a school's identity provider; before the sign-in pages, which
      // answer every other /sign-in/ path.
      useUpstreamSignIn({ config, serverKey, redis, logger }),
      // /sign-in, /sign-out, /sign-in/link/{token}: HTML pages for people in browsers (docs/sign-in.md).
      useSignInPages({ config, serverKey, redis }),
      // /oauth/authorize: the user approves a legacy app's request token (docs/oauth1.md).
      useOAuth1Authorize(),
      // /v1/openapi.json and /v1/docs (public), before the facade, whose router would answer them with 404.
      useRestReference({ routes: restRoutes, publicUrl: config.publicUrl, linkOrigin }),
      useRestFacade({
        routes: restRoutes,
        files: fileStore,
        linkOrigin,
        bodyLimitBytes: config.bodyLimitBytes,
        logger,
      }),
      // After the facade, whose onResponse answers OPTIONS on every /v1 path.
      useRestReferencePreflight(),
      // After the facade, whose onResponse may replace the response (OPTIONS), so headers land on the final response.
      useAuthenticationChallenge(),
      useHttpStatusInErrors(),
      useEntityTags('/graphql'),
      // After every plugin that reads or rewrites a body (error statuses, entity tags), so they see it unencoded.
      useCompression('/graphql'),
      // After authentication (the context) and before execution, on both APIs: a key belongs to its user.
      useIdempotencyKeys(logger),
      // Server-sent realm events carry their cursor as the `id:` line, which a reconnecting client sends back.
      useEventStreamIds(),
      // Unexpected errors reach clients masked; the log keeps the cause with the request id the 500 answer names. A
      // lost database or full storage is no fault of the code: a warning naming the condition.
      useErrorHandler(({ errors, context, phase }) => {
        // In the execution phase `context` is the execution arguments; the request is in their contextValue.
        const scope = (phase === 'execution' ? (context as { contextValue?: unknown }).contextValue : context) as
          | { request?: Request }
          | undefined;
        const requestId = scope?.request ? requestIdOf(scope.request) : undefined;
        for (const error of errors) {
          const cause = error instanceof GraphQLError ? error.originalError : error;
          if (!cause || cause instanceof GraphQLError || (cause as { __typename?: string }).__typename) continue;
          const storage = storageUnavailableIn(cause);
          const database = storage ? null : databaseUnavailability(cause);
          if (storage)
            logger.warn(
              { err: cause, requestId },
              `file storage ${storage.condition}: refused with INSUFFICIENT_STORAGE`,
            );
          else if (database) logger.warn({ err: cause, requestId }, `database unavailable (${database}): answered 503`);
          else logger.error({ err: cause, requestId }, 'unexpected error');
        }
      }),
      // Last, so that its onResponse reads the final status; absent while traces are off (docs/operations.md#traces).
      ...(isTracing() ? [useTracing()] : []),
    ],
  });
  // The OAuth 2.0 / OpenID provider is a Node handler beside yoga (docs/oauth2.md); src/http/server.ts routes to it.
  return Object.assign(yoga, { oauth2: createOAuth2Endpoints({ config, serverKey, logger }) });
}

export type App = ReturnType<typeof createApp>;
