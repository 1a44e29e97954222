/**
 * The OpenAPI 3.1 document of /v1, generated from the route table: one operation per route and concrete path (a
 * `[realm]` route once per allowed realm prefix), with the wire schemas the routes declare and the errors the facade
 * renders. Named wire schemas (`.meta({ id })`) become `components.schemas` and are referenced.
 */
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { RealmType } from '../generated/prisma/enums';
import type { RestRoute } from './route';
import { realmPrefixes } from './router';
import { oauth1Paths } from '../auth/oauth1-endpoints';
import { oauth2Paths } from '../oauth2/openapi';
import { maxMultigetPaths, multigetPath, multigetPaths, multigetRequestWire, multigetResponseWire } from './multiget';

export interface OpenApiOptions {
  /** Absolute base URL of /v1, such as `https://lectern.example.org/v1`. */
  serverUrl: string;
}

export type JsonSchema = Record<string, unknown>;
type Reference = { $ref: string };

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: (JsonSchema | Reference)[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema | Reference>;
}

export type OpenApiPathItem = Partial<Record<'get' | 'post' | 'put' | 'delete', OpenApiOperation>> & {
  /** For paths outside /v1 (the OAuth 2.0 endpoints): the server they are on. */
  servers?: { url: string; description?: string }[];
};

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
  security: Record<string, string[]>[];
}

export const apiTitle = 'Lectern /v1 REST API';

const description = `The classic learning-platform REST API, served by Lectern over the same operations as its GraphQL API.

**Authentication.** Sign every request with two-legged OAuth 1.0a (see the \`oauth1\` scheme), as platform client
libraries do, or send a bearer access token. A missing, bad or replayed credential answers 401 in plain text.

**Formats.** The response format is chosen by the \`Accept\` header only, a weighted list of \`application/json\` and
\`text/xml\` (or \`application/xml\`); no \`Accept\`, \`*/*\` or anything else gets JSON. XML has the root element
\`<result>\` and no attributes; a list repeats its element (\`<group>…</group><group>…</group>\`), and an empty value is
a self-closing element. Request bodies are \`application/json\` or \`text/xml\`/\`application/xml\` by \`Content-Type\`;
a form-encoded body answers 415.

**Paging.** Lists take \`start\` (offset, default 0) and \`limit\` (default 20, at most 200) and answer
\`{"<item>": [...], "total": N, "links": {"self": "...", "next": "..."}}\`. \`links.self\` always shows the effective
\`start\` and \`limit\`; \`links.next\` is present only while a further page exists, so clients loop until it is absent.

**Realms.** Realm-owned resources (blog posts, ...) hang under a realm prefix: \`/districts/{district_id}\`,
\`/schools/{school_id}\`, \`/users/{user_id}\`, \`/sections/{section_id}\` or \`/groups/{group_id}\`. A realm the resource does
not support answers 403. Ids in paths are numeric.

**Errors** are \`{"error": "...", "issues": [{"field": "...", "message": "..."}]}\` in the negotiated format, \`issues\`
naming the wire members at fault. A method a path does not declare answers 405 with an \`Allow\` header; \`OPTIONS\`
on any path answers with \`Allow\`. Too many requests answer 429 with \`Retry-After\`.`;

const oauthDescription = `Two-legged OAuth 1.0a (RFC 5849) in the \`Authorization\` header:
\`OAuth realm="...", oauth_consumer_key="...", oauth_token="", oauth_nonce="...", oauth_timestamp="...",
oauth_signature_method="HMAC-SHA1", oauth_version="1.0", oauth_signature="..."\`.

- Signature methods \`HMAC-SHA1\` and \`PLAINTEXT\` (the signature is \`consumer_secret&\`, also accepted as \`consumer_secret%26\`).
- The token is empty (or absent) and so is the token secret; any \`realm\` value, or none, is accepted.
- The HMAC-SHA1 base string covers the method, the URL without its query, the query parameters and the \`oauth_*\`
  parameters; JSON and XML bodies are **not** signed. Sign the URL you call (behind a proxy, the public URL).
- Every timestamp and nonce pair is accepted once, and timestamps must be within a few minutes of the server clock.
- The consumer acts as the user its key belongs to.

A fresh header is needed for every request, so paste one here only to try a single call; a bearer token is easier.`;

/** Schemas the facade renders itself; route schemas may not use these names. */
const errorSchema = {
  type: 'object',
  description: 'An error: a short message, and for invalid input the wire members at fault.',
  properties: {
    error: { type: 'string', description: 'What went wrong; a 500 names the request id to quote.' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          field: {
            type: 'string',
            description: 'The wire member or query parameter, such as `title` or `options/invite_type`.',
          },
          message: { type: 'string' },
        },
        required: ['field', 'message'],
      },
    },
  },
  required: ['error'],
} satisfies JsonSchema;

const schemaRef = (id: string): Reference => ({ $ref: `#/components/schemas/${id}` });
const asXml = (schema: JsonSchema | Reference, name: string) => ({ ...schema, xml: { name } });

/** A body in both notations; XML names the root `result` in answers. */
const wireContent = (schema: JsonSchema | Reference) => ({
  'application/json': { schema },
  'text/xml': { schema: asXml(schema, 'result') },
});

const errorResponse = (text: string, headers?: JsonSchema) => ({
  description: text,
  ...(headers ? { headers } : {}),
  content: wireContent(schemaRef('Error')),
});

const errorResponses = {
  BadRequest: errorResponse(
    "Invalid query parameter or body (`issues` names the members at fault), or an answer past the server's `RESPONSE_LIMIT` of long text: ask for a smaller `limit`.",
  ),
  Unauthorized: {
    description: 'Missing, invalid or replayed credentials. Plain text, as on the platform.',
    headers: { 'WWW-Authenticate': { description: 'The scheme to authenticate with.', schema: { type: 'string' } } },
    content: { 'text/plain': { schema: { type: 'string' } } },
  },
  NotModified: {
    description:
      'The answer is the one whose `ETag` the request named in `If-None-Match`: no body; use the copy you have.',
    headers: { ETag: { description: 'The entity tag of the unchanged answer.', schema: { type: 'string' } } },
  },
  Forbidden: errorResponse('The caller may not do this, or the resource is not available in this realm.'),
  NotFound: errorResponse('Unknown id, or an object the caller may not see.'),
  Conflict: errorResponse('The change conflicts with existing data, such as a title that must be unique.'),
  RangeNotSatisfiable: errorResponse('The `Range` asked for lies outside the file; `Content-Range` gives its size.'),
  PayloadTooLarge: errorResponse(
    "The request body exceeds the server's limit (`BODY_LIMIT`, or `UPLOAD_LIMIT` for an uploaded file).",
  ),
  UnsupportedMediaType: errorResponse('The body is neither JSON nor XML (form-encoded bodies are refused).'),
  TooManyRequests: errorResponse('Too many requests for this credential.', {
    'Retry-After': { description: 'Seconds to wait before the next request.', schema: { type: 'integer', minimum: 0 } },
  }),
  InternalError: errorResponse('An unexpected failure; the message names the request id, and internals stay hidden.'),
  InsufficientStorage: errorResponse(
    "The server's file storage is full or read-only (the message says which): nothing was stored.",
  ),
};

const pagingParameters = {
  start: {
    name: 'start',
    in: 'query',
    description: 'Offset of the first item.',
    schema: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, default: 0 },
  },
  limit: {
    name: 'limit',
    in: 'query',
    description: 'Items per page; larger values are reduced to 200.',
    schema: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
  },
};

const idSchema = { type: 'string', pattern: '^[0-9]+$' };

/** One concrete path of a route: the route's own, or one per realm prefix its `[realm]` allows. */
interface ConcretePath {
  path: string;
  realm: { prefix: string; type: RealmType; parameter: string } | null;
}

function concretePaths(route: RestRoute): ConcretePath[] {
  // `{realm:word}` is `{realm}` to OpenAPI.
  const template = route.path.replace(/:word\}/g, '}');
  if (!template.includes('[realm]')) return [{ path: template, realm: null }];
  return Object.entries(realmPrefixes)
    .filter(([, type]) => !route.realms || route.realms.includes(type))
    .map(([prefix, type]) => {
      // `groups` -> `group_id`: every realm prefix is a plain plural.
      const parameter = `${prefix.replace(/s$/, '')}_id`;
      return { path: template.replace('[realm]', `${prefix}/{${parameter}}`), realm: { prefix, type, parameter } };
    });
}

/** `GET /groups/{group_id}/posts/{id}` -> `get_groups_group_id_posts_id`. */
const operationIdOf = (method: string, path: string) =>
  [
    method.toLowerCase(),
    ...path
      .split('/')
      .filter(Boolean)
      .map((segment) => segment.replace(/[{}]/g, '').replace(/\W+/g, '_')),
  ].join('_');

/** The resource a route serves: the segment after a realm prefix, or the first segment. */
const tagOf = (route: RestRoute) =>
  route.path.split('/').filter((segment) => segment && segment !== '[realm]')[0] ?? 'root';

/** Templates that differ only in parameter names are the same path to OpenAPI, and must not both appear. */
const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

const anonymous = '__route_';

/**
 * Converts every schema the routes declare in one pass, so that named schemas (`.meta({ id })`) are emitted once as
 * components and referenced wherever they occur, also inside anonymous ones (paging envelopes, bodies), which are
 * inlined where they are used.
 */
function convertSchemas(routes: readonly RestRoute[]) {
  const registry = z.registry<{ id: string }>();
  let count = 0;
  const register = (schema: z.ZodType) => {
    if (!registry.has(schema))
      registry.add(schema, { id: z.globalRegistry.get(schema)?.id ?? `${anonymous}${count++}` });
    return registry.get(schema)!.id;
  };
  const ids = new Map<z.ZodType, string>();
  for (const route of routes) {
    for (const schema of [...Object.values(route.responses), route.body?.schema, route.filters?.schema]) {
      if (schema) ids.set(schema, register(schema));
    }
  }
  const uri = (id: string) => `#/components/schemas/${id}`;
  const { schemas: converted } = z.toJSONSchema(registry, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri,
  });
  // Named schemas met only inside others land in a shared `$defs`.
  const { __shared: shared, ...emitted } = converted as Record<string, JsonSchema>;
  const all: Record<string, JsonSchema> = { ...((shared?.$defs as Record<string, JsonSchema>) ?? {}), ...emitted };

  const anonymousSchemas = new Map<string, JsonSchema>();
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(all)) {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    if (id.startsWith(anonymous)) anonymousSchemas.set(id, rest);
    else components[id] = rest;
  }
  // Refs into the shared `$defs` become component refs; a ref to an anonymous schema is replaced by the schema.
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as Reference).$ref;
    if (typeof ref === 'string') {
      const target = /^#\/components\/schemas\/(?:__shared#\/\$defs\/)?(.+)$/.exec(ref)?.[1];
      if (target?.startsWith(anonymous)) return resolve(anonymousSchemas.get(target));
      if (target) return { ...node, $ref: uri(target) };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
  };
  for (const [id, schema] of Object.entries(components)) components[id] = resolve(schema) as JsonSchema;

  return {
    components,
    /** The schema to place in an operation: a reference for a named one, the schema itself otherwise. */
    use(schema: z.ZodType): JsonSchema | Reference {
      const id = ids.get(schema)!;
      return id.startsWith(anonymous) ? (resolve(anonymousSchemas.get(id)) as JsonSchema) : schemaRef(id);
    },
  };
}

const bodyDescription = (route: RestRoute) =>
  [
    'JSON, or XML (`text/xml` or `application/xml`) with the member names as element names under any root element',
    '(`<body>` is usual); a list repeats its element, also for a single item. Members not listed are ignored.',
    route.body?.required.length ? `Required: ${route.body.required.map((member) => `\`${member}\``).join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');

function successResponse(status: number, schema: JsonSchema | Reference | null) {
  if (status === 303) {
    return {
      description: 'See Other: the object is at `Location`.',
      headers: { Location: { description: 'Absolute URL of the object.', schema: { type: 'string', format: 'uri' } } },
    };
  }
  if (schema === null) return { description: status === 204 ? 'Done; no content.' : 'No content.' };
  return { description: status === 201 ? 'Created.' : 'OK.', content: wireContent(schema) };
}

/** The bytes of a stored file, whole (200) or the one `Range` asked for (206). */
function fileResponse(status: number) {
  return {
    description:
      status === 206
        ? 'Partial content: the range asked for, with `Content-Range`.'
        : 'The file, with its media type and length.',
    headers: {
      'Content-Length': { description: 'Bytes in this answer.', schema: { type: 'integer' } },
      'Accept-Ranges': { description: '`bytes`: a `Range` header is honoured.', schema: { type: 'string' } },
      ...(status === 206
        ? { 'Content-Range': { description: '`bytes start-end/size`.', schema: { type: 'string' } } }
        : {}),
    },
    content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
  };
}

/** A wire schema of its own, outside the route table's components. */
function standalone(schema: z.ZodType): JsonSchema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  return rest as JsonSchema;
}

/** `POST /multiget`, which runs no GraphQL operation of its own and so is not in the route table. */
function multigetOperation(): OpenApiOperation {
  const error = (name: keyof typeof errorResponses) => ({ $ref: `#/components/responses/${name}` });
  const request = schemaRef('MultigetRequest');
  return {
    operationId: 'post_multiget',
    summary: `Make up to ${maxMultigetPaths} GET requests in one call`,
    description: [
      `Each path is answered, in order, as its own GET would be: the same credential, limits and rate limit (${maxMultigetPaths}`,
      'paths cost what as many GETs cost). A path may start with `/v1` or not, or be an absolute URL such as a',
      "`links.next`, with its query string. A path not on the platform's list is that item's 400, a path this server",
      'has no route for its 404, and more than',
      `${maxMultigetPaths} paths the whole call's 400. Paths a multiget may name: ${multigetPaths.map((path) => `\`${path}\``).join(', ')}.`,
    ].join(' '),
    tags: ['multiget'],
    requestBody: {
      description:
        'JSON `{"request": ["/v1/users/5", ...]}`, or XML `<requests><request>/v1/users/5</request>...</requests>`.',
      required: true,
      content: {
        'application/json': { schema: request },
        'text/xml': { schema: asXml(request, 'requests') },
      },
    },
    responses: {
      '207': {
        description:
          "Multi-Status: one item per path, in order, each with its `response_code` and `body` in the call's format (in XML, `<response>` repeated under `<result>`).",
        content: wireContent(schemaRef('MultigetResponse')),
      },
      '400': error('BadRequest'),
      '401': error('Unauthorized'),
      '413': error('PayloadTooLarge'),
      '415': error('UnsupportedMediaType'),
      '429': error('TooManyRequests'),
      '500': error('InternalError'),
    },
  };
}

export function openApiDocument(routes: readonly RestRoute[], options: OpenApiOptions): OpenApiDocument {
  const schemas = convertSchemas(routes);
  for (const id of ['Error', 'MultigetRequest', 'MultigetResponse']) {
    if (schemas.components[id]) throw new Error(`A route schema uses the reserved component name ${id}`);
  }
  const paths: Record<string, OpenApiPathItem> = {};
  const shapes = new Map<string, string>();
  const operationIds = new Set<string>();
  const tags = new Map<string, Set<string>>();

  for (const route of routes) {
    const tag = tagOf(route);
    if (!tags.has(tag)) tags.set(tag, new Set());
    for (const { path, realm } of concretePaths(route)) {
      const shape = pathShape(path);
      if ((shapes.get(shape) ?? path) !== path)
        throw new Error(`${path} and ${shapes.get(shape)} are the same OpenAPI path`);
      shapes.set(shape, path);
      const operationId = operationIdOf(route.method, path);
      if (operationIds.has(operationId)) throw new Error(`Two operations would be named ${operationId}`);
      operationIds.add(operationId);
      if (realm) tags.get(tag)!.add(realm.prefix);

      const parameters: (JsonSchema | Reference)[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
        const word = route.words?.[name];
        if (word)
          return {
            name,
            in: 'path',
            required: true,
            description: word.description,
            schema: { type: 'string', enum: [...word.values] },
          };
        // A word segment without listed values is free text: a school user id (`/users/ext/{schoolUid}`).
        if (route.path.includes(`{${name}:word}`))
          return {
            name,
            in: 'path',
            required: true,
            description: 'Text, percent-encoded.',
            schema: { type: 'string' },
          };
        const description =
          realm?.parameter === name ? `Id of the ${realm.type.toLowerCase()} (the realm).` : 'Numeric id.';
        return { name, in: 'path', required: true, description, schema: idSchema };
      });
      if (route.filters) {
        const { properties = {} } = schemas.use(route.filters.schema) as { properties?: Record<string, JsonSchema> };
        for (const [name, schema] of Object.entries(properties)) {
          parameters.push({ name, in: 'query', required: route.filters.required.includes(name), schema });
        }
      }
      // A route whose `start` is its first day declares that parameter among its filters.
      if (route.paged)
        parameters.push(...(route.dayStart ? [] : [{ $ref: '#/components/parameters/start' }]), {
          $ref: '#/components/parameters/limit',
        });

      const responses: Record<string, JsonSchema | Reference> = {};
      for (const [status, schema] of Object.entries(route.responses)) {
        responses[status] = route.servesFile
          ? fileResponse(Number(status))
          : successResponse(Number(status), schema ? schemas.use(schema) : null);
      }
      const error = (name: keyof typeof errorResponses) => ({ $ref: `#/components/responses/${name}` });
      // JSON and XML answers to GET carry an ETag (src/http/etag.ts); files keep their own headers.
      if (route.method === 'GET' && !route.servesFile) responses['304'] = error('NotModified');
      const hasInput = route.body || route.rawBody || route.filters || route.paged;
      if (hasInput) responses['400'] = error('BadRequest');
      responses['401'] = error('Unauthorized');
      responses['403'] = error('Forbidden');
      if (path.includes('{')) responses['404'] = error('NotFound');
      if (route.servesFile) responses['416'] = error('RangeNotSatisfiable');
      if (route.rawBody) {
        responses['409'] = error('Conflict');
        responses['413'] = error('PayloadTooLarge');
        responses['507'] = error('InsufficientStorage');
      }
      if (route.body) {
        responses['409'] = error('Conflict');
        responses['413'] = error('PayloadTooLarge');
        responses['415'] = error('UnsupportedMediaType');
      }
      responses['429'] = error('TooManyRequests');
      responses['500'] = error('InternalError');

      const operation: OpenApiOperation = {
        operationId,
        summary: route.summary,
        ...(realm
          ? { description: `In the ${realm.type.toLowerCase()} realm (\`/${realm.prefix}/{${realm.parameter}}\`).` }
          : {}),
        tags: [tag],
        ...(parameters.length ? { parameters } : {}),
        ...(route.body
          ? {
              requestBody: {
                description: bodyDescription(route),
                required: route.body.required.length > 0,
                content: {
                  'application/json': { schema: schemas.use(route.body.schema) },
                  'text/xml': { schema: asXml(schemas.use(route.body.schema), 'body') },
                },
              },
            }
          : route.rawBody
            ? {
                requestBody: {
                  description:
                    "The file's raw bytes, in any Content-Type; checked against the announced size and MD5 checksum.",
                  required: true,
                  content: {
                    'application/octet-stream': {
                      schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                    },
                  },
                },
              }
            : {}),
        responses,
      };
      (paths[path] ??= {})[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'] = operation;
    }
  }

  paths[multigetPath] = { post: multigetOperation() };
  tags.set('multiget', new Set());
  Object.assign(paths, oauth1Paths());
  tags.set('oauth', new Set());
  Object.assign(paths, oauth2Paths(options.serverUrl.replace(/\/v1\/?$/, '')));
  tags.set('oauth2', new Set());

  return {
    openapi: '3.1.0',
    info: { title: apiTitle, version: packageJson.version, description },
    servers: [{ url: options.serverUrl }],
    tags: [...tags].map(([name, prefixes]) => ({
      name,
      ...(prefixes.size
        ? {
            description: `Under the realm prefixes ${[...prefixes].map((prefix) => `\`/${prefix}/{id}\``).join(', ')}.`,
          }
        : {}),
    })),
    paths,
    components: {
      schemas: {
        ...schemas.components,
        Error: errorSchema,
        MultigetRequest: standalone(multigetRequestWire),
        MultigetResponse: standalone(multigetResponseWire),
      },
      parameters: pagingParameters,
      responses: errorResponses,
      securitySchemes: {
        oauth1: { type: 'apiKey', in: 'header', name: 'Authorization', description: oauthDescription },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token (`npx lectern create-access-token --user <id>`), as for GraphQL.',
        },
      },
    },
    security: [{ oauth1: [] }, { bearer: [] }],
  };
}
