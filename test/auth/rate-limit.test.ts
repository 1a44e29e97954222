import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { restClientFor } from '../support/client';
import { createDistrict, createSchool, createUser, unique } from '../support/factories';
import { useTestServer } from '../support/harness';

// A window long enough that no test crosses it: the budget is 15 points per user, as RATE_LIMIT's default.
const server = useTestServer({ RATE_LIMIT: '15/1m' });
let schoolId: number;

beforeAll(async () => {
  const district = await createDistrict();
  schoolId = (await createSchool(district.id)).id;
});

/** A district administrator of their own district, so categories and budgets never collide between tests. */
async function freshAdmin() {
  const district = await createDistrict();
  const school = await createSchool(district.id);
  return createUser(school.id, 'DISTRICT_ADMIN');
}

async function bearer(user: { id: number }) {
  const { token } = await issueAccessToken({ userId: user.id, name: 'test' });
  return async (query: string, headers: Record<string, string> = {}) => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
}

const remaining = (headers: Headers) => Number(headers.get('x-ratelimit-remaining'));

const createCategories = (count: number, prefix: string) =>
  `mutation { ${Array.from(
    { length: count },
    (_, index) => `c${index}: createGroupCategory(input: { title: "${prefix}-${index}" }) { userErrors { code } }`,
  ).join(' ')} }`;

const categoriesTitled = (prefix: string) =>
  db().groupCategory.count({ where: { title: { startsWith: `${prefix}-` } } });

describe('one budget per user', () => {
  it('counts every credential of a user and both APIs together', async () => {
    const user = await createUser(schoolId, 'TEACHER');
    const [first, second] = [await bearer(user), await bearer(user)];
    const rest = await restClientFor(server, user);
    const seen: number[] = [];
    for (let index = 0; index < 15; index++) {
      const response =
        index % 3 === 0
          ? await rest.get(`/users/${user.id}`)
          : await (index % 3 === 1 ? first : second)('{ viewer { id: databaseId } }').then((r) => ({
              status: r.status,
              headers: r.headers,
            }));
      expect(response.status).toBe(200);
      seen.push(remaining(response.headers));
    }
    expect(seen).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    const refused = await second('{ viewer { id: databaseId } }');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const restRefused = await rest.get(`/users/${user.id}`);
    expect(restRefused.status).toBe(429);
    expect(restRefused.json).toEqual({ error: expect.stringContaining('Too many requests') });
  });

  it('puts X-RateLimit-* headers on authenticated responses of both APIs, and none on anonymous ones', async () => {
    const user = await createUser(schoolId, 'TEACHER');
    const graphql = await bearer(user);
    const rest = await restClientFor(server, user);
    const before = Math.floor(Date.now() / 1000);
    const answered = await graphql('{ viewer { id: databaseId } }');
    // Read after the answer: on a loaded machine the request itself may take seconds.
    const after = Math.ceil(Date.now() / 1000);
    expect(answered.headers.get('x-ratelimit-limit')).toBe('15');
    expect(remaining(answered.headers)).toBe(14);
    const reset = Number(answered.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(before);
    expect(reset).toBeLessThanOrEqual(after + 60);

    const page = await rest.get('/groups?limit=200');
    expect(page.status).toBe(200);
    // The largest /v1 page is one point, as every request was on the platform.
    expect(remaining(page.headers)).toBe(13);

    const anonymous = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(anonymous.headers.has('x-ratelimit-remaining')).toBe(false);
  });
});

describe('charging each request its cost', () => {
  it('charges a mutation field one point: 12 aliased creates cost 12, and the next 12 are refused unrun', async () => {
    const graphql = await bearer(await freshAdmin());
    const prefix = unique('cat');
    const first = await graphql(createCategories(12, `${prefix}-a`));
    expect(first.status).toBe(200);
    expect(remaining(first.headers)).toBe(3);
    const second = await graphql(createCategories(12, `${prefix}-b`));
    expect(second.status).toBe(429);
    expect(second.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await categoriesTitled(`${prefix}-a`)).toBe(12);
    expect(await categoriesTitled(`${prefix}-b`)).toBe(0);
  });

  it('counts mutation fields inside fragments', async () => {
    const graphql = await bearer(await freshAdmin());
    const prefix = unique('cat');
    const fields = Array.from(
      { length: 8 },
      (_, index) => `c${index}: createGroupCategory(input: { title: "${prefix}-${index}" }) { userErrors { code } }`,
    );
    const response = await graphql(
      `mutation { ...Writes ... on Mutation { ${fields.slice(4).join(' ')} } } fragment Writes on Mutation { ${fields.slice(0, 4).join(' ')} }`,
    );
    expect(response.status).toBe(200);
    expect(remaining(response.headers)).toBe(7);
  });

  it('refuses, without running any, a request costing more than the whole budget', async () => {
    const graphql = await bearer(await freshAdmin());
    const prefix = unique('cat');
    const response = await graphql(createCategories(16, prefix));
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      message: expect.stringContaining('costs 16 rate-limit points, more than the whole budget of 15'),
      extensions: { code: 'COST_EXCEEDS_RATE_LIMIT' },
    });
    expect(await categoriesTitled(prefix)).toBe(0);
  });

  it("refuses the issue's 300 aliased mutations before any runs", async () => {
    const graphql = await bearer(await freshAdmin());
    const prefix = unique('cat');
    const response = await graphql(createCategories(300, prefix));
    expect(response.status).toBe(400);
    expect(await categoriesTitled(prefix)).toBe(0);
  });

  it('charges a heavy read one point per 1,000 of cost, and shows the cost in extensions when asked', async () => {
    const graphql = await bearer(await createUser(schoolId, 'TEACHER'));
    // 1 + 20 groups × (1 + 100 members × 3 objects) = 6,021: 7 points.
    const heavy = await graphql('{ groups { items { members { user { school { id: databaseId } } } } } }', {
      'x-lectern-cost': '1',
    });
    expect(heavy.status).toBe(200);
    expect(remaining(heavy.headers)).toBe(8);
    expect(heavy.body.extensions.cost).toEqual({
      requestedQueryCost: 6021,
      mutationFields: 0,
      points: 7,
      limit: 15,
      remaining: 8,
      resetAt: Number(heavy.headers.get('x-ratelimit-reset')),
    });
    const plain = await graphql('{ viewer { id: databaseId } }');
    expect(plain.body.extensions).toBeUndefined();
    expect(remaining(plain.headers)).toBe(7);
  });
});
