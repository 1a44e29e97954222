import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, type GraphQLResponse, graphqlClientFor, restClientFor } from '../support/client';
import { createGroup, createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

/**
 * `group(id)` and `user(id)` read the object and the facts its access rule needs in one statement, then answer it only
 * when the rule lets the viewer read it.
 */
describe('one object by id', () => {
  let world: World;
  let teacher: GraphQLClient;
  let visibleGroup: number;
  let hiddenGroup: number;

  beforeAll(async () => {
    world = await createWorld();
    visibleGroup = (await createGroup(world.school.id, { privacyLevel: 'SCHOOL', buildingId: world.building.id })).id;
    hiddenGroup = (await createGroup(world.otherSchool.id, { privacyLevel: 'GROUP' })).id;
    teacher = await graphqlClientFor(server, world.teacher);
    await teacher('{ viewer { databaseId } }'); // the credential is cached from here on
  });

  /** The answer, and how many statements of the request read `table`. */
  async function ask(document: string, variables: Record<string, unknown>, table: string) {
    let result: GraphQLResponse = { status: 0 };
    const statements = await server.database.statementsOf(async () => {
      result = await teacher(document, variables);
    });
    expect(result.errors).toBeUndefined();
    // Authentication and the viewer's memberships are statements of their own, as on every request.
    return {
      data: result.data,
      statements: statements.filter((sql) => sql.includes(`FROM "public"."${table}" AS "t0"`)).length,
    };
  }

  const groupDocument = `query ($id: ID!) { group(id: $id) { databaseId title accessCode school { title district { title } } building { databaseId } } }`;
  const userDocument = `query ($id: ID!) { user(id: $id) { databaseId nameLast school { title } building { title } } }`;

  it('answers a visible group from one statement, with its relations', async () => {
    const { data, statements } = await ask(groupDocument, { id: String(visibleGroup) }, 'groups');
    expect(data.group).toEqual({
      databaseId: String(visibleGroup),
      title: expect.any(String),
      accessCode: null, // a teacher who does not administer the group
      school: { title: world.school.title, district: { title: world.district.title } },
      building: { databaseId: String(world.building.id) },
    });
    expect(statements).toBe(1);
  });

  it('reads a group asking for no relation with a statement of its own, answering every field as Prisma reads it', async () => {
    const columns = `databaseId title description pictureUrl website groupCode memberPost memberPostComment createDiscussion createFiles
      createdAt privacyLevel inviteType accessCode viewerCanPost viewerCanComment school { id } building { id } category { id }`;
    // `memberCount` needs a relation count, which only Prisma reads.
    const [direct, throughPrisma] = [
      `query ($id: ID!) { group(id: $id) { ${columns} } }`,
      `query ($id: ID!) { group(id: $id) { ${columns} memberCount } }`,
    ];
    const administrator = await graphqlClientFor(server, world.districtAdmin);
    for (const [viewer, id, seen] of [
      [teacher, visibleGroup, true],
      [administrator, visibleGroup, true],
      [administrator, hiddenGroup, true],
      [teacher, hiddenGroup, false],
      [teacher, 2_147_483_647, false],
    ] as const) {
      let read: GraphQLResponse = { status: 0 };
      const statements = await server.database.statementsOf(async () => {
        read = await viewer(direct, { id: String(id) });
      });
      expect(statements.filter((sql) => sql.includes('FROM groups JOIN schools'))).toHaveLength(1);
      expect(statements.filter((sql) => sql.includes('"public"."groups"'))).toEqual([]);
      const { memberCount, ...prisma } = (await viewer(throughPrisma, { id: String(id) })).data.group ?? {
        memberCount: null,
      };
      expect(read.data.group).toEqual(seen ? prisma : null);
      if (seen) expect(memberCount).toEqual(expect.any(Number));
    }
  });

  it('answers null for a group the viewer may not see, a missing one and an id no row can have', async () => {
    for (const id of [hiddenGroup, 2_147_483_647, 2_147_483_648]) {
      const { data, statements } = await ask(groupDocument, { id: String(id) }, 'groups');
      expect(data.group).toBeNull();
      expect(statements).toBeLessThanOrEqual(1);
    }
  });

  it('answers a user with their school from one statement, and hides one of another district', async () => {
    const seen = await ask(userDocument, { id: String(world.student.id) }, 'users');
    expect(seen.data.user).toEqual({
      databaseId: String(world.student.id),
      nameLast: world.student.nameLast,
      school: { title: world.school.title },
      building: { title: world.building.title },
    });
    expect(seen.statements).toBe(1);
    expect((await ask(userDocument, { id: String(world.outsider.id) }, 'users')).data.user).toBeNull();
  });

  it('keeps /v1 answers: the group, and 404 for a hidden one', async () => {
    const rest = await restClientFor(server, world.teacher);
    const found = await rest.get(`/groups/${visibleGroup}`);
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      id: String(visibleGroup),
      school_id: String(world.school.id),
      building_id: String(world.building.id),
    });
    expect((await rest.get(`/groups/${hiddenGroup}`)).status).toBe(404);
  });
});
