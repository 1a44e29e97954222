import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { App } from '../app';
import type { StoppingServerContext } from './stopping';
import { ACCESS_REVOKED } from '../modules/subscriptions/event.stream';

export interface HttpServer {
  server: Server;
  /** Closes every WebSocket (`goingAwayClose`) and stops accepting them. */
  closeSockets(): Promise<void>;
  /**
   * Stops the server gracefully: it stops accepting connections and closes the idle ones at once; requests running
   * finish and their answers close their connections (`Connection: close`); a request that arrives on an open
   * connection later is answered 503 without being run; WebSockets are closed. Resolves once every connection is
   * closed, or after `graceMs` with the connections still open then cut (`cut` counts them).
   */
  stop(graceMs: number): Promise<{ cut: number }>;
}

export interface HttpServerOptions {
  /** The body limit: no WebSocket message may be larger (ws closes the socket with 1009). */
  bodyLimitBytes: number;
}

/** What a client may send before `connection_init` is answered: enough for any connection params, no more. */
export const bytesBeforeConnectionInit = 100 * 1024;
export const tooMuchBeforeConnectionInit = { code: 4413, reason: 'Too much data before connection_init' };
/** The close of every WebSocket when the server stops: graphql-ws clients reconnect after it. */
export const goingAwayClose = { code: 1001, reason: 'server shutting down' };
/** The close that ends a socket whose credential was revoked or expired while its subscriptions were open. */
export const accessRevokedClose = { code: CloseCode.Forbidden, reason: 'Forbidden: access revoked' };

const sizeOf = (data: RawData) =>
  Array.isArray(data)
    ? data.reduce((total, part) => total + part.length, 0)
    : data instanceof ArrayBuffer
      ? data.byteLength
      : data.length;

/**
 * Closes a socket that sends more than `bytesBeforeConnectionInit` before graphql-ws has its `connection_init`, so an
 * unauthenticated client cannot make the server hold and parse body-limit-sized messages. Registered before
 * graphql-ws's own listener, which therefore sees an oversized message only on a socket already closing.
 */
function limitBytesBeforeInit(sockets: WebSocketServer, initialised: WeakSet<WebSocket>) {
  sockets.on('connection', (socket) => {
    let received = 0;
    const count = (data: RawData) => {
      if (initialised.has(socket)) {
        socket.off('message', count);
        return;
      }
      received += sizeOf(data);
      if (received > bytesBeforeConnectionInit)
        socket.close(tooMuchBeforeConnectionInit.code, tooMuchBeforeConnectionInit.reason);
    };
    socket.on('message', count);
  });
}

/** A header's value from a plain object whose keys may have any case (`Authorization`, `authorization`). */
function headerIn(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === 'string' && value) return value;
  }
  return undefined;
}

/**
 * The credential of one subscribe message, from the first place that has one: the connection params (graphql-ws
 * clients), the message's `extensions.headers` (GraphiQL sends its headers tab there with an empty connection_init
 * payload), then the WebSocket upgrade request's own headers (clients outside a browser can set them; a browser never
 * adds a bearer token or OAuth signature to an upgrade by itself, so another site's page cannot borrow one).
 */
function credentialOf(
  connectionParams: unknown,
  extensions: Record<string, unknown> | null | undefined,
  upgradeHeaders: IncomingHttpHeaders,
): string | undefined {
  return (
    headerIn(connectionParams, 'authorization') ??
    headerIn(extensions?.headers, 'authorization') ??
    upgradeHeaders.authorization
  );
}

/**
 * Serves the app over HTTP, with graphql-ws on the GraphQL path. WebSocket operations run through yoga's enveloped
 * execution, so they authenticate and rate-limit like HTTP ones; the credential travels in the connection params
 * (`{ "Authorization": "Bearer ..." }`) because browsers cannot set headers on a WebSocket (see `credentialOf`).
 */
export function createHttpServer(app: App, options: HttpServerOptions): HttpServer {
  let stopping = false;
  // Responses not yet finished, so that those still running when the server stops can be told to close.
  const inFlight = new Set<ServerResponse>();
  function forget(this: ServerResponse) {
    inFlight.delete(this);
    // A response that had sent its headers before the stop (a server-sent event stream) left its connection open.
    if (stopping) server.closeIdleConnections();
  }
  const server = createServer((request, response) => {
    inFlight.add(response);
    response.on('close', forget);
    if (!stopping) {
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      if (app.oauth2.handles(pathname))
        return app.oauth2.handle(request, response, (server.address() as AddressInfo).port);
      return app(request, response);
    }
    response.setHeader('connection', 'close');
    const refused: StoppingServerContext = { arrivedWhileStopping: true };
    return app.handle(request, response, refused);
  });
  // Every TCP connection, WebSockets included: a stop closes those never used and, after the grace period, the rest.
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const sockets = new WebSocketServer({ server, path: app.graphqlEndpoint, maxPayload: options.bodyLimitBytes });
  const initialised = new WeakSet<WebSocket>();
  limitBytesBeforeInit(sockets, initialised);
  // Every operation of a socket runs with its connection params' credential: one revoked ends them all.
  const revoked = new WeakSet<object>();

  useServer(
    {
      onConnect: (context) => {
        initialised.add(context.extra.socket);
        // A socket closed for its first message's size gets no acknowledgement.
        return context.extra.socket.readyState === context.extra.socket.OPEN;
      },
      onNext: (context, _id, _payload, _args, result) => {
        if (result.errors?.some((error) => error.extensions?.code === ACCESS_REVOKED)) revoked.add(context);
      },
      // After the operation's last result went out: the client reads why before the socket closes.
      onComplete: (context) => {
        if (revoked.has(context)) context.extra.socket.close(accessRevokedClose.code, accessRevokedClose.reason);
      },
      execute: (args) => (args.rootValue as { execute: (args: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (args: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (context, _id, payload) => {
        const authorization = credentialOf(context.connectionParams, payload.extensions, context.extra.request.headers);
        const request = new Request(
          `http://${context.extra.request.headers.host ?? 'localhost'}${app.graphqlEndpoint}`,
          {
            headers: authorization ? { authorization } : {},
          },
        );
        const { schema, execute, subscribe, contextFactory, parse, validate } = app.getEnveloped({
          ...context,
          request,
          params: payload,
        });
        let contextValue;
        try {
          contextValue = await contextFactory();
        } catch (error) {
          // A bad credential or the rate limit: answer this operation with the error, keep the socket.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          // A syntax error, or a text that is not a trusted document: answered like a validation error.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const args = {
          schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    sockets,
  );

  const closeSockets = () =>
    new Promise<void>((resolve) => {
      for (const client of sockets.clients) client.close(goingAwayClose.code, goingAwayClose.reason);
      sockets.close(() => resolve());
    });

  return {
    server,
    closeSockets,
    async stop(graceMs) {
      stopping = true;
      // Stops accepting, and closes the keep-alive connections between requests. Node 20 would serve busy ones on,
      // answering `Connection: keep-alive`, until they happen to be idle, and it keeps connections that never sent a
      // byte (a client's spare) until their headers time out.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
      // Answers still running close their connection once sent; requests that arrive later are refused (above).
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      void closeSockets();
      let cut = 0;
      const grace = setTimeout(() => {
        cut = connections.size;
        for (const socket of connections) socket.destroy();
      }, graceMs);
      await closed;
      clearTimeout(grace);
      return { cut };
    },
  };
}
