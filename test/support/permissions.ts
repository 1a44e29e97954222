import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import type { RealmRef } from '../../src/auth/realms';
import { db } from '../../src/db/database';
import { announceCommit } from '../../src/outbox/bus';
import type { RealmType } from '../../src/generated/prisma/enums';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import type { RestRoute } from '../../src/rest/route';
import { realmPath } from '../../src/rest/router';
import type { Clients } from './client';
import { type World, watchDomainEvents } from './factories';
import type { TestServer } from './harness';

/**
 * The permission matrix (test/permissions/matrix.test.ts): every /v1 route and every root field, asked by a fixed cast,
 * each case declaring one outcome per person. A resource joins by adding its table in test/permissions/cases/.
 */

/** The cast, in the order of an expectation's letters: from farthest away to closest in. */
export const cast = [
  'outsider',
  'otherSchoolStudent',
  'student',
  'teacher',
  'parent',
  'schoolAdmin',
  'districtAdmin',
] as const;
export type Person = (typeof cast)[number];

type Awaitable<T> = T | Promise<T>;

/** What a case's callbacks see: the world of the cast, the table's own objects, and the server (for its key). */
export type Fixture<F> = World & F & { server: TestServer };

/** Who asks, in one request of a case. */
export interface Caller {
  person: Person;
  user: { id: number };
}

interface CaseBase<F> {
  /** What the case shows, after the route or root field in the test's name. */
  name: string;
  /**
   * One letter per person of the cast, in its order (spaces align the columns): `o` succeeds; `h` hidden: 404, a null
   * object, a NOT_FOUND userError, or absent from an answer that `finds` looks in; `f` forbidden: 403.
   */
  expect: string;
  /** For answers that succeed for everyone (lists, fields of an object): whether the answer shows what the case is about. */
  finds?: (answer: any, fixture: Fixture<F>) => boolean;
}

export interface RestCase<F> extends CaseBase<F> {
  /** A route of `restRoutes`, as `METHOD /path`: `GET /[realm]/posts/{id}`. */
  route: string;
  /** Path parameters, the realm of a `[realm]` route, query and JSON body. Called per request: it may create fresh objects. */
  request?: (fixture: Fixture<F>, caller: Caller) => Awaitable<RestCall>;
}

export interface RestCall {
  params?: Record<string, number | string>;
  realm?: RealmRef;
  query?: Record<string, string>;
  body?: unknown;
}

export interface GraphQLCase<F> extends CaseBase<F> {
  /**
   * A document with one root field (a Query, Mutation or Subscription field); select `${outcome}` on a mutation's
   * result. A subscription takes a `realm` variable, and succeeds when it receives an event published there.
   */
  graphql: string;
  /** Called per request: it may create fresh objects. */
  variables?: (fixture: Fixture<F>, caller: Caller) => Awaitable<Record<string, unknown>>;
}

export type PermissionCase<F> = RestCase<F> | GraphQLCase<F>;

/** The selection that tells a mutation's outcome: its payload's userErrors (none when it wrote). */
export const outcome = 'userErrors { code message }';

export interface CaseTable<F = any> {
  area: string;
  /** Creates the objects the table's cases share, once. */
  setup(world: World, server: TestServer): Promise<F>;
  cases: readonly PermissionCase<F>[];
}

const letters = (expectation: string) => expectation.replace(/\s+/g, '');

/** One area's cases; a malformed expectation fails when the table loads. */
export function permissionCases<F>(
  area: string,
  setup: (world: World, server: TestServer) => Promise<F>,
  cases: readonly PermissionCase<F>[],
): CaseTable<F> {
  for (const entry of cases) {
    if (!new RegExp(`^[ohf]{${cast.length}}$`).test(letters(entry.expect))) {
      throw new Error(
        `${area}: "${entry.name}" expects "${entry.expect}": one of o, h, f per person (${cast.join(', ')})`,
      );
    }
  }
  return { area, setup, cases };
}

export const routeKey = (route: Pick<RestRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** `Query.group`, `Mutation.createGroup`: the root fields a document selects. */
export function rootFieldsOf(document: string): string[] {
  const operation = parse(document).definitions.find(
    (node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION,
  )!;
  const type =
    operation.operation === 'mutation' ? 'Mutation' : operation.operation === 'subscription' ? 'Subscription' : 'Query';
  return operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD && selection.name.value !== '__typename' ? [`${type}.${selection.name.value}`] : [],
  );
}

export const caseTitle = (entry: PermissionCase<unknown>) =>
  'route' in entry ? `${entry.route}: ${entry.name}` : `${rootFieldsOf(entry.graphql).join(', ')}: ${entry.name}`;

/** The routes and root fields the tables declare cases for. */
export function coverage(tables: readonly CaseTable[]) {
  const cases = tables.flatMap((table) => table.cases);
  return {
    routes: new Set(cases.flatMap((entry) => ('route' in entry ? [entry.route] : []))),
    fields: new Set(cases.flatMap((entry) => ('graphql' in entry ? rootFieldsOf(entry.graphql) : []))),
  };
}

interface Seen {
  letter: string;
  /** What an unexpected answer was, for the failure message. */
  note?: string;
}

function restPath(route: string, call: RestCall) {
  const template = route.slice(route.indexOf(' ') + 1);
  const path = template
    .replace('/[realm]', () => (call.realm ? realmPath(call.realm.type, call.realm.id) : '/[realm]'))
    .replace(/\{(\w+)(?::word)?\}/g, (_match, name: string) => String(call.params?.[name] ?? `{${name}}`));
  return call.query ? `${path}?${new URLSearchParams(call.query)}` : path;
}

/** A request of a case, prepared (its fresh objects created) and ready to send: sending it tells the outcome. */
type Prepared = () => Promise<Seen>;

async function prepareRest<F>(
  entry: RestCase<F>,
  fixture: Fixture<F>,
  caller: Caller,
  clients: Clients,
): Promise<Prepared> {
  const call = (await entry.request?.(fixture, caller)) ?? {};
  const method = entry.route.slice(0, entry.route.indexOf(' '));
  const client = await clients.rest(caller.user);
  return async () => {
    const response = await client.request(method, restPath(entry.route, call), { body: call.body });
    if (response.status === 404) return { letter: 'h' };
    if (response.status === 403) return { letter: 'f' };
    if (response.status < 200 || response.status >= 400)
      return { letter: 'x', note: `${response.status} ${response.text.slice(0, 300)}` };
    return { letter: !entry.finds || entry.finds(response.json, fixture) ? 'o' : 'h' };
  };
}

/** The first `event: next` payload of a server-sent event stream, or null when the stream ends without one. */
async function firstEvent(response: Response): Promise<any> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
      for (let boundary; (boundary = buffer.indexOf('\n\n')) >= 0; buffer = buffer.slice(boundary + 2)) {
        const block = buffer.slice(0, boundary);
        const data = block.split('\n').find((line) => line.startsWith('data:'));
        if (data && block.startsWith('event: next')) return JSON.parse(data.slice(5));
      }
    }
  } finally {
    await reader.cancel();
  }
}

/**
 * A subscription over server-sent events: a refusal arrives as the stream's first event; an accepted subscription
 * starts listening (subscriptionActivity), and then receives an event published to its realm.
 */
async function prepareSubscription<F>(entry: GraphQLCase<F>, fixture: Fixture<F>, caller: Caller): Promise<Prepared> {
  const variables = (await entry.variables?.(fixture, caller)) ?? {};
  const { token } = await issueAccessToken({ userId: caller.user.id, name: 'permission matrix' });
  const realm = variables.realm as { type: RealmType; id: string };
  return async () => {
    const listening = new Promise<'listening'>((resolve) =>
      subscriptionActivity.once('listening', () => resolve('listening')),
    );
    const response = await fixture.server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: entry.graphql, variables }),
    });
    const first = firstEvent(response);
    if ((await Promise.race([listening, first.then(() => 'answered' as const)])) === 'listening') {
      const [event] = await db().$queryRaw<{ id: string; ancestors: string[] }[]>`
        INSERT INTO domain_events (type, "realmType", "realmId", "objectId", "districtId", ancestors)
        VALUES ('group.update', ${realm.type}::"RealmType", ${Number(realm.id)}, ${Number(realm.id)}, ${fixture.district.id},
                ARRAY[${`${realm.type}:${realm.id}`}])
        RETURNING id::text, ancestors`;
      announceCommit([event!]);
    }
    const event = await first;
    const error = event?.errors?.[0];
    if (!error) return event?.data ? { letter: 'o' } : { letter: 'x', note: 'the stream ended without an answer' };
    if (error.extensions?.code === 'NOT_FOUND') return { letter: 'h' };
    if (error.extensions?.code === 'FORBIDDEN') return { letter: 'f' };
    return { letter: 'x', note: `${error.extensions?.code}: ${error.message}` };
  };
}

async function prepareGraphQL<F>(
  entry: GraphQLCase<F>,
  fixture: Fixture<F>,
  caller: Caller,
  clients: Clients,
): Promise<Prepared> {
  if (rootFieldsOf(entry.graphql)[0]?.startsWith('Subscription.')) return prepareSubscription(entry, fixture, caller);
  const variables = (await entry.variables?.(fixture, caller)) ?? {};
  const client = await clients.graphql(caller.user);
  return async () => {
    const response = await client(entry.graphql, variables);
    const error = response.errors?.[0];
    if (error) {
      const refused = error.extensions?.code === 'FORBIDDEN' || error.extensions?.http?.status === 403;
      return refused ? { letter: 'f' } : { letter: 'x', note: `${error.extensions?.code}: ${error.message}` };
    }
    const answer = Object.values(response.data ?? {})[0] as { userErrors?: { code: string; message: string }[] } | null;
    const [userError] = answer?.userErrors ?? [];
    if (answer === null || userError?.code === 'NOT_FOUND') return { letter: 'h' };
    if (userError) return { letter: 'x', note: `${userError.code}: ${userError.message}` };
    return { letter: !entry.finds || entry.finds(answer, fixture) ? 'o' : 'h' };
  };
}

/**
 * One person's outcome. Every write records a domain event in its transaction, so a refused request that recorded one
 * wrote something: `w`.
 */
async function ask<F>(entry: PermissionCase<F>, fixture: Fixture<F>, caller: Caller, clients: Clients): Promise<Seen> {
  const send = await ('route' in entry
    ? prepareRest(entry, fixture, caller, clients)
    : prepareGraphQL(entry, fixture, caller, clients));
  const recorded = await watchDomainEvents();
  const seen = await send();
  if (seen.letter !== 'h' && seen.letter !== 'f') return seen;
  const events = await recorded();
  return events.length === 0
    ? seen
    : { letter: 'w', note: `refused (${seen.letter}), yet recorded ${events.map((event) => event[0]).join(', ')}` };
}

/**
 * Asks the case of each person of the cast in turn: the outcomes in the expectation's notation (`x` for an answer
 * that is none of them, `w` for a refusal that wrote), and notes on the unexpected ones.
 */
export async function runCase<F>(
  entry: PermissionCase<F>,
  fixture: Fixture<F>,
  people: Record<Person, { id: number }>,
  clients: Clients,
) {
  const seen: Seen[] = [];
  for (const person of cast) seen.push(await ask(entry, fixture, { person, user: people[person] }, clients));
  return {
    outcomes: seen.map((one) => one.letter).join(' '),
    notes: seen.flatMap((one, index) => (one.note ? [`${cast[index]}: ${one.note}`] : [])),
  };
}

/** An expectation as `runCase` reports outcomes: one letter per person, single spaces between. */
export const expected = (entry: PermissionCase<unknown>) => letters(entry.expect).split('').join(' ');
