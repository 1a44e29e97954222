import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { createDistrict, createGroup, createSchool, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

const query = /* GraphQL */ `
  query ($limit: Int!) {
    groups(limit: $limit) {
      total
      items { id title accessCode school { title } building { title } members { admin user { nameFirst nameLast } } }
    }
  }
`;

/** SQL statements one GraphQL request sends, authentication included. */
async function statementsFor(graphql: GraphQLClient, limit: number) {
  const before = server.database.statementCount;
  const result = await graphql(query, { limit });
  expect(result.errors).toBeUndefined();
  return { statements: server.database.statementCount - before, items: result.data.groups.items.length };
}

describe('list queries', () => {
  let graphql: GraphQLClient;

  beforeAll(async () => {
    const district = await createDistrict();
    const school = await createSchool(district.id);
    const building = await createSchool(district.id, { parentId: school.id });
    const admin = await createUser(school.id, 'TEACHER');
    const members = [];
    for (let i = 0; i < 3; i++) members.push((await createUser(school.id, 'STUDENT')).id);
    for (let i = 0; i < 20; i++) {
      await createGroup(school.id, { admins: [admin.id], members, buildingId: i % 2 ? building.id : undefined });
    }
    graphql = await graphqlClientFor(server, admin);
  });

  it('load 20 groups with school, building and members in as many statements as 5', async () => {
    await statementsFor(graphql, 1); // warm the viewer's memberships path once
    const five = await statementsFor(graphql, 5);
    const twenty = await statementsFor(graphql, 20);
    expect(five.items).toBe(5);
    expect(twenty.items).toBe(20);
    expect(twenty.statements).toBe(five.statements);
    // token with its user; the page with school, building and members joined; the count; the viewer's memberships
    expect(twenty.statements).toBe(4);
  });
});
