import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../../src/auth/secrets';
import { db } from '../../src/db/database';
import { newSigningSecret } from '../../src/webhooks/signing';
import { createWebhookWorker } from '../../src/webhooks/worker';
import { clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin, v1 } from '../support/wire';

const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'on' });
const clients = clientsFor(server);

/** A receiver that records the event objects POSTed to each path. */
const bodies = new Map<string, unknown[]>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    bodies.set(request.url!, [...(bodies.get(request.url!) ?? []), JSON.parse(Buffer.concat(chunks).toString('utf8'))]);
    response.writeHead(200).end('ok');
  });
});
const url = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
const worker = () =>
  createWebhookWorker({ serverKey: server.serverKey, linkBase: testOrigin, now: () => new Date(), random: () => 1 });

/** Runs the worker until every committed event is delivered (events become readable once older transactions end). */
async function deliverAll() {
  const instance = worker();
  await expect
    .poll(
      async () => {
        await instance.runOnce();
        return instance.caughtUp();
      },
      { interval: 20 },
    )
    .toBe(true);
}

let w: World;
let section: { id: number };
let enrollmentId: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  enrollmentId = (await db().enrollment.findFirstOrThrow({ where: { sectionId: section.id, admin: false } })).id;
  const admin = await clients.rest(await createUser(w.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }));
  for (const [path, triggers, includeObject] of [
    ['/full', ['grades', 'grade_item'], 1],
    ['/ids', ['grades'], 0],
  ] as const) {
    const target = await admin.post('/triggers/targets', { target: url(path) });
    await admin.put('/triggers/subscriptions', {
      subscription: triggers.map((trigger) => ({
        target_id: target.json.id,
        trigger,
        subscribed: 1,
        include_object: includeObject,
      })),
    });
  }
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe('gradebook webhooks', () => {
  it('send one grades.update per write with an entry per grade and the course grade after it, and grade_item events naming the item', async () => {
    const category = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'All', weight: 100 } });
    const item = await db().assignment.create({
      data: { sectionId: section.id, title: 'Quiz', maxPoints: 10, categoryId: category.id },
    });
    const second = await db().assignment.create({
      data: { sectionId: section.id, title: 'Essay', maxPoints: 20, categoryId: category.id },
    });
    const teacher = await clients.graphql(w.teacher);
    await teacher(
      `mutation($id: ID!) { updateAssignment(input: { id: $id, title: "Quiz 1" }) { userErrors { code } } }`,
      {
        id: String(item.id),
      },
    );
    const discussion = await teacher(
      `mutation($sectionId: ID!) { createAssignment(input: { sectionId: $sectionId, title: "Debate", type: DISCUSSION }) { assignment { id: databaseId } } }`,
      { sectionId: String(section.id) },
    );
    const discussionId = Number(discussion.data.createAssignment.assignment.id);
    await teacher(`mutation($id: ID!) { deleteAssignment(input: { id: $id }) { deletedAssignmentId } }`, {
      id: String(discussionId),
    });
    const rest = await clients.rest(w.teacher);
    const set = await rest.put(`/sections/${section.id}/grades`, {
      grades: {
        grade: [
          { assignment_id: item.id, enrollment_id: enrollmentId, grade: 7 },
          { assignment_id: second.id, enrollment_id: enrollmentId, grade: 15 },
        ],
      },
    });
    expect(set.status).toBe(207);
    await deliverAll();

    const sent = bodies.get('/full') as { type: string; data: Record<string, unknown>[] }[];
    // As in the platform's event object example: the item is `id` with its `grade_item_type`, and this entry's
    // section_id and realm_id are strings.
    const itemEntry = (id: number, type: string) => ({
      realm: 'section',
      section_id: String(section.id),
      realm_id: String(section.id),
      id,
      grade_item_type: type,
    });
    expect(sent.filter((one) => one.type.startsWith('grade_item.')).map((one) => [one.type, one.data])).toEqual([
      [
        'grade_item.update',
        [
          {
            ...itemEntry(item.id, 'assignment'),
            object: expect.objectContaining({ id: item.id, title: 'Quiz 1', max_points: 10 }),
          },
        ],
      ],
      // Rendered when fanned out: by then the discussion is gone, so neither of its events carries the object; its
      // kind was recorded with each event.
      ['grade_item.update', [itemEntry(discussionId, 'discussion')]],
      ['grade_item.delete', [itemEntry(discussionId, 'discussion')]],
    ]);
    const grades = sent.find((one) => one.type === 'grades.update')!;
    expect(grades.data).toHaveLength(2);
    // 7/10 and 15/20 in one percent category: the course grade is (70 + 75) / 2.
    expect(grades.data[0]).toEqual({
      realm: 'section',
      section_id: section.id,
      realm_id: section.id,
      enrollment_id: enrollmentId,
      assignment_id: item.id,
      updated_overall_grade: 72.5,
      object: expect.objectContaining({
        enrollment_id: enrollmentId,
        assignment_id: item.id,
        grade: 7,
        location: `${v1}/sections/${section.id}/assignments/${item.id}`,
      }),
    });
    const [idsOnly] = bodies.get('/ids') as { data: Record<string, unknown>[] }[];
    expect(idsOnly!.data).toEqual([
      {
        realm: 'section',
        section_id: section.id,
        realm_id: section.id,
        enrollment_id: enrollmentId,
        assignment_id: item.id,
        updated_overall_grade: 72.5,
      },
      {
        realm: 'section',
        section_id: section.id,
        realm_id: section.id,
        enrollment_id: enrollmentId,
        assignment_id: second.id,
        updated_overall_grade: 72.5,
      },
    ]);
  });
});

describe('what a delivery shows', () => {
  it("is what the target's owner may see: a student's target gets no other student's grade or unreleased comment, an administrator's gets them", async () => {
    const classmate = await createUser(w.school.id, 'STUDENT');
    const room = await createSection(w.school.id, [
      { userId: w.teacher.id, admin: true },
      { userId: w.student.id },
      { userId: classmate.id },
    ]);
    const enrollments = await db().enrollment.findMany({
      where: { sectionId: room.id, admin: false },
      orderBy: { id: 'asc' },
    });
    const own = enrollments.find((one) => one.userId === w.student.id)!.id;
    const theirs = enrollments.find((one) => one.userId === classmate.id)!.id;
    const item = await db().assignment.create({ data: { sectionId: room.id, title: 'Lab report', maxPoints: 10 } });

    // Owners: the school administrator who made a target; a teacher of another section with trigger administration;
    // a student who held the grant before students were refused it (made in the database: the API refuses it now);
    // and a target whose owner is gone.
    const admin = await clients.rest(await createUser(w.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }));
    const otherTeacher = await clients.rest(await createUser(w.school.id, 'TEACHER', { triggerAdmin: true }));
    const viaApi = async (client: typeof admin, path: string) => {
      const target = await client.post('/triggers/targets', { target: url(path) });
      expect(target.status).toBe(201);
      await client.put('/triggers/subscriptions', {
        subscription: [{ target_id: target.json.id, trigger: 'grades', subscribed: 1, include_object: 1 }],
      });
    };
    await viaApi(admin, '/owner-admin');
    await viaApi(otherTeacher, '/owner-teacher');
    const student = await db().user.update({ where: { id: w.student.id }, data: { triggerAdmin: true } });
    for (const [path, ownerId] of [
      ['/owner-student', student.id],
      ['/owner-gone', null],
    ] as const) {
      const secret = encryptSecret(newSigningSecret(), server.serverKey);
      const target = await db().triggerTarget.create({
        data: { schoolId: w.school.id, url: url(path), secret, ownerId },
      });
      await db().triggerSubscription.create({ data: { targetId: target.id, trigger: 'grades', includeObject: true } });
    }

    const set = await (await clients.rest(w.teacher)).put(`/sections/${room.id}/grades`, {
      grades: {
        grade: [
          { assignment_id: item.id, enrollment_id: own, grade: 6, comment: 'Released note', comment_status: 1 },
          { assignment_id: item.id, enrollment_id: theirs, grade: 9, comment: 'Unreleased note' },
        ],
      },
    });
    expect(set.status).toBe(207);
    await deliverAll();

    const entriesAt = (path: string) =>
      (bodies.get(path) as { type: string; data: Record<string, unknown>[] }[])
        .filter((one) => one.type === 'grades.update')
        .flatMap((one) => one.data);
    const ids = (enrollmentId: number) => ({
      realm: 'section',
      section_id: room.id,
      realm_id: room.id,
      enrollment_id: enrollmentId,
      assignment_id: item.id,
    });
    expect(entriesAt('/owner-admin')).toEqual([
      expect.objectContaining({
        ...ids(own),
        object: expect.objectContaining({ enrollment_id: own, grade: 6, comment: 'Released note', comment_status: 1 }),
      }),
      expect.objectContaining({
        ...ids(theirs),
        object: expect.objectContaining({
          enrollment_id: theirs,
          grade: 9,
          comment: 'Unreleased note',
          comment_status: 0,
        }),
      }),
    ]);
    // Who may not read the section's grades gets the entries' ids and no object.
    for (const path of ['/owner-student', '/owner-teacher', '/owner-gone']) {
      expect(entriesAt(path), path).toEqual([ids(own), ids(theirs)]);
    }
    // The delivery log, which trigger administrators read, holds what was sent.
    const logged = await db().webhookDelivery.findMany({
      where: { target: { url: url('/owner-student') } },
      select: { payload: true },
    });
    expect(JSON.stringify(logged)).not.toMatch(/Unreleased note|Released note/);
  });
});
