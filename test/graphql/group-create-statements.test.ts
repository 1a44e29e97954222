import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLResponse, graphqlClientFor, restClientFor } from '../support/client';
import { createGroupCategory, createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

/**
 * A group's create is one statement (the group, its creator's membership, its event) and answers from its INSERT: the
 * school's district, which the answer's access facts need, is known before the write, so the row is not read again
 * after it. A document asking more of the school, or for the new group's members, gets the group read in the write's
 * transaction, once the creator's membership exists.
 */
describe('creating a group', () => {
  let world: World;

  beforeAll(async () => {
    world = await createWorld();
  });

  const groupStatements = (statements: string[]) => statements.filter((sql) => /"(public"\.")?groups"/.test(sql));

  it.each(['schoolAdmin', 'teacher'] as const)(
    'POST /v1/groups by a %s writes the group, its membership and its event in one statement',
    async (role) => {
      const rest = await restClientFor(server, world[role]);
      let created: Awaited<ReturnType<typeof rest.post>> | undefined;
      const statements = await server.database.statementsOf(async () => {
        created = await rest.post('/groups', { title: `Made by a ${role}`, privacy_level: 'school' });
      });
      expect(created!.status).toBe(201);
      // The creator administers the new group, so its access code is theirs to see.
      expect(created!.json).toMatchObject({
        title: `Made by a ${role}`,
        school_id: String(world.school.id),
        access_code: expect.stringMatching(/^\w{5}-\w{5}$/),
      });
      const touching = groupStatements(statements);
      expect(touching).toHaveLength(1);
      expect(touching[0]).toMatch(/^WITH created AS \(INSERT INTO "groups" [\s\S]* RETURNING /);
      expect(touching[0]).toContain('INSERT INTO group_memberships');
      expect(touching[0]).toContain('INSERT INTO domain_events');
      // No transaction: a statement commits whole or not at all.
      expect(statements).not.toContain('COMMIT');

      const id = Number(created!.json.id);
      const group = await db().group.findUniqueOrThrow({
        where: { id },
        select: { createdAt: true, memberships: { select: { userId: true, admin: true, createdAt: true } } },
      });
      expect(group.memberships).toEqual([{ userId: world[role].id, admin: true, createdAt: group.createdAt }]);
      expect(
        await db().domainEvent.findMany({
          where: { type: 'group.create', objectId: id },
          select: { realmType: true, realmId: true, actorId: true, ancestors: true },
        }),
      ).toEqual([
        {
          realmType: 'GROUP',
          realmId: id,
          actorId: world[role].id,
          ancestors: [`GROUP:${id}`, `SCHOOL:${world.school.id}`, `DISTRICT:${world.district.id}`],
        },
      ]);
      expect((await rest.get(`/groups/${id}`)).json).toMatchObject({
        id: String(id),
        access_code: created!.json.access_code,
      });
    },
  );

  it("reads no school for a create in its creator's own school or building, and reads any other first", async () => {
    const schoolAdmin = await restClientFor(server, world.schoolAdmin);
    const districtAdmin = await restClientFor(server, world.districtAdmin);
    const teacher = await restClientFor(server, world.teacher);
    // What authenticates the request (its credential, its OAuth nonce) is left out.
    const authentication = /\b(api_clients|oauth_nonces)\b/;
    const sent = async (rest: typeof schoolAdmin, body: Record<string, string>) => {
      let status = 0;
      const statements = await server.database.statementsOf(async () => {
        status = (await rest.post('/groups', { title: 'Where its creator is', ...body })).status;
      });
      const named = statements.filter((sql) => !authentication.test(sql));
      const kinds = {
        create: /^WITH created AS/,
        school: /FROM schools WHERE id = ANY/,
        memberships: /FROM "public"\."group_memberships"/,
      };
      return {
        status,
        statements: named.map((sql) => Object.entries(kinds).find(([, pattern]) => pattern.test(sql))?.[0] ?? sql),
      };
    };
    // The user's school and district are on their credential's record, as their role is.
    expect(await sent(schoolAdmin, {})).toEqual({ status: 201, statements: ['create'] });
    expect(await sent(schoolAdmin, { school_id: String(world.school.id) })).toEqual({
      status: 201,
      statements: ['create'],
    });
    // A teacher's memberships are read before the write (see createGroup); their building is on their record too.
    expect(await sent(teacher, { school_id: String(world.building.id) })).toEqual({
      status: 201,
      statements: ['memberships', 'create'],
    });
    expect(await sent(districtAdmin, { school_id: String(world.otherSchool.id) })).toEqual({
      status: 201,
      statements: ['school', 'create'],
    });
    expect(await sent(districtAdmin, { school_id: String(world.farSchool.id) })).toEqual({
      status: 404,
      statements: ['school'],
    });
  });

  // The database's own default (CURRENT_TIMESTAMP) is the session's local time, and Prisma's DateTime is UTC. PGlite has
  // one session to set the time zone of; the statement is the same on PostgreSQL.
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    "stamps the new rows with the time in UTC whatever the database session's time zone",
    async () => {
      const rest = await restClientFor(server, world.teacher);
      await db().$executeRawUnsafe(`SET TIME ZONE 'Pacific/Kiritimati'`);
      try {
        const before = Date.now();
        const created = await rest.post('/groups', { title: 'Stamped in UTC' });
        const id = Number(created.json.id);
        const group = await db().group.findUniqueOrThrow({
          where: { id },
          select: { createdAt: true, memberships: { select: { createdAt: true } } },
        });
        const [event] = await db().domainEvent.findMany({
          where: { type: 'group.create', objectId: id },
          select: { createdAt: true },
        });
        for (const at of [group.createdAt, group.memberships[0]!.createdAt, event!.createdAt]) {
          expect(at.getTime()).toBeGreaterThanOrEqual(before - 1000);
          expect(at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
        }
      } finally {
        await db().$executeRawUnsafe(`SET TIME ZONE 'UTC'`);
      }
    },
  );

  it('answers a document that asks for more of the school by reading the new row with it', async () => {
    const graphql = await graphqlClientFor(server, world.teacher);
    const document = `mutation($input: CreateGroupInput!) { createGroup(input: $input) {
      group { databaseId accessCode school { title district { title } } building { databaseId } } } }`;
    let answer: GraphQLResponse | undefined;
    const statements = await server.database.statementsOf(async () => {
      answer = await graphql(document, {
        input: { title: 'Asks for its school', buildingId: String(world.building.id) },
      });
    });
    expect(answer!.errors).toBeUndefined();
    expect(answer!.data.createGroup.group).toEqual({
      databaseId: expect.any(String),
      accessCode: expect.stringMatching(/^\w{5}-\w{5}$/),
      school: { title: world.school.title, district: { title: world.district.title } },
      building: { databaseId: String(world.building.id) },
    });
    expect(groupStatements(statements).some((sql) => sql.startsWith('SELECT'))).toBe(true);
  });

  it('answers the relations a document asks for (category, building) by reading the new row with them', async () => {
    const graphql = await graphqlClientFor(server, world.teacher);
    const category = await createGroupCategory(world.district.id, 'Asked for by title');
    const document = `mutation($input: CreateGroupInput!) { createGroup(input: $input) {
      group { category { title } building { title } } } }`;
    const answer = await graphql(document, {
      input: {
        title: 'Asks for its relations',
        categoryId: String(category.id),
        buildingId: String(world.building.id),
      },
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createGroup.group).toEqual({
      category: { title: 'Asked for by title' },
      building: { title: world.building.title },
    });
  });

  it('reads the new group after its creator joined it when the document asks for its members', async () => {
    const graphql = await graphqlClientFor(server, world.teacher);
    const document = `mutation($input: CreateGroupInput!) { createGroup(input: $input) {
      group { accessCode memberCount members { admin user { databaseId } } school { id } } } }`;
    const answer = await graphql(document, { input: { title: 'Asks for its members' } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createGroup.group).toMatchObject({
      accessCode: expect.stringMatching(/^\w{5}-\w{5}$/),
      memberCount: 1,
      members: [{ admin: true, user: { databaseId: String(world.teacher.id) } }],
    });
  });
});
