import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { restClientFor } from '../support/client';
import { createSchool, createUser, createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

// The credential cache trusts what it read for 10 minutes here, so the viewer's record outlives their school.
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });

/**
 * A create in the viewer's own school or building takes them from the viewer's cached record (at most 1 s old in
 * production) and reads neither: when another request has deleted it meanwhile, the INSERT's foreign key finds it
 * missing, and the answer is the 404 a request a moment later gets, with nothing written.
 */
describe("creating a group in a school deleted since the viewer's credential was read", () => {
  let world: World;

  beforeAll(async () => {
    world = await createWorld();
  });

  const groupsOf = (schoolId: number) => db().group.count({ where: { OR: [{ schoolId }, { buildingId: schoolId }] } });

  it("answers 404 for the viewer's own school, gone", async () => {
    const school = await createSchool(world.district.id);
    const rest = await restClientFor(server, await createUser(school.id, 'TEACHER'));
    expect((await rest.get('/groups')).status).toBe(200);
    // Deleted as another instance would: its users and their credentials go with it (cascade), and no event reaches
    // this cache.
    await db().$executeRaw`DELETE FROM schools WHERE id = ${school.id}`;
    const created = await rest.post('/groups', { title: 'Too late' });
    expect([created.status, created.json]).toEqual([404, { error: `School ${school.id} was not found` }]);
    expect(await groupsOf(school.id)).toBe(0);
  });

  it("answers 404 for the viewer's own building, gone, named as the school", async () => {
    const building = await createSchool(world.district.id, { parentId: world.school.id });
    const rest = await restClientFor(server, await createUser(world.school.id, 'TEACHER', { buildingId: building.id }));
    expect((await rest.get('/groups')).status).toBe(200);
    await db().$executeRaw`DELETE FROM schools WHERE id = ${building.id}`;
    const created = await rest.post('/groups', { title: 'Too late', school_id: String(building.id) });
    expect([created.status, created.json]).toEqual([404, { error: `School ${building.id} was not found` }]);
    expect(await groupsOf(building.id)).toBe(0);
    // The school itself still takes the group.
    expect((await rest.post('/groups', { title: 'In the school' })).status).toBe(201);
  });
});
