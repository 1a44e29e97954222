import { getEventListeners } from 'node:events';
import {
  type GraphQLInputType,
  type VariableDefinitionNode,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
} from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { db } from '../../src/db/database';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { encodeGlobalId } from '../../src/core/global-id';
import { useExecutionBounds } from '../../src/graphql/execution-bounds';
import { queryCostOf, queryLimits, useQueryLimits } from '../../src/graphql/limits';
import { schema } from '../../src/graphql/schema';
import { createLogger } from '../../src/http/logging';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { restRoutes } from '../../src/rest/routes';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);
let world: World;
let graphql: GraphQLClient;

beforeAll(async () => {
  world = await createWorld();
  graphql = await clients.graphql(world.districtAdmin);
});

/** POST /graphql without any credential: the limits apply before authentication. */
async function anonymous(query: string) {
  const response = await server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: any }[] },
  };
}

const codeOf = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;

describe('document limits, before parsing finishes', () => {
  it.each([
    ['a selection nested 4,000 deep', `{ ${'school(id: 1) { '.repeat(4000)}id${' }'.repeat(4000)} }`],
    ['a list literal nested 5,000 deep', `{ groups(schoolId: ${'['.repeat(5000)}${']'.repeat(5000)}) { total } }`],
  ])('%s is a 400 naming the limit, not a stack overflow', async (_name, query) => {
    const { status, body } = await anonymous(query);
    expect(status).toBe(400);
    expect(codeOf(body)).toBe('QUERY_TOO_DEEP');
    expect(body.errors?.[0]?.message).toContain(String(queryLimits.nesting));
  });

  it('refuses a document of more tokens than the limit', async () => {
    const query = `{ ${Array.from({ length: queryLimits.tokens }, () => '__typename').join(' ')} }`;
    const { status, body } = await anonymous(query);
    expect(status).toBe(400);
    expect(codeOf(body)).toBe('QUERY_TOO_LARGE');
    expect(body.errors?.[0]?.message).toContain('5000 tokens');
  });

  it("refuses the issue's 1,000-alias query by its size alone, without touching the database", async () => {
    const aliases = Array.from(
      { length: 1000 },
      (_, index) =>
        `a${index}: groups(limit: 200) { items { id title members { user { id username role school { id title } } } } }`,
    );
    const statementsBefore = server.database.statementCount;
    const response = await graphql(`{ ${aliases.join(' ')} }`);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_LARGE');
    // Only the credential lookup: nothing of the query ran.
    expect(server.database.statementCount - statementsBefore).toBeLessThanOrEqual(3);
  });
});

describe('validation limits', () => {
  it('refuses 64 nested parent levels with a 400, before the database is asked', async () => {
    const query = `{ school(id: ${world.building.id}) { ${'parent { '.repeat(64)}id${' }'.repeat(64)} } }`;
    const response = await graphql(query);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_DEEP');
  });

  it('refuses a selection deeper than the depth limit with a 400 naming it', async () => {
    const query = `{ school(id: ${world.building.id}) { ${'parent { '.repeat(20)}id${' }'.repeat(20)} } }`;
    const response = await graphql(query);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringContaining(`depth limit of ${queryLimits.depth}`),
      extensions: { code: 'QUERY_TOO_DEEP' },
    });
  });

  it('allows a query at the depth limit', async () => {
    const levels = queryLimits.depth - 1;
    const response = await graphql(
      `{ school(id: ${world.building.id}) { ${'parent { '.repeat(levels - 1)}id${' }'.repeat(levels - 1)} } }`,
    );
    expect(response.errors).toBeUndefined();
    expect(response.status).toBe(200);
  });

  it('refuses more aliases than the limit', async () => {
    const fields = Array.from({ length: queryLimits.aliases + 1 }, (_, index) => `a${index}: viewer { id }`);
    const response = await graphql(`{ ${fields.join(' ')} }`);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringContaining(`Aliases limit of ${queryLimits.aliases}`),
      extensions: { code: 'TOO_MANY_ALIASES' },
    });
  });

  it('refuses more directives than the limit', async () => {
    const response = await graphql(
      `{ viewer { id: databaseId ${'@include(if: true) '.repeat(queryLimits.directives + 1)} } }`,
    );
    expect(response.status).toBe(400);
    expect(response.errors?.[0]?.extensions?.code).toBe('TOO_MANY_DIRECTIVES');
  });

  it("passes GraphiQL's introspection query, which costs well under the limit", async () => {
    const { status, body } = await anonymous(getIntrospectionQuery());
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it('refuses nested introspection, which multiplies like data', async () => {
    // graphql-js allows fields within fields once; aliases multiply what remains.
    const nested = `{ ${['a', 'b', 'c'].map((alias) => `${alias}: __schema { types { fields { type { fields { args { name } } } } } }`).join(' ')} }`;
    const { status, body } = await anonymous(nested);
    expect(status).toBe(400);
    expect(codeOf(body)).toBe('QUERY_TOO_COSTLY');
  });
});

describe('the cost model', () => {
  const membersOfGroups = (limit: string) =>
    `query${limit.startsWith('$') ? '($limit: Int)' : ''} { groups(limit: ${limit}) { items { members { user { school { id } } } } } }`;

  it('multiplies list sizes: a page of 200 groups with their members is over the limit', async () => {
    const statementsBefore = server.database.statementCount;
    const response = await graphql(membersOfGroups('200'));
    expect(response.status).toBe(400);
    // 1 + 200 × (1 + 100 members × 3 objects each)
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringContaining('may cost 60201'),
      extensions: { code: 'QUERY_TOO_COSTLY' },
    });
    expect(server.database.statementCount - statementsBefore).toBeLessThanOrEqual(3);
  });

  it('reads the limit from variables and defaults it to 20', async () => {
    await createGroup(world.school.id, { members: [world.student.id] });
    expect((await graphql(membersOfGroups('$limit'), { limit: 40 })).status).toBe(400);
    // The same document with a smaller page passes: the cost is not cached with the document's validation.
    expect((await graphql(membersOfGroups('$limit'), { limit: 20 })).status).toBe(200);
    // Costs are remembered per document and variables: each page size keeps its own answer, asked again in any order.
    expect((await graphql(membersOfGroups('$limit'), { limit: 40 })).status).toBe(400);
    expect((await graphql(membersOfGroups('$limit'), { limit: 20 })).status).toBe(200);
    expect((await graphql(membersOfGroups('$limit'), { limit: 40 })).status).toBe(400);
    const byDefault = await graphql('{ groups { items { members { user { school { id: databaseId } } } } } }');
    expect(byDefault.errors).toBeUndefined();
    expect(byDefault.status).toBe(200);
  });

  /** A request as a district administrator that reports its cost (`X-Lectern-Cost: 1`). */
  async function costed(query: string, variables: Record<string, unknown>) {
    const { token } = await issueAccessToken({ userId: world.districtAdmin.id, name: 'costs' });
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-lectern-cost': '1' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as {
      errors?: { message: string; extensions?: { code?: string } }[];
      extensions?: { cost?: { requestedQueryCost: number } };
    };
    return { status: response.status, cost: body.extensions?.cost?.requestedQueryCost, error: body.errors?.[0] };
  }

  it('computes a cost once for the variables it depends on, whatever the others', async () => {
    const schema = createSchema({
      typeDefs: 'type Query { item(id: ID!): Item items(limit: Int): [Item] } type Item { id: ID }',
      resolvers: { Query: { item: (_: unknown, { id }: { id: string }) => ({ id }), items: () => [] } },
    });
    // The cost model reads every object field's arguments each time it prices a document: counted here.
    const item = schema.getQueryType()!.getFields().item!;
    const itemArguments = item.args;
    let pricings = 0;
    Object.defineProperty(item, 'args', {
      get: () => {
        pricings++;
        return itemArguments;
      },
    });
    const yoga = createYoga({ schema, plugins: [useQueryLimits()], logging: false });
    const query = 'query One($id: ID!, $limit: Int) { item(id: $id) { id } items(limit: $limit) { id } }';
    // What one request reads of them: execution reads them too, pricing only for a cost not known yet.
    const readsOf = async (variables: Record<string, unknown>) => {
      const before = pricings;
      const response = await yoga.fetch('http://lectern.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      expect(response.status).toBe(200);
      return pricings - before;
    };
    await readsOf({ id: '1', limit: 5 });
    const executionOnly = await readsOf({ id: '2', limit: 5 });
    const priced = await readsOf({ id: '3', limit: 6 });
    expect(priced).toBeGreaterThan(executionOnly);
    expect(await readsOf({ id: '4', limit: 6 })).toBe(executionOnly);
    // Left out (the default page of 20) is not the same as any value given.
    expect(await readsOf({ id: '5' })).toBe(priced);
  });

  it('prices again when the ids of `nodes` or an @include condition change', async () => {
    const ids = [encodeGlobalId('School', world.school.id), encodeGlobalId('District', world.district.id)];
    const nodes = 'query Nodes($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    expect((await costed(nodes, { ids: ids.slice(0, 1) })).cost).toBe(1);
    expect((await costed(nodes, { ids })).cost).toBe(2);
    expect((await costed(nodes, { ids: ids.slice(1) })).cost).toBe(1);
    const members =
      'query Members($all: Boolean!) { groups(limit: 2) { items { title members @include(if: $all) { id } } } }';
    expect((await costed(members, { all: false })).cost).toBe(3);
    expect((await costed(members, { all: true })).cost).toBe(2 * 100 + 3);
    expect((await costed(members, { all: false })).cost).toBe(3);
  });

  it('refuses variables that do not coerce as before, when the cost is known from other values', async () => {
    const query = 'query Title($id: ID!) { group(id: $id) { title } }';
    expect((await costed(query, { id: '1' })).status).toBe(200);
    const known = await costed(query, { id: { not: 'an id' } });
    // The same document, new to the cost model: what any first request with those variables gets.
    const fresh = await costed(`${query} `, { id: { not: 'an id' } });
    expect(known).toEqual(fresh);
    expect(known).toMatchObject({
      status: 400,
      error: {
        message: expect.stringContaining('Variable "$id" got invalid value'),
        extensions: { code: 'BAD_USER_INPUT' },
      },
    });
  });

  it('keeps every /v1 route under every limit, at the largest page', () => {
    const app = createApp({
      config: server.config,
      database: server.database,
      serverKey: server.serverKey,
      logger: createLogger(server.config),
    });
    for (const route of restRoutes) {
      const variables = Object.fromEntries(
        route.document.definitions.flatMap((definition) =>
          definition.kind === 'OperationDefinition' ? (definition.variableDefinitions ?? []).map(sampleVariable) : [],
        ),
      );
      // What the facade does for each request: the route's fixed document through the same validation.
      const context = { request: new Request('http://lectern.test/v1'), params: { variables } };
      const enveloped = app.getEnveloped(context);
      // The cost's refusal is thrown: named by its route.
      const errors = (() => {
        try {
          return enveloped.validate(enveloped.schema, route.document);
        } catch (error) {
          return [error];
        }
      })();
      expect(errors, `${route.method} ${route.path}`).toEqual([]);
      expect(queryCostOf(context)?.cost, `${route.method} ${route.path}`).toBeLessThanOrEqual(queryLimits.cost);
    }
  });
});

/** A value of a route variable's type: the largest page for `limit`, required members only for inputs. */
function sampleVariable(definition: VariableDefinitionNode): [string, unknown] {
  const sample = (type: GraphQLInputType, name: string): unknown => {
    if (isNonNullType(type)) return sample(type.ofType, name);
    if (isListType(type)) return [sample(type.ofType, name)];
    if (isEnumType(type)) return type.getValues()[0].value;
    if (isInputObjectType(type)) {
      return Object.fromEntries(
        Object.values(type.getFields())
          .filter((field) => isNonNullType(field.type))
          .map((field) => [field.name, sample(field.type, field.name)]),
      );
    }
    if (type.name === 'Int') return name === 'limit' ? 200 : 0;
    if (type.name === 'Float') return 0;
    if (type.name === 'Boolean') return true;
    if (type.name === 'DateTime') return new Date(0).toISOString();
    return '1';
  };
  const name = definition.variable.name.value;
  return [name, sample(typeFromAST(schema, definition.type as never) as GraphQLInputType, name)];
}

describe('the execution deadline', () => {
  it('answers 503 with Retry-After and aborts the execution once the deadline passes', async () => {
    let aborted: Promise<void> | null = null;
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { slow: Int }',
        resolvers: {
          Query: {
            // Ends only when the execution is aborted, as a cancelled database call would.
            slow: (_parent, _args, _context, info) =>
              new Promise((_resolve, reject) => {
                const signal = (info as unknown as { signal: AbortSignal }).signal;
                aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
                signal.addEventListener('abort', () => reject(signal.reason), { once: true });
              }),
          },
        },
      }),
      plugins: [useExecutionBounds({ timeoutMs: 20, answerBytes: 1024 })],
      logging: false,
    });
    const response = await yoga.fetch('http://lectern.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ slow }' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = await response.json();
    expect(body.errors[0]).toMatchObject({ extensions: { code: 'QUERY_TIMEOUT' } });
    await expect(aborted).resolves.toBeUndefined();
  });

  it.each(['json', 'xml'] as const)('answers a /v1 request past it with 503 and Retry-After (%s)', async (accept) => {
    const app = createApp({
      config: { ...server.config, queryTimeoutMs: 100 },
      database: server.database,
      serverKey: server.serverKey,
      logger: createLogger(server.config),
    });
    const rest = await clients.rest(world.districtAdmin);
    const url = `http://lectern.test/v1/districts/${world.district.id}/posts`;
    // The page's count never answers, as a statement stuck behind a lock would not.
    const delegate = db().blogPost as unknown as { count: unknown };
    const original = delegate.count;
    delegate.count = () => new Promise(() => {});
    try {
      const response = await app.fetch(
        new Request(url, {
          headers: {
            authorization: rest.authorization('GET', url),
            accept: accept === 'xml' ? 'text/xml' : 'application/json',
          },
        }),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.text()).toContain('The request took longer than 100 ms and was stopped; try again later');
    } finally {
      delegate.count = original;
    }
  });

  it('aborts the execution when the client goes away, and leaves no listener on the request once it is answered', async () => {
    let started: () => void;
    const resolverStarted = new Promise<void>((resolve) => (started = resolve));
    let aborted: Promise<void> | null = null;
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { fast: Int, slow: Int }',
        resolvers: {
          Query: {
            fast: () => 1,
            slow: (_parent, _args, _context, info) =>
              new Promise(() => {
                const signal = (info as unknown as { signal: AbortSignal }).signal;
                aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
                started();
              }),
          },
        },
      }),
      plugins: [useExecutionBounds({ timeoutMs: 60_000, answerBytes: 1024 })],
      logging: false,
    });
    const post = (query: string, signal?: AbortSignal) =>
      new Request('http://lectern.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
        signal,
      });

    const answered = post('{ fast }');
    expect(await (await yoga.fetch(answered)).json()).toEqual({ data: { fast: 1 } });
    // A listener left on a request's signal keeps its whole execution alive for as long as the signal lives.
    expect(getEventListeners(answered.signal, 'abort')).toHaveLength(0);

    const client = new AbortController();
    void Promise.resolve(yoga.fetch(post('{ slow }', client.signal))).catch(() => undefined);
    await resolverStarted;
    client.abort();
    await expect(aborted).resolves.toBeUndefined();
  });
});
