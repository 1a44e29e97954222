import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
let world: World;
let teacher: RestClient;

beforeAll(async () => {
  world = await createWorld();
  teacher = await restClientFor(server, world.teacher);
});

const eventsOfType = (type: string) => db().domainEvent.findMany({ where: { type }, orderBy: { id: 'asc' } });

describe('domain events', () => {
  afterEach(async () => {
    await db().$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse_events ON domain_events');
  });

  it('are recorded with the change, naming realm, object, actor and school', async () => {
    const created = await teacher.post('/groups', { title: 'Debate' });
    expect(created.status).toBe(201);
    const [event] = (await eventsOfType('group.create')).filter((e) => e.objectId === Number(created.json.id));
    expect(event).toMatchObject({
      realmType: 'GROUP',
      realmId: Number(created.json.id),
      actorId: world.teacher.id,
      districtId: world.district.id,
      schoolId: world.school.id,
    });
    expect(event.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('name the realms that contain their object: its own, its building, its school and its district', async () => {
    const created = await teacher.post('/groups', { title: 'In the building', building_id: String(world.building.id) });
    expect(created.status).toBe(201);
    const [event] = (await eventsOfType('group.create')).filter((e) => e.objectId === Number(created.json.id));
    expect(event!.ancestors).toEqual([
      `GROUP:${created.json.id}`,
      `SCHOOL:${world.building.id}`,
      `SCHOOL:${world.school.id}`,
      `DISTRICT:${world.district.id}`,
    ]);
    const admin = await restClientFor(server, world.schoolAdmin);
    const building = await admin.post(`/schools/${world.school.id}/buildings`, { title: 'East wing' });
    expect(building.status).toBe(201);
    const [added] = (await eventsOfType('building.create')).filter((e) => e.objectId === Number(building.json.id));
    expect(added!.ancestors).toEqual([
      `SCHOOL:${building.json.id}`,
      `SCHOOL:${world.school.id}`,
      `DISTRICT:${world.district.id}`,
    ]);
  });

  it('are ordered by id, so readers can follow the stream', async () => {
    const first = await teacher.post('/groups', { title: 'First' });
    await teacher.put(`/groups/${first.json.id}`, { description: 'changed' });
    await teacher.delete(`/groups/${first.json.id}`);
    const events = await db().domainEvent.findMany({
      where: { objectId: Number(first.json.id), realmType: 'GROUP' },
      orderBy: { id: 'asc' },
    });
    expect(events.map((event) => event.type)).toEqual(['group.create', 'group.update', 'group.delete']);
  });

  it('share the transaction of the change: when the event cannot be written, the change is rolled back', async () => {
    // A trigger that rejects the event row makes the last statement of the transaction fail.
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_event() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'event store unavailable'; END; $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(
      'CREATE TRIGGER refuse_events BEFORE INSERT ON domain_events FOR EACH ROW EXECUTE FUNCTION refuse_event()',
    );
    const response = await expectNothingWritten(() => teacher.post('/groups', { title: 'Never written' }));
    expect(response.status).toBe(500);
    expect(response.json.error).toMatch(/^Internal server error \(request id [\w-]+\)$/);
    expect(response.text).not.toContain('event store unavailable');
    expect(await db().group.findFirst({ where: { title: 'Never written' } })).toBeNull();
  });

  it('are not recorded for a write that fails validation', async () => {
    const response = await expectNothingWritten(() => teacher.post('/groups', { title: '' }));
    expect(response.status).toBe(400);
  });
});
