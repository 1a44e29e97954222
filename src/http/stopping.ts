import { httpError } from '../core/errors';

/**
 * What src/http/server.ts adds to the server context of a request that arrived on an open connection after the server
 * began to stop.
 */
export type StoppingServerContext = { arrivedWhileStopping?: true };

/**
 * The answer to such a request on /graphql and /v1, given before it is authenticated: it did not run, so any client
 * may send it again (on a new connection, which reaches another instance or this one restarted), whatever its method.
 */
export const refusedWhileStopping = () =>
  httpError(503, 'SERVER_STOPPING', 'The server is stopping and did not run this request: send it again', {
    'retry-after': '1',
  });
