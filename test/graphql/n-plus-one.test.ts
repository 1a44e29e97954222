import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { db } from '../../src/db/database';
import {
  createCalendarEvent,
  createDistrict,
  createGroup,
  createSchool,
  createSection,
  createUser,
} from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

const query = /* GraphQL */ `
  query ($limit: Int!) {
    groups(limit: $limit) {
      total
      items { id: databaseId title accessCode school { title } building { title } members { admin user { nameFirst nameLast } } }
    }
  }
`;

/** SQL statements one GraphQL request for `limit` groups sends, authentication included. */
async function statementsFor(graphql: GraphQLClient, limit: number, document = query) {
  const before = server.database.statementCount;
  const result = await graphql(document, { limit });
  expect(result.errors).toBeUndefined();
  return {
    statements: server.database.statementCount - before,
    items: result.data.groups.items.length,
    groups: result.data.groups.items,
  };
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

  it('load 20 groups with a page of members each in as many statements as 5', async () => {
    const pages = /* GraphQL */ `
      query ($limit: Int!) {
        groups(limit: $limit) { items { membersConnection(first: 2) { totalCount edges { node { user { id } } } } } }
      }
    `;
    await statementsFor(graphql, 1, pages);
    const five = await statementsFor(graphql, 5, pages);
    const twenty = await statementsFor(graphql, 20, pages);
    expect(twenty.items).toBe(20);
    for (const group of twenty.groups)
      expect([group.membersConnection.totalCount, group.membersConnection.edges.length]).toEqual([4, 2]);
    expect(twenty.statements).toBe(five.statements);
    // token with its user; the page with each group's first members, their users and their count joined
    expect(twenty.statements).toBe(2);
  });
});

describe('pending invites and friend requests', () => {
  let graphql: GraphQLClient;
  let userId: number;

  beforeAll(async () => {
    const district = await createDistrict();
    const school = await createSchool(district.id);
    const invitee = await createUser(school.id, 'STUDENT');
    userId = invitee.id;
    const teacher = await createUser(school.id, 'TEACHER');
    for (let i = 0; i < 10; i++) {
      const group = await createGroup(school.id, { admins: [teacher.id] });
      await db().invite.create({ data: { userId, groupId: group.id, inviterId: teacher.id } });
      const section = await createSection(school.id);
      await db().invite.create({ data: { userId, sectionId: section.id, inviterId: teacher.id } });
      const requester = await createUser(school.id, 'STUDENT');
      await db().friendRequest.create({ data: { requesterId: requester.id, userId } });
    }
    graphql = await graphqlClientFor(server, invitee);
  });

  /** Statements of one page of each list, the realm's school and the requester's school included. */
  async function pageStatements(limit: number) {
    const before = server.database.statementCount;
    const result = await graphql(
      `query($user: ID!, $limit: Int!) {
        groups: invites(userId: $user, realm: GROUP, limit: $limit) { total items { id: databaseId group { title school { title } } } }
        sections: invites(userId: $user, realm: SECTION, limit: $limit) { total items { id: databaseId section { title course { school { title } } } } }
        friendRequests(userId: $user, limit: $limit) { total items { id: databaseId requester { nameFirst school { title } } } }
      }`,
      { user: String(userId), limit },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.groups.items).toHaveLength(limit);
    expect(result.data.sections.items).toHaveLength(limit);
    expect(result.data.friendRequests.items).toHaveLength(limit);
    return server.database.statementCount - before;
  }

  it('load a page of 10 with their groups, sections, requesters and schools in as many statements as 2', async () => {
    await pageStatements(1);
    expect(await pageStatements(10)).toBe(await pageStatements(2));
  });
});

describe('calendar events', () => {
  let graphql: GraphQLClient;

  beforeAll(async () => {
    const district = await createDistrict();
    const school = await createSchool(district.id);
    const teacher = await createUser(school.id, 'TEACHER');
    const group = await createGroup(school.id, { admins: [teacher.id] });
    const section = await createSection(school.id, [{ userId: teacher.id, admin: true }]);
    for (let i = 0; i < 10; i++) {
      for (const realm of [
        { type: 'GROUP' as const, id: group.id },
        { type: 'SECTION' as const, id: section.id },
        { type: 'USER' as const, id: teacher.id },
      ]) {
        await createCalendarEvent(realm, {
          start: new Date(Date.UTC(2026, 8, 1 + i)),
          end: new Date(Date.UTC(2026, 8, 2 + i)),
        });
      }
    }
    graphql = await graphqlClientFor(server, teacher);
  });

  /** Statements of one page of the teacher's calendar, with what each event shows on the wire. */
  async function pageStatements(limit: number) {
    const before = server.database.statementCount;
    const result = await graphql(
      `query($limit: Int!) {
        calendar(from: "2026-08-01T00:00:00Z", to: "2026-10-01T00:00:00Z", limit: $limit) { total items { id: databaseId localStart localEnd editable realmType } }
      }`,
      { limit },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.calendar.items).toHaveLength(limit);
    return server.database.statementCount - before;
  }

  it('load a page of 30 across realms, with local times and editable, in as many statements as 3', async () => {
    await pageStatements(1);
    expect(await pageStatements(30)).toBe(await pageStatements(3));
  });
});
