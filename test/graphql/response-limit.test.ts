/**
 * What one request may make (issue 37, response amplification): long text counts in the query's cost, and an answer
 * whose long text passes RESPONSE_LIMIT stops while it is made, on /graphql and /v1 (JSON and XML) alike.
 */
import { createSchema, createYoga } from 'graphql-yoga';
import { beforeAll, describe, expect, it } from 'vitest';
import { longText, useExecutionBounds } from '../../src/graphql/execution-bounds';
import { queryLimits } from '../../src/graphql/limits';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type GraphQLClient, type RestClient, clientsFor, refusal } from '../support/client';
import { type World, createBlogPosts, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const responseLimit = 100 * 1024;
const server = useTestServer({ RESPONSE_LIMIT: '100kb' });
const clients = clientsFor(server);
let world: World;
let section: { id: number };
let graphql: GraphQLClient;
let rest: RestClient;
let token: string;
/** Six posts of 30,000 characters: three fit the budget of 102,400 bytes, four do not. */
const body = 'x'.repeat(30_000);

beforeAll(async () => {
  world = await createWorld();
  section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
  await createBlogPosts({ type: 'SECTION', id: section.id }, 6, { body });
  graphql = await clients.graphql(world.teacher);
  rest = await clients.rest(world.teacher);
  ({ token } = await issueAccessToken({ userId: world.teacher.id, name: 'costs' }));
});

const postsQuery =
  'query($id: ID!, $limit: Int) { blogPosts(realm: { type: SECTION, id: $id }, limit: $limit) { items { title body } } }';

describe('the answer budget (RESPONSE_LIMIT)', () => {
  it('stops a GraphQL answer whose long text passes it, with a 400 naming the limit', async () => {
    const refused = await graphql(postsQuery, { id: String(section.id), limit: 6 });
    expect(refusal(refused)).toEqual({
      status: 400,
      data: null,
      code: 'RESPONSE_TOO_LARGE',
      message: expect.stringContaining(`limit (RESPONSE_LIMIT) of ${responseLimit} bytes of long text`),
    });
    expect(refused.errors?.[0]?.message).toContain('a smaller limit');

    const answered = await graphql(postsQuery, { id: String(section.id), limit: 3 });
    expect(answered.status).toBe(200);
    expect(answered.data.blogPosts.items.map((post: { body: string }) => post.body === body)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it.each(['json', 'xml'] as const)('answers /v1 with a 400 naming the limit (%s)', async (accept) => {
    const refused = await rest.get(`/sections/${section.id}/posts?limit=6`, { accept });
    expect(refused.status).toBe(400);
    const message = accept === 'json' ? refused.json.error : /<error>([^<]*)<\/error>/.exec(refused.text)?.[1];
    expect(message).toMatch(
      new RegExp(`limit \\(RESPONSE_LIMIT\\) of ${responseLimit} bytes of long text .*a smaller limit`),
    );

    const answered = await rest.get(`/sections/${section.id}/posts?limit=3`, { accept });
    expect(answered.status).toBe(200);
    expect(answered.text.split(body)).toHaveLength(4);
  });

  it('stops making the answer once the budget is passed', async () => {
    const resolved: number[] = [];
    const field = longText(1_000, (item: { index: number }) => {
      resolved.push(item.index);
      return 'x'.repeat(1_000);
    });
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { items: [Item!]! } type Item { index: Int! text: String! }',
        resolvers: {
          Query: { items: async () => Array.from({ length: 1_000 }, (_, index) => ({ index })) },
          Item: { text: field.resolve },
        },
      }),
      plugins: [useExecutionBounds({ timeoutMs: 60_000, answerBytes: 3_500 })],
      logging: false,
    });
    const response = await yoga.fetch('http://lectern.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ items { index text } }' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'RESPONSE_TOO_LARGE' } }],
    });
    // The fourth text passed the budget; none of the 996 items after it was made.
    expect(resolved).toEqual([0, 1, 2, 3]);
  });
});

/** A request of the teacher's that reports its cost (`X-Lectern-Cost: 1`). */
async function costed(query: string) {
  const response = await server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-lectern-cost': '1' },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as {
    errors?: { extensions?: { code?: string } }[];
    extensions?: { cost?: { requestedQueryCost: number } };
  };
  return {
    status: response.status,
    cost: body.extensions?.cost?.requestedQueryCost,
    code: body.errors?.[0]?.extensions?.code,
  };
}

describe('long text in the cost', () => {
  /** The issue's document: 30 aliases of a page of 200 posts with their bodies (6,030 when text cost nothing). */
  const amplification = (limit: number) =>
    `{ ${Array.from({ length: 30 }, (_, index) => `a${index}: blogPosts(realm: { type: SECTION, id: "${section.id}" }, limit: ${limit}) { items { body } }`).join(' ')} }`;

  it("refuses the issue's amplification query before it runs", async () => {
    const statementsBefore = server.database.statementCount;
    const refused = await graphql(amplification(200));
    expect(refusal(refused)).toMatchObject({
      status: 400,
      code: 'QUERY_TOO_COSTLY',
      message: expect.stringContaining('may cost 96030'),
    });
    // Only the credential lookup: nothing of the query ran.
    expect(server.database.statementCount - statementsBefore).toBeLessThanOrEqual(3);
  });

  it("prices a body as one object per 64 KiB it may hold: /v1's largest page of posts fits, eleven of them do not", async () => {
    const empty = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    const page = (alias: string) =>
      `${alias}: blogPosts(realm: { type: SECTION, id: "${empty.id}" }, limit: 200) { items { title body } }`;
    // 1 + 200 × (1 + 15)
    const largest = await costed(`{ ${page('a')} }`);
    expect(largest).toEqual({ status: 200, cost: 3_201, code: undefined });
    const eleven = await costed(`{ ${Array.from({ length: 11 }, (_, index) => page(`a${index}`)).join(' ')} }`);
    expect(eleven).toEqual({ status: 400, cost: undefined, code: 'QUERY_TOO_COSTLY' });
    expect(11 * 3_201).toBeGreaterThan(queryLimits.cost);
  });
});
