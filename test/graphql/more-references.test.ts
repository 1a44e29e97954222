import { beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../../src/auth/secrets';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { newSigningSecret } from '../../src/webhooks/signing';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createFriendRequest, createSection, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

// Beside the remaining `...Id` fields of mutation answers is the object each names, as the viewer may see it.

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let schoolAdmin: GraphQLClient;

beforeAll(async () => {
  w = await createWorld();
  schoolAdmin = await clients.graphql(w.schoolAdmin);
});

const user = (row: { id: number }) => ({ id: encodeGlobalId('User', row.id), databaseId: String(row.id) });

describe('AnsweredFriendRequest.requester', () => {
  it('is the user who asked', async () => {
    const asked = await createUser(w.school.id, 'STUDENT');
    const request = await createFriendRequest(w.student.id, asked.id);
    const answered = await (await clients.graphql(asked))(
      `mutation($input: AnswerFriendRequestInput!) { answerFriendRequest(input: $input) {
        answeredFriendRequest { requesterId requester { id databaseId } } } }`,
      { input: { userId: String(asked.id), id: String(request.id), action: 'ACCEPT' } },
    );
    expect(answered.data.answerFriendRequest.answeredFriendRequest).toEqual({
      requesterId: encodeGlobalId('User', w.student.id),
      requester: user(w.student),
    });
  });
});

describe('IssuedApiClient.user', () => {
  it('is the user the credentials act as', async () => {
    const issued = await schoolAdmin(
      `mutation($input: CreateApiClientInput!) { createApiClient(input: $input) {
        issuedApiClient { userId user { id databaseId } } } }`,
      { input: { userId: String(w.teacher.id) } },
    );
    expect(issued.data.createApiClient.issuedApiClient).toEqual({
      userId: encodeGlobalId('User', w.teacher.id),
      user: user(w.teacher),
    });
  });
});

describe('ParentLink.parent and child', () => {
  it('are the two users linked', async () => {
    const child = await createUser(w.school.id, 'STUDENT');
    const parent = await createUser(w.school.id, 'PARENT');
    const linked = await schoolAdmin(
      `mutation($input: LinkParentInput!) { linkParent(input: $input) {
        parentLink { parentId childId linked parent { id databaseId } child { id databaseId } } } }`,
      { input: { parentId: String(parent.id), childId: String(child.id) } },
    );
    expect(linked.data.linkParent.parentLink).toEqual({
      parentId: encodeGlobalId('User', parent.id),
      childId: encodeGlobalId('User', child.id),
      linked: true,
      parent: user(parent),
      child: user(child),
    });
  });
});

describe('AttendanceResult.enrollment', () => {
  it("is the written item's enrollment; null for an item that was not written", async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const enrollment = await db().enrollment.findFirstOrThrow({
      where: { sectionId: section.id, userId: w.student.id },
    });
    const set = await (await clients.graphql(w.teacher))(
      `mutation($input: SetAttendanceInput!) { setAttendance(input: $input) {
        results { enrollmentId code enrollment { id databaseId user { databaseId } } } } }`,
      {
        input: {
          sectionId: String(section.id),
          records: [
            { enrollmentId: String(enrollment.id), date: '2026-04-01', status: 'ABSENT' },
            { enrollmentId: '2147483647', date: '2026-04-01', status: 'LATE' },
          ],
        },
      },
    );
    expect(set.data.setAttendance.results).toEqual([
      {
        enrollmentId: String(enrollment.id),
        code: 'WRITTEN',
        enrollment: {
          id: encodeGlobalId('Enrollment', enrollment.id),
          databaseId: String(enrollment.id),
          user: { databaseId: String(w.student.id) },
        },
      },
      { enrollmentId: '2147483647', code: 'NOT_FOUND', enrollment: null },
    ]);
  });
});

describe('TriggerSubscriptionItem.target and SampleEventDelivery.target', () => {
  it("are the school's target named; null for a target that is not the school's", async () => {
    await db().user.update({ where: { id: w.districtAdmin.id }, data: { triggerAdmin: true } });
    const admin = await clients.graphql(w.districtAdmin);
    const secret = encryptSecret(newSigningSecret(), server.serverKey);
    const target = await db().triggerTarget.create({
      data: { schoolId: w.school.id, url: 'https://receiver.test/hook', secret },
    });
    const farTarget = await db().triggerTarget.create({
      data: { schoolId: w.farSchool.id, url: 'https://receiver.test/far', secret },
    });
    const targetObject = { id: encodeGlobalId('TriggerTarget', target.id), url: 'https://receiver.test/hook' };

    const changed = await admin(
      `mutation($input: UpdateTriggerSubscriptionsInput!) { updateTriggerSubscriptions(input: $input) {
        triggerSubscriptionUpdate { results { status item { targetId target { id url } } } } } }`,
      {
        input: {
          subscriptions: [
            { targetId: String(target.id), trigger: 'user', subscribed: true },
            { targetId: String(farTarget.id), trigger: 'user', subscribed: true },
          ],
        },
      },
    );
    expect(changed.data.updateTriggerSubscriptions.triggerSubscriptionUpdate.results).toEqual([
      { status: 'APPLIED', item: { targetId: String(target.id), target: targetObject } },
      { status: 'NOT_FOUND', item: { targetId: String(farTarget.id), target: null } },
    ]);

    // receiver.test does not resolve: the sample is answered with the failure, and names its target all the same.
    const sample = await admin(
      `mutation($id: ID!) { sendSampleEvent(input: { targetId: $id, trigger: "group" }) {
        sampleEventDelivery { targetId target { id url } } } }`,
      { id: String(target.id) },
    );
    expect(sample.data.sendSampleEvent.sampleEventDelivery).toEqual({
      targetId: String(target.id),
      target: targetObject,
    });
  });
});

describe('WebhookDelivery.event', () => {
  it('is the domain event the delivery reports; null once the event is no longer kept', async () => {
    await db().user.update({ where: { id: w.districtAdmin.id }, data: { triggerAdmin: true } });
    const admin = await clients.graphql(w.districtAdmin);
    const target = await db().triggerTarget.create({
      data: { schoolId: w.school.id, url: 'https://receiver.test/log', secret: 'unused' },
    });
    const recorded = await db().domainEvent.create({
      data: {
        type: 'group.create',
        realmType: 'SCHOOL',
        realmId: w.school.id,
        objectId: 7,
        actorId: w.districtAdmin.id,
        schoolId: w.school.id,
      },
    });
    for (const eventId of [recorded.id, recorded.id + 1_000_000n])
      await db().webhookDelivery.create({
        data: { targetId: target.id, eventId, type: 'group.create', payload: {}, status: 'SUCCEEDED' },
      });

    const log = await admin(
      `query($id: ID!) { node(id: $id) { ... on TriggerTarget { deliveriesConnection { nodes {
        eventId event { id typeName objectId objectGlobalId actor { databaseId } } } } } } }`,
      { id: encodeGlobalId('TriggerTarget', target.id) },
    );
    expect(log.errors).toBeUndefined();
    expect(log.data.node.deliveriesConnection.nodes).toEqual([
      {
        eventId: String(recorded.id),
        event: {
          id: String(recorded.id),
          typeName: 'group.create',
          objectId: '7',
          objectGlobalId: encodeGlobalId('Group', 7),
          actor: { databaseId: String(w.districtAdmin.id) },
        },
      },
      { eventId: String(recorded.id + 1_000_000n), event: null },
    ]);
  });
});
