import { createServer, type Server } from 'node:http';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { App } from './app';

/**
 * Serves the app over HTTP, with graphql-ws on the GraphQL path. WebSocket operations run through yoga's enveloped
 * execution, so they authenticate and rate-limit like HTTP ones; the credential travels in the connection params
 * (`{ "Authorization": "Bearer ..." }`) because browsers cannot set headers on a WebSocket.
 */
export function createHttpServer(app: App): { server: Server; closeSockets(): Promise<void> } {
  const server = createServer(app);
  const sockets = new WebSocketServer({ server, path: app.graphqlEndpoint });

  useServer(
    {
      execute: (args) => (args.rootValue as { execute: (args: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (args: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (context, _id, payload) => {
        const params = (context.connectionParams ?? {}) as Record<string, unknown>;
        const authorization = params.Authorization ?? params.authorization;
        const request = new Request(`http://${context.extra.request.headers.host ?? 'localhost'}${app.graphqlEndpoint}`, {
          headers: typeof authorization === 'string' ? { authorization } : {},
        });
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
        const args = {
          schema,
          operationName: payload.operationName,
          document: parse(payload.query),
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

  return {
    server,
    closeSockets: () =>
      new Promise((resolve) => {
        for (const client of sockets.clients) client.close(1001, 'server shutting down');
        sockets.close(() => resolve());
      }),
  };
}
