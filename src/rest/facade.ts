import { GraphQLError, print } from 'graphql';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { databaseUnavailability, serviceUnavailable } from '../db/unavailable';
import { requestIdOf } from '../http/logging';
import { type WireFormat, contentTypes, requestFormat, responseFormat } from './negotiation';
import type { LinkOrigin } from './link-origin';
import { type FileSource, RangeNotSatisfiableError, StoredFileMissingError, serveFile } from './file-response';
import {
  type LinkBuilder,
  MissingObjectError,
  type Page,
  PayloadError,
  type RestOutcome,
  type RestRoute,
} from './route';
import { type MultigetItems, multigetAllow, multigetListPaths, multigetPath, runMultiget } from './multiget';
import { type RouteMatch, createRouter } from './router';
import { noteMatchedRoute } from './route-template';
import { WireInputError } from './wire-body';
import { XmlBodyError, parseXmlBody, renderXml } from './xml';
import { taggedAnswer } from '../http/etag';
import type { SharedCredential } from '../auth/authenticate';
import type { SharedAnswerBudget } from '../graphql/execution-bounds';
import { noteRestRoute } from '../http/metrics';

export interface RestFacadeOptions {
  routes: readonly RestRoute[];
  /** The bytes of files that routes serve (album content). */
  files: () => FileSource;
  linkOrigin: LinkOrigin;
  bodyLimitBytes: number;
  logger: Logger;
}

/** A failure the facade itself detects before or around the GraphQL operation. */
class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly issues: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** Typed mutation errors and the statuses they answer with. */
const payloadErrorStatus: Record<string, number> = { ValidationError: 400, NotFoundError: 404, ConflictError: 409 };

const maxPageSize = 200;
const defaultPageSize = 20;
/** GraphQL's Int is 32-bit: a larger start would fail variable coercion as an unexpected error. */
const maxStart = 2 ** 31 - 1;

function parsePage(query: URLSearchParams, dayStart = false): Page {
  const read = (name: string, fallback: number, minimum: number) => {
    const raw = query.get(name);
    if (name === 'start' && dayStart && raw !== null && !/^\d+$/.test(raw)) return fallback;
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < minimum) {
      throw new RestError(400, `${name} must be an integer of at least ${minimum}`, {}, [
        { field: name, message: 'invalid' },
      ]);
    }
    return Number(raw);
  };
  const start = read('start', 0, 0);
  if (start > maxStart) {
    throw new RestError(400, `start must be at most ${maxStart}`, {}, [{ field: 'start', message: 'invalid' }]);
  }
  return { start, limit: Math.min(read('limit', defaultPageSize, 1), maxPageSize) };
}

/** How long the rest of an over-limit body is read and discarded after the 413 (nginx's lingering close does the same). */
const discardBodyMs = 10_000;

/**
 * Reads the rest of an over-limit body without keeping it. Cancelling the stream would destroy the request and with it
 * the socket, so a client still sending would get a connection reset instead of the 413; closing a socket with unread
 * data resets it too. A client that keeps sending past the grace period is cut off.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const cutOff = setTimeout(() => void reader.cancel().catch(() => {}), discardBodyMs).unref();
  void (async () => {
    while (!(await reader.read()).done);
  })()
    .catch(() => {})
    .finally(() => clearTimeout(cutOff));
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get('content-length');
  return header && /^\d+$/.test(header) ? Number(header) : null;
}

async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw new RestError(413, `Request body exceeds the limit of ${limit} bytes`);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      discardRest(reader);
      throw new RestError(413, `Request body exceeds the limit of ${limit} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function decodeBody(
  request: Request,
  listPaths: ReadonlySet<string>,
  limit: number,
): Promise<Record<string, unknown>> {
  const format = requestFormat(request.headers.get('content-type'));
  if (format === 'form' || format === 'unsupported') {
    throw new RestError(415, 'Request bodies must be application/json or text/xml');
  }
  const text = await readBody(request, limit);
  if (text.trim() === '') return {};
  if (format === 'xml' || (format === 'none' && text.trimStart().startsWith('<'))) {
    return parseXmlBody(text, { listPaths });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RestError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new RestError(400, 'The JSON body must be an object');
  }
  return parsed as Record<string, unknown>;
}

/**
 * The Response class answers are made of: the server adapter's own (yoga's `fetchAPI`), whose string bodies it writes
 * to the socket as they are, where Node's global Response would be read back through a stream.
 */
type ResponseClass = typeof Response;

function render(outcome: RestOutcome, format: WireFormat, Response: ResponseClass, request?: Request): Response {
  if (!outcome.body) return new Response(null, { status: outcome.status, headers: outcome.headers });
  const headers = { ...outcome.headers, 'content-type': contentTypes[format] };
  const text = format === 'xml' ? renderXml(outcome.body) : JSON.stringify(outcome.body);
  if (request?.method === 'GET' && outcome.status === 200) return taggedAnswer(request, text, headers, Response);
  return new Response(text, { status: outcome.status, headers });
}

/** Maps any failure to a status and a short message; unexpected ones are logged with the request id and hidden. */
function failure(error: unknown, route: RestRoute | null, request: Request, logger: Logger): RestError {
  const requestId = requestIdOf(request);
  if (error instanceof RestError) return error;
  if (error instanceof MissingObjectError || error instanceof StoredFileMissingError)
    return new RestError(404, 'Not found');
  if (error instanceof RangeNotSatisfiableError)
    return new RestError(416, error.message, { 'content-range': `bytes */${error.size}` });
  if (error instanceof WireInputError)
    return new RestError(400, error.message, {}, [{ field: error.field, message: error.reason }]);
  if (error instanceof XmlBodyError) return new RestError(400, `Malformed XML body: ${error.message}`);
  if (error instanceof PayloadError) {
    const wireName = (field: string) =>
      route?.body?.wireName(field) ?? field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    const issues = error.issues.map((issue) => ({ field: wireName(issue.field), message: issue.message }));
    const message = issues.length
      ? issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')
      : error.message;
    return new RestError(payloadErrorStatus[error.typename] ?? 400, message, {}, issues);
  }
  // Execution's masking turns a lost database into a 503 already; authentication or the facade may meet it first.
  const database = databaseUnavailability(error);
  if (database) {
    logger.warn({ err: error, requestId }, `database unavailable (${database}): answered 503`);
    error = serviceUnavailable();
  }
  if (error instanceof GraphQLError && typeof error.extensions?.argument === 'string') {
    const field = route?.filters?.wireName(error.extensions.argument) ?? error.extensions.argument;
    const reason = String(error.extensions.reason);
    return new RestError(400, `${field}: ${reason}`, {}, [{ field, message: reason }]);
  }
  if (error instanceof GraphQLError) {
    const http = error.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
    // 503 (the database lost) and 507 (file storage full or read-only) name the service's condition, no internals.
    const told = http?.status && (http.status < 500 || http.status === 503 || http.status === 507);
    if (told) return new RestError(http.status!, error.message, http.headers ?? {});
  }
  // A masked execution error was logged with its cause and request id by the app's error handler already.
  const masked = error instanceof GraphQLError && error.extensions?.unexpected === true;
  // A client that hung up aborts its request's execution: no fault of the server's, and nobody reads the answer.
  if (request.signal.aborted) logger.debug({ err: error, requestId }, 'REST request ended: the client went away');
  else if (!masked) logger.error({ err: error, requestId }, 'REST request failed');
  return new RestError(500, `Internal server error (request id ${requestId})`);
}

/** The body of a failure in the negotiated format: `{error, issues?}`. */
function failureOutcome(error: RestError): RestOutcome {
  const body: Record<string, unknown> = { error: error.message };
  if (error.issues.length) body.issues = error.issues;
  return { status: error.status, body, headers: error.headers };
}

function renderFailure(error: RestError, format: WireFormat, Response: ResponseClass): Response {
  // Authentication failures answer in plain text, as the platform's OAuth layer does; clients only read the status.
  if (error.status === 401) {
    return new Response(error.message, {
      status: 401,
      headers: { ...error.headers, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return render(failureOutcome(error), format, Response);
}

const isRestPath = (url: URL) => url.pathname === '/v1' || url.pathname.startsWith('/v1/');

type FoundRoute = Extract<RouteMatch, { kind: 'route' }>;

/**
 * The /v1 REST facade as a yoga plugin: each route runs its GraphQL operation in-process through yoga's enveloped
 * execution, so authentication, rate limiting, masking and logging apply exactly as they do to /graphql.
 */
export function useRestFacade(options: RestFacadeOptions): Plugin {
  const match = createRouter(options.routes);
  // Plugins such as logging read the operation's text; printing each document once keeps that off the request path.
  const documentTexts = new Map(options.routes.map((route) => [route, print(route.document)]));
  let getEnveloped: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>['getEnveloped'];
  let Response: ResponseClass = globalThis.Response;

  /** The route matched, or the 404, 405 or 403 that answers instead (OPTIONS, answered by the caller, is a 405 here). */
  function routeOf(found: RouteMatch, method: string, pathname: string): FoundRoute {
    switch (found.kind) {
      case 'not-found':
        throw new RestError(404, `No endpoint at ${pathname}`);
      case 'options':
      case 'method-not-allowed':
        throw new RestError(405, `${method} is not allowed here`, { allow: found.allow.join(', ') });
      case 'realm-not-supported':
        throw new RestError(403, `This resource is not available in the ${found.realm.toLowerCase()} realm`);
    }
    for (const [name, { values }] of Object.entries(found.route.words ?? {})) {
      const value = found.params[name];
      if (!values.includes(value)) {
        const reason = `must be one of ${values.join(', ')}`;
        throw new RestError(400, `${name}: '${value}' ${reason}`, {}, [{ field: name, message: reason }]);
      }
    }
    return found;
  }

  /** Runs a matched route's operation through yoga's enveloped execution, and renders its result as the route says. */
  async function runRoute(
    request: Request,
    found: FoundRoute,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
    serverContext: Record<string, unknown>,
    link: LinkBuilder,
  ): Promise<RestOutcome> {
    const { route } = found;
    const restRequest = {
      path,
      params: found.params,
      realm: found.realm,
      query,
      filters: route.filters?.decode(Object.fromEntries(query)) ?? {},
      input: route.body?.decode(body) ?? {},
      page: parsePage(query, route.dayStart),
    };
    const variables = route.variables(restRequest);
    // The server's context spread last, after the literal's own properties (docs/adding-a-resource.md: young
    // garbage).
    const { validate, contextFactory, execute, schema } = getEnveloped({
      request,
      params: { query: documentTexts.get(route), variables },
      rawBody: route.rawBody ? { stream: request.body, declaredLength: declaredLength(request) } : undefined,
      ...serverContext,
    });
    const invalid = validate(schema, route.document);
    if (invalid.length) throw invalid[0];
    const result = await execute({
      schema,
      document: route.document,
      contextValue: await contextFactory(),
      variableValues: variables,
    });
    if (!('data' in result)) throw new Error('REST routes do not run subscriptions');
    if (result.errors?.length) throw result.errors[0];
    return route.respond(Object.values(result.data ?? {})[0] ?? null, restRequest, link);
  }

  /**
   * One path of a multiget, answered as its GET would be, failures included; under the multiget's credential, which
   * every item shares (`sharedCredential`), so that it is verified and its nonce recorded once; and within one budget
   * of long text (`sharedAnswerBudget`), since the paths make one answer.
   */
  function multigetItems(request: Request, serverContext: Record<string, unknown>, link: LinkBuilder): MultigetItems {
    const itemContext = {
      ...serverContext,
      sharedCredential: {} satisfies SharedCredential,
      sharedAnswerBudget: {} satisfies SharedAnswerBudget,
    };
    return async (path, query) => {
      let route: RestRoute | null = null;
      try {
        const found = routeOf(match('GET', path), 'GET', `/v1${path}`);
        route = found.route;
        const outcome = await runRoute(request, found, path, query, {}, itemContext, link);
        // No path a multiget may name serves a file; were one to, its bytes have no place in a JSON or XML answer.
        if (outcome.file) throw new RestError(400, 'A file cannot be fetched through multiget');
        return outcome;
      } catch (error) {
        const failed = failure(error, route, request, options.logger);
        // The credential is the call's, not an item's: a 401 answers the whole multiget.
        if (failed.status === 401) throw failed;
        return failureOutcome(failed);
      }
    };
  }

  async function handle(request: Request, url: URL, serverContext: Record<string, unknown>): Promise<Response> {
    const format = responseFormat(request.headers.get('accept'));
    const origin = options.linkOrigin(request, serverContext);
    const link: LinkBuilder = (path) => `${origin}/v1${path}`;
    // Without a trailing slash, so that links built from the path are canonical.
    const path = url.pathname.slice('/v1'.length).replace(/\/+$/, '') || '/';
    let route: RestRoute | null = null;
    try {
      if (path === multigetPath) {
        noteRestRoute(request, { method: 'POST', path: multigetPath });
        if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: multigetAllow } });
        if (request.method !== 'POST')
          throw new RestError(405, `${request.method} is not allowed here`, { allow: multigetAllow });
        const body = await decodeBody(request, multigetListPaths, options.bodyLimitBytes);
        const outcome = await runMultiget(body, request.signal, multigetItems(request, serverContext, link));
        return render(outcome, format, Response);
      }
      const matched = match(request.method, path);
      if (matched.kind === 'options')
        return new Response(null, { status: 204, headers: { allow: matched.allow.join(', ') } });
      const found = routeOf(matched, request.method, url.pathname);
      route = found.route;
      noteRestRoute(request, route);
      noteMatchedRoute(request, route, found.realm?.type ?? null);
      const body =
        route.body && !route.rawBody ? await decodeBody(request, route.body.listPaths, options.bodyLimitBytes) : {};
      const outcome = await runRoute(request, found, path, url.searchParams, body, serverContext, link);
      return outcome.file
        ? await serveFile(outcome.file, request, options.files())
        : render(outcome, format, Response, request);
    } catch (error) {
      // Failures keep Node's Response: the adapter's is written out at once, and a 413 sent before the rest of an
      // over-limit body is drained would end the connection the client keeps using (test/rest/chunked-body.test.ts).
      return renderFailure(failure(error, route, request, options.logger), format, globalThis.Response);
    } finally {
      // Raw bytes the operation did not read (refused before or while storing them) are drained, not cut off, so the
      // client reads the answer rather than a reset connection.
      if (route?.rawBody && request.body && !request.body.locked) discardRest(request.body.getReader());
    }
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as typeof getEnveloped;
      Response = yoga.fetchAPI.Response;
    },
    async onRequest({ request, url, endResponse, serverContext }) {
      if (!isRestPath(url)) return;
      endResponse(await handle(request, url, serverContext as Record<string, unknown>));
    },
    // Yoga's CORS plugin runs first and answers every OPTIONS request itself with a bare 204, so the facade's answer
    // (the Allow header, or 404 for an unknown path) replaces it here, keeping the CORS headers it set.
    async onResponse({ request, response, serverContext, setResponse }) {
      if (request.method !== 'OPTIONS') return;
      const url = new URL(request.url);
      if (!isRestPath(url)) return;
      const answer = await handle(request, url, serverContext as Record<string, unknown>);
      response.headers.forEach((value, name) => {
        if (!answer.headers.has(name) && name !== 'content-length') answer.headers.set(name, value);
      });
      setResponse(answer);
    },
  };
}
