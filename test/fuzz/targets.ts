/**
 * Fuzz targets, shared by the bounded run in the suite (test/fuzz/*.test.ts) and the long run (bench/fuzz.ts): one per
 * /v1 write route and body notation, from the route's wire schema, and one per GraphQL root field with arguments, from
 * the field's argument types. A target's property sends one generated request and fails on any 5xx, on a masked
 * GraphQL error, and (through the app the caller passes) on a /v1 answer outside its wire contract.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { type GraphQLField, type GraphQLSchema, getNamedType, isLeafType } from 'graphql';
import { realmPrefixes } from '../../src/rest/router';
import type { RestRoute } from '../../src/rest/route';
import {
  ExistingId,
  type JsonSpoiler,
  type ObjectKind,
  type XmlStyle,
  byteSpoiler,
  encodeBytes,
  encodeJson,
  encodeXml,
  existingId,
  graphqlInputArbitrary,
  jsonSpoiler,
  materialize,
  unknownIdText,
  wireBodyArbitrary,
  xmlStyle,
} from '../support/arbitraries';
import type { TestServer } from '../support/harness';
import { testOrigin } from '../support/wire';
import { type Actor, type Stage, type Stages, stageRealmTypes } from './stage';

/** What one fuzzed request did. */
interface Exchange {
  status: number;
  /** Why the answer is wrong, or null. */
  problem: string | null;
  /** The request as sent, for reports. */
  request: string;
}

/** Statuses seen, per target. */
export class Tally {
  readonly statuses = new Map<string, Map<number | 'threw', number>>();
  sent = 0;

  record(target: string, status: number | 'threw') {
    this.sent++;
    const histogram = this.statuses.get(target) ?? new Map();
    histogram.set(status, (histogram.get(status) ?? 0) + 1);
    this.statuses.set(target, histogram);
  }

  /** Requests of a target answered with a status in [from, to). */
  count(target: string, from: number, to: number): number {
    let total = 0;
    for (const [status, count] of this.statuses.get(target) ?? [])
      if (typeof status === 'number' && status >= from && status < to) total += count;
    return total;
  }
}

export interface FuzzTarget {
  name: string;
  property(stages: Stages, tally: Tally): fc.IAsyncPropertyWithHooks<[unknown]>;
}

function fuzzTarget<Sample>(
  name: string,
  arbitrary: fc.Arbitrary<Sample>,
  send: (stage: Stage, sample: Sample) => Promise<Exchange>,
): FuzzTarget {
  return {
    name,
    property: (stages, tally) =>
      fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, async (sample) => {
        let exchange: Exchange;
        try {
          exchange = await send(await stages.stage(), sample as Sample);
        } catch (error) {
          tally.record(name, 'threw');
          throw error;
        }
        tally.record(name, exchange.status);
        if (exchange.status === 401) stages.renew();
        if (exchange.problem) throw new Error(`${exchange.problem}\n--- request ---\n${exchange.request}`);
      }),
  };
}

const actor = fc.constantFrom<Actor>(
  'districtAdmin',
  'districtAdmin',
  'districtAdmin',
  'schoolAdmin',
  'schoolAdmin',
  'teacher',
  'teacher',
  'student',
  'outsider',
);

/** A body in a report: whole when short, its start and length otherwise. */
const excerpt = (text: string) =>
  text.length <= 2_000 ? text : `${text.slice(0, 2_000)}... (${text.length} characters)`;

const kindOfSegment: Record<string, ObjectKind> = {
  districts: 'district',
  schools: 'school',
  users: 'user',
  sections: 'section',
  courses: 'course',
  groups: 'group',
  posts: 'post',
  events: 'event',
  pages: 'page',
  page: 'page',
  invites: 'invite',
  friends: 'friendRequest',
  albums: 'album',
  album: 'album',
  content: 'content',
  comments: 'comment',
  comment: 'comment',
  upload: 'upload',
  targets: 'target',
  grading_categories: 'gradingcategory',
  enrollments: 'enrollment',
};
/** Kinds of which a stage holds one object per realm, in the order of its realms: a realm's path names its own. */
const perRealm = new Set<ObjectKind | 'any'>(['post', 'event', 'page', 'album', 'content', 'comment']);

const pathId = (kind: ObjectKind | 'any') =>
  fc.oneof(
    { weight: 8, arbitrary: existingId(kind, fc.constant(true)) },
    { weight: 1, arbitrary: existingId('any', fc.constant(true)) },
    { weight: 1, arbitrary: unknownIdText },
  );

/**
 * The path of a route with its `[realm]` and `{id}` segments filled: mostly an existing realm with an object in it
 * (a post of that realm), otherwise any realm prefix and ids of the kind the segment before names.
 */
function pathArbitrary(route: RestRoute): fc.Arbitrary<unknown[]> {
  const segments = route.path.split('/').slice(1);
  // A word segment: mostly a value the route takes, sometimes any text (a 400 naming the segment).
  const word = (segment: string) => {
    const name = /^\{(\w+):word\}$/.exec(segment)?.[1];
    if (!name) return null;
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...route.words![name]!.values) },
      { weight: 1, arbitrary: fc.string({ minLength: 1 }).map(encodeURIComponent) },
    );
  };
  // The kind of an id is named by the nearest word before it: `/invites/{realm:word}/{id}` is an invite's.
  const kindBefore = (index: number) => {
    const named = segments
      .slice(0, index)
      .reverse()
      .find((segment) => !segment.startsWith('{') && segment !== '[realm]');
    // A group's enrollments are its memberships.
    if (named === 'enrollments' && segments[0] === 'groups') return 'membership';
    return kindOfSegment[named ?? ''] ?? 'any';
  };
  // What is under a user is mostly the actor's own: their pending invites and requests are theirs alone to answer.
  const anchoredId = (index: number, realm: number) => {
    const kind = kindBefore(index);
    // What a realm owns is anchored in the realm of the path.
    if (perRealm.has(kind)) return fc.constant(new ExistingId(kind as ObjectKind, realm, true));
    if (kind === 'user')
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant(new ExistingId('self', 0, true)) },
        { weight: 1, arbitrary: pathId('user') },
      );
    return pathId(kind);
  };
  const prefixOf = (type: string) => Object.keys(realmPrefixes).find((prefix) => realmPrefixes[prefix] === type)!;
  // Anchored in a realm of the stage that the route serves (a `[realm]` route lists the realm types it supports).
  const servedRealms = stageRealmTypes.flatMap((type, index) =>
    !route.realms || route.realms.includes(type) ? [index] : [],
  );
  const anchored = fc.constantFrom(...servedRealms).chain((realm) =>
    fc.tuple(
      ...segments.map((segment, index) => {
        if (segment === '[realm]')
          return fc.constant([prefixOf(stageRealmTypes[realm]), new ExistingId('realm', realm, true)]);
        if (word(segment)) return word(segment)!;
        if (/^\{\w+\}$/.test(segment)) return anchoredId(index, realm);
        return fc.constant(segment);
      }),
    ),
  );
  const scattered = fc.tuple(
    ...segments.map((segment, index) => {
      if (segment === '[realm]') {
        return fc
          .constantFrom(...Object.keys(realmPrefixes))
          .chain((prefix) => pathId(kindOfSegment[prefix]!).map((id) => [prefix, id]));
      }
      if (/^\{\w+\}$/.test(segment)) return pathId(kindBefore(index));
      return word(segment) ?? fc.constant(segment);
    }),
  );
  return fc.oneof({ weight: 3, arbitrary: anchored }, { weight: 1, arbitrary: scattered });
}

const contentType = (usual: string, others: (string | null)[]) =>
  fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
const contentTypes = {
  json: contentType('application/json', [
    'application/json; charset=utf-8',
    null,
    'application/vnd.api+json',
    'application/json; charset=iso-8859-1',
    'text/plain',
  ]),
  xml: contentType('text/xml', ['application/xml', 'text/xml; charset=utf-16', null, 'application/atom+xml']),
};

const md5Hex = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/**
 * A route that takes raw bytes (`PUT /upload/{id}`): bytes of any Content-Type sent to a fresh upload, announced by the
 * same actor (mostly) or another, with the size and checksum announced right or wrong, or to an id that names none.
 */
function rawBodyTarget(route: RestRoute, server: TestServer): FuzzTarget {
  const sample = fc.record({
    actor,
    owner: fc.oneof({ weight: 4, arbitrary: fc.constant('same' as const) }, { weight: 1, arbitrary: actor }),
    bytes: fc.uint8Array({ maxLength: 4096 }),
    announced: fc.oneof(
      { weight: 4, arbitrary: fc.constant('exact' as const) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('one byte more' as const, 'one byte less' as const, 'other checksum' as const),
      },
    ),
    target: fc.oneof({ weight: 8, arbitrary: fc.constant('fresh' as const) }, { weight: 1, arbitrary: unknownIdText }),
    contentType: fc.constantFrom(
      null,
      'application/octet-stream',
      'image/png',
      'video/mp4',
      'application/json',
      'text/xml',
      'application/x-www-form-urlencoded',
    ),
    accept: fc.constantFrom('application/json', 'text/xml'),
  });
  return fuzzTarget(`${route.method} ${route.path} (bytes)`, sample, async (stage, request) => {
    let id: string = request.target;
    if (request.target === 'fresh') {
      const owner = request.owner === 'same' ? request.actor : request.owner;
      const filesize =
        request.bytes.length +
        (request.announced === 'one byte more' ? 1 : request.announced === 'one byte less' ? -1 : 0);
      const md5 =
        request.announced === 'other checksum' ? md5Hex(new Uint8Array([1, ...request.bytes])) : md5Hex(request.bytes);
      const created = await stage.rest[owner].post('/upload', {
        filename: 'fuzz.bin',
        filesize: Math.max(filesize, 0),
        md5_checksum: md5,
      });
      if (created.status !== 201)
        return {
          status: created.status,
          problem: `announcing answered ${created.status}: ${created.text}`,
          request: 'POST /upload',
        };
      id = String(created.json.id);
    }
    const url = new URL(`/v1/upload/${id}`, testOrigin).href;
    const headers: Record<string, string> = {
      authorization: stage.rest[request.actor].authorization('PUT', url),
      accept: request.accept,
    };
    if (request.contentType) headers['content-type'] = request.contentType;
    const response = await server.app.fetch(
      new Request(url, { method: 'PUT', headers, body: request.bytes as Uint8Array<ArrayBuffer> }),
    );
    const answer = await response.text();
    return {
      status: response.status,
      problem: response.status >= 500 ? `answered ${response.status}: ${excerpt(answer)}` : null,
      request: `PUT /upload/${id} as ${request.actor} (${request.target}, owner ${request.owner}, ${request.announced}), ${request.bytes.length} bytes of ${request.contentType}`,
    };
  });
}

/** One target per /v1 route with a body and per notation (JSON, XML), and one per route that takes raw bytes. */
export function restTargets(routes: readonly RestRoute[], schema: GraphQLSchema, server: TestServer): FuzzTarget[] {
  return [
    ...bodyTargets(routes, schema, server),
    ...routes.filter((route) => route.rawBody).map((route) => rawBodyTarget(route, server)),
  ];
}

function bodyTargets(routes: readonly RestRoute[], schema: GraphQLSchema, server: TestServer): FuzzTarget[] {
  return routes
    .filter((route) => route.body)
    .flatMap((route) =>
      (['json', 'xml'] as const).map((notation) => {
        const encoding: fc.Arbitrary<JsonSpoiler | XmlStyle> = notation === 'json' ? jsonSpoiler : xmlStyle;
        const sample = fc.record({
          actor,
          path: pathArbitrary(route),
          body: wireBodyArbitrary(route.body!.schema, schema),
          encoding,
          contentType: contentTypes[notation],
          accept: fc.constantFrom('application/json', 'text/xml'),
          bytes: byteSpoiler,
        });
        return fuzzTarget(`${route.method} ${route.path} (${notation})`, sample, async (stage, request) => {
          const resolve = (value: unknown) => materialize(value, (id) => stage.resolve(id, request.actor));
          const path = `/${(resolve(request.path) as unknown[]).flat().join('/')}`;
          const body = resolve(request.body);
          const text =
            notation === 'json'
              ? encodeJson(body, request.encoding as JsonSpoiler)
              : encodeXml(body, request.encoding as XmlStyle);
          const url = new URL(`/v1${path}`, testOrigin).href;
          const headers: Record<string, string> = {
            authorization: stage.rest[request.actor].authorization(route.method, url),
            accept: request.accept,
          };
          if (request.contentType) headers['content-type'] = request.contentType;
          const response = await server.app.fetch(
            new Request(url, { method: route.method, headers, body: encodeBytes(text, request.bytes) }),
          );
          const answer = await response.text();
          const description = `${route.method} ${path} as ${request.actor}, content-type ${request.contentType}, ${request.bytes}\n${excerpt(text)}`;
          return {
            status: response.status,
            problem: response.status >= 500 ? `answered ${response.status}: ${excerpt(answer)}` : null,
            request: description,
          };
        });
      }),
    );
}

/** `mutation($input: CreateGroupInput!) { createGroup(input: $input) { __typename } }` for a root field. */
function documentFor(operation: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${operation}(${variables}) { ${field.name}(${args})${selection} }`;
}

interface GraphQLAnswer {
  errors?: { message?: string; extensions?: { code?: string; unexpected?: boolean } }[];
}

/** An error yoga masked (an exception the resolvers did not expect), or one that says it is internal. */
function internalError(answer: GraphQLAnswer): string | null {
  const error = answer.errors?.find(
    (error) =>
      error.message === 'Unexpected error.' ||
      error.extensions?.code === 'INTERNAL_SERVER_ERROR' ||
      error.extensions?.unexpected === true,
  );
  return error ? JSON.stringify(error) : null;
}

/** One target per mutation, and per query field with arguments, sent with a bearer token. */
export function graphqlTargets(schema: GraphQLSchema, server: TestServer): FuzzTarget[] {
  const roots = [['mutation', schema.getMutationType()] as const, ['query', schema.getQueryType()] as const];
  return roots.flatMap(([operation, type]) =>
    Object.values(type?.getFields() ?? {})
      .filter((field) => operation === 'mutation' || field.args.length > 0)
      .map((field) => {
        const query = documentFor(operation, field);
        const sample = fc.record({
          actor,
          variables: fc.record(
            Object.fromEntries(field.args.map((arg) => [arg.name, graphqlInputArbitrary(arg.type, arg.name)])),
          ),
          accept: fc.constantFrom('application/json', 'application/graphql-response+json'),
        });
        return fuzzTarget(`${operation} ${field.name}`, sample, async (stage, request) => {
          const body = JSON.stringify({
            query,
            variables: materialize(request.variables, (id) => stage.resolve(id, request.actor)),
          });
          const response = await server.app.fetch(
            new Request(new URL('/graphql', testOrigin), {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: request.accept,
                authorization: `Bearer ${stage.tokens[request.actor]}`,
              },
              body,
            }),
          );
          const text = await response.text();
          let internal: string | null = null;
          try {
            internal = internalError(JSON.parse(text) as GraphQLAnswer);
          } catch {
            // Not JSON (a 413 from the body limit, say): only its status counts.
          }
          const problem =
            response.status >= 500
              ? `answered ${response.status}: ${excerpt(text)}`
              : internal
                ? `answered with an internal error: ${internal}`
                : null;
          return { status: response.status, problem, request: `as ${request.actor}\n${excerpt(body)}` };
        });
      }),
  );
}
