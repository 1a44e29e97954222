import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

interface HttpExtension {
  status?: number;
}

const statusOf = (error: unknown) =>
  ((error as GraphQLError | undefined)?.extensions?.http as HttpExtension | undefined)?.status;

/** The error without its HTTP status, which must not decide the status of an answer that carries data. */
function withoutStatus(error: GraphQLError): GraphQLError {
  const { http, ...extensions } = error.extensions;
  const { status: _status, ...rest } = (http ?? {}) as HttpExtension & Record<string, unknown>;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: Object.keys(rest).length ? { ...extensions, http: rest } : extensions,
  });
}

/**
 * Shows `extensions.http.status` on every GraphQL error that set the response's HTTP status (401, 403, 400, 413, 429,
 * ...), so a client that only reads the body (graphql-ws, a logged result) still sees it. Yoga drops `extensions.http`
 * while serialising, headers included; the statuses are therefore noted before and written back into the body of
 * responses that are not 200. A 200 answer carries none: a validation error under `application/json`, whose status the
 * GraphQL-over-HTTP spec keeps at 200, did not set it.
 *
 * A result with data (some fields failed, the others answered) is answered 200 under either media type, as the
 * GraphQL-over-HTTP spec asks: a 403 from one field would tell a client that nothing happened, while its other fields
 * did (a mutation's committed). Its errors keep `extensions.code`; only a result whose data is null, or an error before
 * execution, sets the status from its errors.
 */
export function useHttpStatusInErrors(): Plugin {
  const statusesByRequest = new WeakMap<Request, (number | undefined)[]>();
  return {
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length) return;
      if (result.data != null) {
        if (result.errors.some((error) => statusOf(error))) {
          setResult({
            ...result,
            errors: result.errors.map((error) => (statusOf(error) ? withoutStatus(error) : error)),
          });
        }
        return;
      }
      const statuses = result.errors.map(statusOf);
      if (statuses.some(Boolean)) statusesByRequest.set(request, statuses);
    },
    async onResponse({ request, response, setResponse }) {
      const statuses = statusesByRequest.get(request);
      if (!statuses || response.status === 200 || !response.headers.get('content-type')?.includes('json')) return;
      // Error bodies are small: rewritten only on this path, never on a successful answer.
      const body = (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
      body.errors?.forEach((error, index) => {
        const status = statuses[index];
        if (status) error.extensions = { ...error.extensions, http: { status } };
      });
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      setResponse(
        new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers }),
      );
    },
  };
}
