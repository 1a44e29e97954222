import { encryptSecret } from '../../../src/auth/secrets';
import { db } from '../../../src/db/database';
import { newSigningSecret } from '../../../src/webhooks/signing';
import { outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const newTarget = (schoolId: number) =>
  db().triggerTarget.create({ data: { schoolId, url: 'https://receiver.test/hook', secret: 'sealed' } });
const newDelivery = async (schoolId: number) =>
  db().webhookDelivery.create({
    data: {
      targetId: (await newTarget(schoolId)).id,
      eventId: 1n,
      type: 'group.create',
      payload: {},
      status: 'SUCCEEDED',
    },
  });
const hasId = (items: { id: number | string }[], object: { id: number }) =>
  items.some((item) => String(item.id) === id(object));

// Trigger administration is a grant, not a role: here the district administrator has it, and so has the outsider (a
// district administrator elsewhere), who must still not reach this school's targets.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'triggers',
  async (world, server) => {
    await db().user.updateMany({
      where: { id: { in: [world.districtAdmin.id, world.outsider.id] } },
      data: { triggerAdmin: true },
    });
    const target = await newTarget(world.school.id);
    await db().triggerSubscription.create({ data: { targetId: target.id, trigger: 'group' } });
    // A secret that unseals, for what signs (sample events).
    const signingTarget = await db().triggerTarget.create({
      data: {
        schoolId: world.school.id,
        url: 'https://receiver.test/sample',
        secret: encryptSecret(newSigningSecret(), server.serverKey),
      },
    });
    return { target, signingTarget };
  },
  [
    {
      route: 'GET /triggers/targets',
      name: "the school's targets, to its trigger administrators",
      expect: 'h f f f f f o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.target, f.target),
    },
    {
      route: 'POST /triggers/targets',
      name: 'trigger administrators',
      expect: 'o f f f f f o',
      request: () => ({ body: { target: 'https://receiver.test/new' } }),
    },
    {
      route: 'PUT /triggers/targets/{id}',
      name: 'a target of the school',
      expect: 'h f f f f f o',
      request: (f, caller) => ({ params: { id: f.target.id }, body: { description: `by ${caller.person}` } }),
    },
    {
      route: 'DELETE /triggers/targets/{id}',
      name: 'a target of the school',
      expect: 'h f f f f f o',
      request: async (f) => ({ params: { id: (await newTarget(f.school.id)).id } }),
    },
    {
      route: 'GET /triggers/subscriptions',
      name: "the school's subscriptions",
      expect: 'h f f f f f o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => answer.subscription.some((item: { target_id: number }) => item.target_id === f.target.id),
    },
    {
      route: 'PUT /triggers/subscriptions',
      name: 'a target of the school (an unknown target elsewhere)',
      expect: 'h f f f f f o',
      request: (f) => ({ body: { subscription: [{ target_id: f.target.id, trigger: 'blog_post', subscribed: 1 }] } }),
      finds: (answer) => answer.subscription[0].status === 200,
    },

    {
      graphql: '{ triggers { name } }',
      name: 'the catalogue, to everyone',
      expect: 'o o o o o o o',
      finds: (answer) => answer.some((trigger: { name: string }) => trigger.name === 'GROUP'),
    },
    {
      graphql: '{ triggersConnection(first: 200) { edges { node { name } } } }',
      name: 'the catalogue, to everyone',
      expect: 'o o o o o o o',
      finds: (answer) => answer.edges.some((edge: { node: { name: string } }) => edge.node.name === 'GROUP'),
    },
    {
      graphql: '{ triggerTargets(limit: 200) { items { id: databaseId } } }',
      name: "the school's targets",
      expect: 'h f f f f f o',
      finds: (answer, f) => hasId(answer.items, f.target),
    },
    {
      graphql: '{ triggerTargetsConnection(first: 200) { edges { node { id: databaseId } } } }',
      name: "the school's targets",
      expect: 'h f f f f f o',
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.target,
        ),
    },
    {
      graphql: '{ triggerSubscriptions(limit: 200) { items { target { id: databaseId } } } }',
      name: "the school's subscriptions",
      expect: 'h f f f f f o',
      finds: (answer, f) => answer.items.some((item: { target: { id: string } }) => item.target.id === id(f.target)),
    },
    {
      graphql: '{ triggerSubscriptionsConnection(first: 200) { edges { node { target { id: databaseId } } } } }',
      name: "the school's subscriptions",
      expect: 'h f f f f f o',
      finds: (answer, f) =>
        answer.edges.some((edge: { node: { target: { id: string } } }) => edge.node.target.id === id(f.target)),
    },
    {
      graphql: `mutation($input: CreateTriggerTargetInput!) { createTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'trigger administrators',
      expect: 'o f f f f f o',
      variables: () => ({ input: { url: 'https://receiver.test/new' } }),
    },
    {
      graphql: `mutation($input: UpdateTriggerTargetInput!) { updateTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: (f, caller) => ({ input: { id: id(f.target), description: `by ${caller.person}` } }),
    },
    {
      graphql: `mutation($input: RotateTriggerTargetSecretInput!) { rotateTriggerTargetSecret(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: id(await newTarget(f.school.id)) } }),
    },
    {
      graphql: `mutation($input: DeleteTriggerTargetInput!) { deleteTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: id(await newTarget(f.school.id)) } }),
    },
    {
      graphql: `mutation($input: UpdateTriggerSubscriptionsInput!) { updateTriggerSubscriptions(input: $input) {
        ${outcome} triggerSubscriptionUpdate { results { status } } } }`,
      name: 'a target of the school (an unknown target elsewhere)',
      expect: 'h f f f f f o',
      variables: (f) => ({ input: { subscriptions: [{ targetId: id(f.target), trigger: 'user', subscribed: true }] } }),
      finds: (answer) => answer.triggerSubscriptionUpdate.results[0].status === 'APPLIED',
    },
    {
      graphql: `mutation($input: PauseTriggerTargetInput!) { pauseTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: id(await newTarget(f.school.id)) } }),
    },
    {
      graphql: `mutation($input: ResumeTriggerTargetInput!) { resumeTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: id(await newTarget(f.school.id)) } }),
    },
    {
      graphql: `mutation($input: ReplayTriggerTargetInput!) { replayTriggerTarget(input: $input) { ${outcome} } }`,
      name: 'a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: id(await newTarget(f.school.id)), since: '2020-01-01T00:00:00Z' } }),
    },
    // receiver.test does not resolve: the sample is sent and answered with the failure (no status), nothing written.
    {
      graphql: `mutation($id: ID!) { sendSampleEvent(input: { targetId: $id, trigger: "group" }) {
        ${outcome} sampleEventDelivery { type statusCode error } } }`,
      name: 'a sample event to a target of the school',
      expect: 'h f f f f f o',
      variables: (f) => ({ id: id(f.signingTarget) }),
      finds: ({ sampleEventDelivery: sample }) =>
        sample.type === 'group.create' && sample.statusCode === null && sample.error !== null,
    },
    {
      graphql: `mutation($input: RedeliverWebhookInput!) { redeliverWebhook(input: $input) { ${outcome} } }`,
      name: 'a delivery to a target of the school',
      expect: 'h f f f f f o',
      variables: async (f) => ({ input: { id: String((await newDelivery(f.school.id)).id) } }),
    },
  ],
);
