import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { type Plugin, createGraphQLError } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { breakerOf } from '../redis/breaker';

/** Apollo's `extensions.persistedQuery`, which Apollo Client's and urql's persisted-query links send. */
interface PersistedQueryExtension {
  version: number;
  sha256Hash: string;
}

function persistedQueryOf(extensions: unknown): PersistedQueryExtension | null {
  const persisted = (extensions as { persistedQuery?: Partial<PersistedQueryExtension> } | undefined)?.persistedQuery;
  return persisted &&
    typeof persisted === 'object' &&
    persisted.version === 1 &&
    typeof persisted.sha256Hash === 'string'
    ? (persisted as PersistedQueryExtension)
    : null;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Where registered queries are kept: shared through Redis when the deployment has it, else in this process. */
export interface PersistedQueryStore {
  get(hash: string): Promise<string | undefined>;
  set(hash: string, query: string): Promise<void>;
}

/** Registered queries one process keeps, least recently used dropped first. */
const storedQueryBytes = 16 * 1024 * 1024;
/** How long Redis keeps a registered query after its last registration. */
const redisTtlSeconds = 7 * 24 * 3600;

export function memoryQueryStore(maxBytes = storedQueryBytes): PersistedQueryStore {
  const queries = new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (query) => Math.max(1, Buffer.byteLength(query)),
  });
  return {
    get: async (hash) => queries.get(hash),
    set: async (hash, query) => {
      queries.set(hash, query);
    },
  };
}

/**
 * While Redis does not answer (src/redis/breaker.ts), a hash is not found and a registration is not kept: the
 * client sends the query along, which runs.
 */
export function redisQueryStore(redis: Redis): PersistedQueryStore {
  const key = (hash: string) => `lectern:apq:${hash}`;
  const breaker = breakerOf(redis);
  return {
    get: (hash) =>
      breaker
        .call((client) => client.get(key(hash)))
        .then(
          (query) => query ?? undefined,
          () => undefined,
        ),
    set: (hash, query) =>
      breaker
        .call((client) => client.set(key(hash), query, 'EX', redisTtlSeconds))
        .then(
          () => undefined,
          () => undefined,
        ),
  };
}

/**
 * Automatic persisted queries, Apollo's protocol: a client sends only `extensions.persistedQuery.sha256Hash`; an
 * unknown hash answers `PersistedQueryNotFound` (code PERSISTED_QUERY_NOT_FOUND), and the client sends the query again
 * with its hash, which registers it once the hash is checked. GET and POST alike, so a hash-only GET stays short.
 * (@graphql-yoga/plugin-apq peer-requires an older @graphql-tools/utils than yoga's.)
 */
export function useAutomaticPersistedQueries(store: PersistedQueryStore): Plugin {
  return {
    async onParams({ params, setParams }) {
      const persisted = persistedQueryOf(params.extensions);
      if (!persisted) return;
      if (params.query) {
        if (sha256Hex(params.query) !== persisted.sha256Hash.toLowerCase()) {
          throw createGraphQLError('provided sha does not match query', {
            extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } },
          });
        }
        await store.set(persisted.sha256Hash.toLowerCase(), params.query);
        return;
      }
      const query = await store.get(persisted.sha256Hash.toLowerCase());
      // Answered 200 like any GraphQL error, so that every client reads it and sends the query along.
      if (query === undefined)
        throw createGraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
      setParams({ ...params, query });
    },
  };
}

/**
 * A trusted document's id as the manifest and requests are compared by: without the `sha256:` prefix the
 * GraphQL-over-HTTP persisted-documents draft gives it (GraphQL Code Generator's client preset writes its keys so, and
 * clients send either form), in lower case.
 */
export const documentKey = (id: string) => id.replace(/^sha256:/i, '').toLowerCase();

/**
 * A trusted-documents manifest: Apollo's persisted-query manifest (`{ format: "apollo-persisted-query-manifest",
 * operations: [{ id, body, name, type }] }`) or a plain `{ "<id>": "<document>" }` map, as GraphQL Code Generator's
 * client preset writes it (`persisted-documents.json`, ids `sha256:<hex>`). The map is keyed by `documentKey`.
 */
export function readTrustedDocuments(path: string): Map<string, string> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`TRUSTED_DOCUMENTS: cannot read ${path}: ${(error as Error).message}`);
  }
  const documents = new Map<string, string>();
  const record = manifest as { format?: unknown; operations?: unknown };
  if (record && record.format === 'apollo-persisted-query-manifest') {
    if (!Array.isArray(record.operations)) throw new Error(`TRUSTED_DOCUMENTS: ${path} lists no operations`);
    for (const operation of record.operations as { id?: unknown; body?: unknown }[]) {
      if (typeof operation?.id !== 'string' || typeof operation.body !== 'string') {
        throw new Error(`TRUSTED_DOCUMENTS: every operation of ${path} needs a string id and body`);
      }
      documents.set(documentKey(operation.id), operation.body);
    }
  } else if (manifest && typeof manifest === 'object' && !Array.isArray(manifest)) {
    for (const [hash, body] of Object.entries(manifest)) {
      if (typeof body !== 'string')
        throw new Error(`TRUSTED_DOCUMENTS: ${path}: the document of ${hash} is not a string`);
      documents.set(documentKey(hash), body);
    }
  } else {
    throw new Error(
      `TRUSTED_DOCUMENTS: ${path} is neither an Apollo persisted-query manifest nor a { hash: document } map`,
    );
  }
  return documents;
}

/** The request parameter a persisted document is named by (GraphQL over HTTP), which yoga must let through. */
export const documentIdParameter = 'documentId';

/**
 * The id a request names its document by: `documentId` (GraphQL over HTTP persisted documents, in a POST body or as a
 * GET query parameter, which yoga's GET parser does not read) or Apollo's `extensions.persistedQuery.sha256Hash`.
 */
function requestedDocumentId(params: Record<string, unknown>, request: Request): string | null {
  const fromBody = params[documentIdParameter];
  if (typeof fromBody === 'string') return fromBody;
  if (request.method === 'GET') {
    const fromQuery = new URL(request.url).searchParams.get(documentIdParameter);
    if (fromQuery) return fromQuery;
  }
  return persistedQueryOf(params.extensions)?.sha256Hash ?? null;
}

/**
 * Trusted documents (TRUSTED_DOCUMENTS): /graphql runs only the listed operations, asked for by id, as `documentId` or
 * Apollo's `extensions.persistedQuery.sha256Hash`, each with or without the `sha256:` prefix
 * (@graphql-yoga/plugin-persisted-operations); a query sent as text is refused. Operations over graphql-ws, which skip
 * the HTTP parameters, pass only when their text is a listed document. The /v1 facade's own operations never go
 * through either and keep working. The app lets `documentIdParameter` through yoga's parameter check.
 */
export function useTrustedDocuments(documents: ReadonlyMap<string, string>): Plugin[] {
  const listed = new Set(documents.values());
  return [
    usePersistedOperations({
      extractPersistedOperationId: (params, request) =>
        requestedDocumentId(params as unknown as Record<string, unknown>, request),
      getPersistedOperation: (id) => documents.get(documentKey(id)) ?? null,
      allowArbitraryOperations: false,
      customErrors: {
        // Not PERSISTED_QUERY_NOT_FOUND: a client must not fall back to sending the text, which is refused too.
        notFound: {
          message: 'PersistedQueryNotFound',
          extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', http: { status: 400 } },
        },
        keyNotFound: {
          message: 'PersistedQueryKeyNotFound',
          extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
        },
        persistedQueryOnly: {
          message: 'PersistedQueryOnly',
          extensions: { code: 'CANNOT_SEND_PQ_ID_AND_BODY', http: { status: 400 } },
        },
      },
    }),
    {
      onParse({ params }) {
        const text = typeof params.source === 'string' ? params.source : params.source.body;
        if (!listed.has(text)) {
          throw createGraphQLError('PersistedQueryOnly', {
            extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', http: { status: 400 } },
          });
        }
      },
    },
  ];
}
