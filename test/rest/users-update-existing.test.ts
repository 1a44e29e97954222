import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { type World, createSection, createWorld, unique, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

// `POST /v1/users?update_existing=1` naming an inactive user by school_uid: a nightly SIS sync sending a user who came
// back makes them active again (docs/rest/users.md, "A user the sync sends again").

const server = useTestServer();
const clients = clientsFor(server);
let w: World;

beforeAll(async () => {
  w = await createWorld();
  await clients.restFor(['schoolAdmin', 'teacher'] as const, w);
});

const student = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  school_uid: unique('S'),
  name_first: 'Ada',
  name_last: 'Lovelace',
  role_id: 1214,
  ...fields,
});
const byUid = (schoolUid: string) => db().user.findFirstOrThrow({ where: { schoolUid } });

describe('update_existing=1 and inactive users', () => {
  it('reactivates the user, applies the changes, and brings back the enrollments kept for them', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const roster = [student()];
    expect((await admin.post('/users', { users: { user: roster } })).status).toBe(200);
    const user = await byUid(roster[0].school_uid);
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: user.id }]);
    expect((await admin.delete(`/users/${user.id}?option_keep_enrollments=1`)).status).toBe(204);
    const teacher = await clients.rest(w.teacher);
    const rosterOf = async () =>
      (await teacher.get(`/sections/${section.id}/enrollments`)).json.enrollment.map((item: any) => item.uid);
    expect(await rosterOf()).toEqual([String(w.teacher.id)]);

    const events = await watchDomainEvents();
    const back = await admin.post('/users?update_existing=1', {
      users: { user: [{ ...roster[0], name_last: 'King' }] },
    });
    expect(back.status).toBe(200);
    expect(back.json.user[0]).toMatchObject({ response_code: 200, id: String(user.id) });
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect([stored.deactivatedAt, stored.nameLast]).toEqual([null, 'King']);
    expect((await events()).map(([type, realm, realmId, objectId]) => [type, realm, realmId, objectId])).toEqual([
      ['user.reactivate', 'USER', user.id, user.id],
      ['user.update', 'SCHOOL', w.school.id, user.id],
    ]);
    expect(await rosterOf()).toEqual([String(w.teacher.id), String(user.id)]);
    expect((await admin.get(`/users/${user.id}`)).status).toBe(200);
    // Sent again the next night, the user is as the sync has them: nothing is written.
    await expectNothingWritten(() =>
      admin.post('/users?update_existing=1', { users: { user: [{ ...roster[0], name_last: 'King' }] } }),
    );
  });

  it('reactivates a user the sync sends unchanged, with the reactivation alone', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const roster = [student()];
    await admin.post('/users', { users: { user: roster } });
    const user = await byUid(roster[0].school_uid);
    await admin.delete(`/users/${user.id}`);
    const events = await watchDomainEvents();
    const back = await admin.post('/users?update_existing=1', { users: { user: roster } });
    expect(back.json.user[0].response_code).toBe(200);
    expect((await events()).map(([type]) => type)).toEqual(['user.reactivate']);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).deactivatedAt).toBeNull();
  });

  it('without update_existing, an inactive user still holds their school_uid: 409, and they stay inactive', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const roster = [student()];
    await admin.post('/users', { users: { user: roster } });
    const user = await byUid(roster[0].school_uid);
    await admin.delete(`/users/${user.id}`);
    const again = await expectNothingWritten(() => admin.post('/users', { users: { user: roster } }));
    expect(again.json.user[0].response_code).toBe(409);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).deactivatedAt).not.toBeNull();
  });
});
