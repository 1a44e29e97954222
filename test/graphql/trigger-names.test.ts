import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import { createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

// Triggers read as the TriggerName enum; what was read subscribes as it is, and /v1 keeps its lowercase names.

const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: 'receiver.test' });
const clients = clientsFor(server);
let admin: GraphQLClient;
let adminOverRest: RestClient;
let target: string;

beforeAll(async () => {
  const world = await createWorld();
  const triggerAdmin = await createUser(world.school.id, 'TEACHER', { triggerAdmin: true });
  admin = await clients.graphql(triggerAdmin);
  adminOverRest = await clients.rest(triggerAdmin);
  const created = await adminOverRest.post('/triggers/targets', { target: 'https://receiver.test/hook' });
  expect(created.status).toBe(201);
  target = String(created.json.id);
});

const subscribe = (trigger: string) =>
  admin(
    `mutation($input: UpdateTriggerSubscriptionsInput!) { updateTriggerSubscriptions(input: $input) {
      triggerSubscriptionUpdate { results { status message item { trigger } } } } }`,
    { input: { subscriptions: [{ targetId: target, trigger, subscribed: true }] } },
  ).then((answer) => answer.data.updateTriggerSubscriptions.triggerSubscriptionUpdate.results);

describe('trigger names', () => {
  it('subscribes with a name `triggers` read, and lists the subscription by it; /v1 lists the lowercase name', async () => {
    const { data } = await admin('{ triggers { name } }');
    const groupMember = data.triggers
      .map((trigger: { name: string }) => trigger.name)
      .find((name: string) => name === 'GROUP_MEMBER');
    expect(groupMember).toBe('GROUP_MEMBER');
    expect(await subscribe(groupMember)).toEqual([
      { status: 'APPLIED', message: null, item: { trigger: 'GROUP_MEMBER' } },
    ]);
    expect(await subscribe('blog_post')).toEqual([
      { status: 'APPLIED', message: null, item: { trigger: 'blog_post' } },
    ]);
    expect(
      (await db().triggerSubscription.findMany({ where: { targetId: Number(target) }, orderBy: { id: 'asc' } })).map(
        (row) => row.trigger,
      ),
    ).toEqual(['group_member', 'blog_post']);

    const listed = await admin('{ triggerSubscriptions(limit: 200) { items { trigger } } }');
    expect(listed.data.triggerSubscriptions.items).toEqual([{ trigger: 'GROUP_MEMBER' }, { trigger: 'BLOG_POST' }]);
    const overRest = await adminOverRest.get('/triggers/subscriptions');
    expect(overRest.json.subscription.map((item: { trigger: string }) => item.trigger)).toEqual([
      'group_member',
      'blog_post',
    ]);
  });

  it('answers each item of a bulk change with a status enum: INVALID for an unknown trigger, NOT_FOUND for a target', async () => {
    const results = await admin(
      `mutation($input: UpdateTriggerSubscriptionsInput!) { updateTriggerSubscriptions(input: $input) {
        triggerSubscriptionUpdate { results { status } } } }`,
      {
        input: {
          subscriptions: [
            { targetId: target, trigger: 'REPORT_CARD', subscribed: true },
            { targetId: '999999999', trigger: 'GROUP', subscribed: true },
            { targetId: target, trigger: 'GROUP', subscribed: false },
          ],
        },
      },
    );
    expect(results.data.updateTriggerSubscriptions.triggerSubscriptionUpdate.results).toEqual([
      { status: 'INVALID' },
      { status: 'NOT_FOUND' },
      { status: 'APPLIED' },
    ]);
  });
});
