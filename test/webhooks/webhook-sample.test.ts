import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';

// The receiver listens on 127.0.0.1 over plain http: both are refused unless the configuration opens them.
const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'on' });
const clients = clientsFor(server);

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Records each request and answers it by path: `/status/<n>` with n, `/slow` after the sample's deadline. */
const received: Received[] = [];
const slowAnswers: ServerResponse[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (request.url === '/slow') return slowAnswers.push(response);
    const status = Number(/^\/status\/(\d+)$/.exec(request.url!)?.[1] ?? 200);
    response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
  });
});
const urlOf = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

let world: World & { admin: { id: number }; otherAdmin: { id: number } };
let admin: GraphQLClient;
let otherAdmin: GraphQLClient;
let teacher: GraphQLClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const created = await createWorld();
  world = {
    ...created,
    admin: await createUser(created.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
    otherAdmin: await createUser(created.otherSchool.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
  };
  [admin, otherAdmin, teacher] = await Promise.all([
    clients.graphql(world.admin),
    clients.graphql(world.otherAdmin),
    clients.graphql(world.teacher),
  ]);
});
afterAll(async () => {
  for (const response of slowAnswers) response.destroy();
  await new Promise((resolve) => receiver.close(resolve));
});

async function newTarget(path: string): Promise<{ id: string; secret: string }> {
  const answer = await admin(
    `mutation($input: CreateTriggerTargetInput!) {
    createTriggerTarget(input: $input) { triggerTarget { id: databaseId secret } userErrors { message } } }`,
    { input: { url: urlOf(path) } },
  );
  expect(answer.data.createTriggerTarget.userErrors).toEqual([]);
  return answer.data.createTriggerTarget.triggerTarget;
}

const send = `mutation($targetId: ID!, $trigger: String!, $operation: String) {
  sendSampleEvent(input: { targetId: $targetId, trigger: $trigger, operation: $operation }) {
    sampleEventDelivery { targetId url type webhookId payload statusCode succeeded latencyMs responseBody error }
    userErrors { field code message }
  } }`;
/** sendSampleEvent's payload when it sent nothing. */
const refusedSample = (field: string, code: string, message: string) => ({
  sampleEventDelivery: null,
  userErrors: [{ field: ['input', field], code, message }],
});

describe('sendSampleEvent', () => {
  it("POSTs a signed sample of the trigger and answers with the receiver's status and latency; nothing is logged or recorded", async () => {
    const target = await newTarget('/hooks');
    const events = await watchDomainEvents();
    const deliveriesBefore = await db().webhookDelivery.count();

    const answer = await admin(send, { targetId: target.id, trigger: 'group', operation: 'update' });
    const sample = answer.data.sendSampleEvent.sampleEventDelivery;
    expect(sample).toMatchObject({
      targetId: target.id,
      url: urlOf('/hooks'),
      type: 'group.update',
      statusCode: 200,
      succeeded: true,
      responseBody: 'answered 200',
      error: null,
    });
    expect(sample.latencyMs).toBeGreaterThanOrEqual(0);
    expect(sample.webhookId).toMatch(/^sample_[0-9a-f-]{36}$/);

    // What the receiver got: the event object, in the real platform's shape, signed with the target's secret.
    const request = received.find((one) => one.headers['webhook-id'] === sample.webhookId)!;
    expect(request.path).toBe('/hooks');
    const event = JSON.parse(request.body);
    expect(event).toEqual({
      uid: world.admin.id,
      timestamp: expect.any(Number),
      type: 'group.update',
      data: [{ realm: 'school', school_id: world.school.id, realm_id: world.school.id }],
    });
    expect(JSON.parse(sample.payload)).toEqual(event);
    expect(Math.abs(event.timestamp - Date.now() / 1000)).toBeLessThan(60);
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    expect(new Webhook(target.secret).verify(request.body, headers)).toEqual(event);
    expect(request.headers['user-agent']).toBe('Lectern-Webhooks/1');

    expect(await db().webhookDelivery.count()).toBe(deliveriesBefore);
    expect(await events()).toEqual([]);
  });

  it("takes the trigger's first operation by default, and names an operation the trigger does not have", async () => {
    const target = await newTarget('/default-operation');
    const answer = await admin(send, { targetId: target.id, trigger: 'friend_request' });
    expect(answer.data.sendSampleEvent.sampleEventDelivery).toMatchObject({
      type: 'friend_request.create',
      statusCode: 200,
    });

    const wrong = await admin(send, { targetId: target.id, trigger: 'grades', operation: 'delete' });
    expect(wrong.data.sendSampleEvent).toEqual(
      refusedSample('operation', 'INVALID', "must be one of the trigger's operations: update"),
    );
  });

  it('reports what the receiver answered, a failure to connect, and no answer within 5 seconds', async () => {
    const target = await newTarget('/status/503');
    const failing = (await admin(send, { targetId: target.id, trigger: 'blog_post' })).data.sendSampleEvent;
    expect(failing.sampleEventDelivery).toMatchObject({
      type: 'blog_post.create',
      statusCode: 503,
      succeeded: false,
      responseBody: 'answered 503',
      error: null,
    });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await admin(
      `mutation($input: CreateTriggerTargetInput!) { createTriggerTarget(input: $input) { triggerTarget { id: databaseId } } }`,
      { input: { url: `http://127.0.0.1:${port}/gone` } },
    );
    const unreachableId = unreachable.data.createTriggerTarget.triggerTarget.id;
    const refused = (await admin(send, { targetId: unreachableId, trigger: 'group' })).data.sendSampleEvent
      .sampleEventDelivery;
    expect(refused).toMatchObject({ statusCode: null, succeeded: false, responseBody: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);

    const slow = await newTarget('/slow');
    const timedOut = (await admin(send, { targetId: slow.id, trigger: 'group' })).data.sendSampleEvent
      .sampleEventDelivery;
    expect(timedOut).toMatchObject({ statusCode: null, succeeded: false, error: 'no answer within 5000 ms' });
    expect(timedOut.latencyMs).toBeGreaterThanOrEqual(4_900);
  }, 20_000);

  it('names an unknown trigger in a userError on input.trigger, and sends nothing', async () => {
    const target = await newTarget('/unknown-trigger');
    for (const trigger of ['report_card', 'trigger_target', 'nope']) {
      expect((await admin(send, { targetId: target.id, trigger })).data.sendSampleEvent).toEqual(
        refusedSample('trigger', 'INVALID', `The trigger with name ${trigger} does not exist`),
      );
    }
    expect(received.filter((one) => one.path === '/unknown-trigger')).toEqual([]);
  });

  it("is for the trigger administrators of the target's school: FORBIDDEN for others, not found for another school's", async () => {
    const target = await newTarget('/guarded');
    const refused = {
      ...forbidden('Only users with access to trigger administration manage trigger targets and subscriptions'),
      data: { sendSampleEvent: null },
    };
    expect(refusal(await teacher(send, { targetId: target.id, trigger: 'group' }))).toEqual(refused);
    // Refused before the trigger is looked at: the refusal tells nothing about triggers either.
    expect(refusal(await teacher(send, { targetId: target.id, trigger: 'nope' }))).toEqual(refused);
    expect((await otherAdmin(send, { targetId: target.id, trigger: 'group' })).data.sendSampleEvent).toEqual(
      refusedSample('targetId', 'NOT_FOUND', `TriggerTarget ${target.id} was not found`),
    );
    expect((await admin(send, { targetId: '999999999', trigger: 'group' })).data.sendSampleEvent).toEqual(
      refusedSample('targetId', 'NOT_FOUND', 'TriggerTarget 999999999 was not found'),
    );
    expect(received.filter((one) => one.path === '/guarded')).toEqual([]);
  });
});
