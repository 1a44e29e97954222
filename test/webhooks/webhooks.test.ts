import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encryptSecret } from '../../src/auth/secrets';
import { db } from '../../src/db/database';
import { newSigningSecret } from '../../src/webhooks/signing';
import {
  type WebhookWorker,
  backoffMs,
  createWebhookWorker,
  lostAttemptError,
  pruneDeliveryLog,
} from '../../src/webhooks/worker';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin, v1 } from '../support/wire';

// The receiver listens on 127.0.0.1 over plain http: both are refused unless the configuration opens them.
const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'on' });
const clients = clientsFor(server);

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A webhook receiver on a loopback port: records every request and answers each path with what the test queued for
 * it (200 "ok" otherwise). Targets of earlier tests stay subscribed, so tests look at their own paths only.
 */
function createReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, ((response: ServerResponse) => void)[]>();
  const inFlight = new Map<string, number>();
  const mostInFlight = new Map<string, number>();
  let held: (() => void)[] | null = null;
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    const path = request.url!;
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
      mostInFlight.set(path, Math.max(mostInFlight.get(path) ?? 0, inFlight.get(path)!));
      const answer = () => {
        inFlight.set(path, inFlight.get(path)! - 1);
        (answers.get(path)?.shift() ?? ((r: ServerResponse) => r.writeHead(200).end('ok')))(response);
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`,
    listen: () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => http.close(resolve)),
    answer: (path: string, status: number, headers: Record<string, string> = {}, body = '') =>
      answers.set(path, [...(answers.get(path) ?? []), (r) => r.writeHead(status, headers).end(body)]),
    /** Holds answers until `release`, to see how many requests are open at once. */
    hold: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    mostInFlight: (path: string) => mostInFlight.get(path) ?? 0,
    requestsAt: (path: string) => received.filter((r) => r.path === path),
    bodiesAt: (path: string) => received.filter((r) => r.path === path).map((r) => JSON.parse(r.body)),
  };
}

const receiver = createReceiver();
let world: World & { admin: { id: number }; otherAdmin: { id: number } };
let admin: RestClient;
let otherAdmin: RestClient;
let teacher: RestClient;
let gqlAdmin: GraphQLClient;
let clock: Date;
let worker: WebhookWorker;
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));
type Round = Awaited<ReturnType<WebhookWorker['runOnce']>>;
/**
 * Runs rounds until every committed event is fanned out, summing what they did. Events become readable only once
 * every older transaction of the server has ended (on a shared PostgreSQL server, other databases' too), so one round
 * may find nothing yet.
 */
async function deliver(instance: WebhookWorker = worker): Promise<Round> {
  const total: Round = { events: 0, delivered: 0, retry: 0, failed: 0, gone: 0 };
  await expect
    .poll(
      async () => {
        const round = await instance.runOnce();
        for (const key of Object.keys(total) as (keyof Round)[]) total[key] += round[key];
        return instance.caughtUp();
      },
      { interval: 20 },
    )
    .toBe(true);
  return total;
}
const newWorker = (options: Partial<Parameters<typeof createWebhookWorker>[0]> = {}) =>
  createWebhookWorker({
    serverKey: server.serverKey,
    linkBase: testOrigin,
    now: () => clock,
    random: () => 1,
    ...options,
  });

beforeAll(async () => {
  await receiver.listen();
  const created = await createWorld();
  world = {
    ...created,
    admin: await createUser(created.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
    otherAdmin: await createUser(created.otherSchool.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
  };
  [admin, otherAdmin, teacher] = await Promise.all([
    clients.rest(world.admin),
    clients.rest(world.otherAdmin),
    clients.rest(world.teacher),
  ]);
  gqlAdmin = await clients.graphql(world.admin);
});
afterAll(() => receiver.close());

beforeEach(async () => {
  clock = new Date();
  worker = newWorker();
  // Each test starts with no targets: earlier tests' targets and what is queued for them are not its business.
  await deliver();
  await db().triggerTarget.deleteMany();
});

/** A target of `client`'s school at `path` of the receiver, subscribed to `triggers`. */
async function subscribedTarget(client: RestClient, path: string, triggers: string[], includeObject = 0) {
  const created = await client.post('/triggers/targets', { target: receiver.url(path) });
  expect(created.status).toBe(201);
  const id = created.json.id as number;
  const subscribed = await client.put('/triggers/subscriptions', {
    subscription: triggers.map((trigger) => ({ target_id: id, trigger, subscribed: 1, include_object: includeObject })),
  });
  expect(subscribed.json.subscription.map((item: { status: number }) => item.status)).toEqual(triggers.map(() => 200));
  return id;
}

const secretOf = async (id: number) =>
  (await gqlAdmin('{ triggerTargets(limit: 200) { items { id: databaseId secret } } }')).data.triggerTargets.items.find(
    (target: { id: string }) => target.id === String(id),
  ).secret as string;

const deliveryOf = (targetId: number) =>
  db().webhookDelivery.findFirstOrThrow({ where: { targetId }, include: { attemptLog: { orderBy: { id: 'asc' } } } });

describe('webhook delivery', () => {
  it('POSTs a signed event object with the object to each subscribed target of the school, once', async () => {
    const withObject = await subscribedTarget(admin, '/groups-full', ['group'], 1);
    await subscribedTarget(admin, '/posts-only', ['blog_post']);
    await subscribedTarget(otherAdmin, '/other-school', ['group']);
    const created = await teacher.post('/groups', { title: 'Chess club' });
    const groupId = Number(created.json.id);

    expect(await deliver()).toMatchObject({ delivered: 1, retry: 0, failed: 0 });
    const [event] = receiver.bodiesAt('/groups-full');
    expect(event).toEqual({
      uid: world.teacher.id,
      timestamp: expect.any(Number),
      type: 'group.create',
      data: [
        {
          realm: 'group',
          group_id: groupId,
          realm_id: groupId,
          object: { ...created.json, links: { self: `${v1}/groups/${groupId}` } },
        },
      ],
    });
    expect(Math.abs(event.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(receiver.bodiesAt('/posts-only')).toEqual([]);
    expect(receiver.bodiesAt('/other-school')).toEqual([]);

    // Standard Webhooks: the receiver verifies with the target's secret; the id is stable per event.
    const request = receiver.received.find((r) => r.path === '/groups-full')!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toMatch(/^evt_\d+$/);
    const headers = {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    };
    expect(new Webhook(await secretOf(withObject)).verify(request.body, headers)).toEqual(event);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(request.body, headers),
    ).toThrow();

    const delivery = await deliveryOf(withObject);
    expect(delivery).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
      lastStatusCode: 200,
      leasedUntil: null,
      type: 'group.create',
    });
    expect(delivery.attemptLog).toMatchObject([{ statusCode: 200, responseBody: 'ok', error: null }]);

    // A later round (or a restarted worker, reading the stored cursor) sends nothing again.
    expect(await deliver(newWorker())).toMatchObject({ events: 0, delivered: 0 });
    expect(receiver.bodiesAt('/groups-full')).toHaveLength(1);
  });

  it('carries a calendar event and a page as their /v1 views show them, in the realm they belong to', async () => {
    await subscribedTarget(admin, '/school-life', ['calendar_event', 'page'], 1);
    const section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    const description = '<p>Bring <b>lunch</b></p><img src=x onerror=alert(1)>';
    const event = await teacher.post(`/sections/${section.id}/events`, {
      title: 'Field trip',
      start: '2026-05-14 08:00:00',
      description,
    });
    const page = await teacher.post(`/sections/${section.id}/pages`, {
      title: 'Permission slip',
      body: '<p>Sign it</p>',
    });
    await deliver();
    const realm = { realm: 'section', section_id: section.id, realm_id: section.id };
    // The object is the view the target's owner, a school administrator, gets: they may change both. HTML members
    // carry what was stored, sanitized on write.
    expect(event.json.description).toBe('<p>Bring <b>lunch</b></p><img src="x" />');
    expect(receiver.bodiesAt('/school-life').map((sent) => [sent.type, sent.data])).toEqual([
      ['calendar_event.create', [{ ...realm, object: event.json }]],
      ['page.create', [{ ...realm, object: page.json }]],
    ]);
  });

  it('carries each item of an attendance write as an entry with its ids and the attendance record itself', async () => {
    await subscribedTarget(admin, '/attendance', ['attendance'], 1);
    await subscribedTarget(admin, '/attendance-ids', ['attendance']);
    // A target a student made while students could still hold trigger administration: it gets what they may read.
    const studentsTarget = await db().triggerTarget.create({
      data: {
        schoolId: world.school.id,
        url: receiver.url('/attendance-student'),
        secret: encryptSecret(newSigningSecret(), server.serverKey),
        ownerId: world.student.id,
      },
    });
    await db().triggerSubscription.create({
      data: { targetId: studentsTarget.id, trigger: 'attendance', includeObject: true },
    });
    const other = await createUser(world.school.id, 'STUDENT');
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
      { userId: other.id },
    ]);
    const enrollments = await db().enrollment.findMany({
      where: { sectionId: section.id, admin: false },
      orderBy: { id: 'asc' },
    });
    const [absent, present] = [
      enrollments.find((e) => e.userId === world.student.id)!.id,
      enrollments.find((e) => e.userId === other.id)!.id,
    ];
    const taken = await teacher.put(`/sections/${section.id}/attendance`, {
      attendances: {
        attendance: [
          { enrollment_id: absent, date: '2026-01-05', status: 2, comment: 'Sick' },
          { enrollment_id: present, date: '2026-01-05', status: 1 },
        ],
      },
    });
    expect(taken.status).toBe(200);
    expect(await deliver()).toMatchObject({ delivered: 3, failed: 0 });
    const entry = (enrollment: number) => ({
      realm: 'section',
      section_id: section.id,
      realm_id: section.id,
      enrollment_id: enrollment,
      date: '2026-01-05',
    });
    // One write is one event, an entry per item; the object is that item's record, as in the platform's attendance
    // event example (a present one too, which the /v1 list leaves out).
    expect(receiver.bodiesAt('/attendance')).toEqual([
      {
        uid: world.teacher.id,
        timestamp: expect.any(Number),
        type: 'attendance.update',
        data: [
          { ...entry(absent), object: { enrollment_id: absent, date: '2026-01-05', status: 2, comment: 'Sick' } },
          { ...entry(present), object: { enrollment_id: present, date: '2026-01-05', status: 1, comment: '' } },
        ],
      },
    ]);
    expect(receiver.bodiesAt('/attendance-ids').map((event) => event.data)).toEqual([[entry(absent), entry(present)]]);
    // The student reads their own record, not their classmate's.
    expect(receiver.bodiesAt('/attendance-student').map((event) => event.data)).toEqual([
      [
        { ...entry(absent), object: { enrollment_id: absent, date: '2026-01-05', status: 2, comment: 'Sick' } },
        entry(present),
      ],
    ]);
  });

  it('leaves the object out without include_object, and for a deleted object', async () => {
    await subscribedTarget(admin, '/plain', ['group']);
    await subscribedTarget(admin, '/deleted', ['group'], 1);
    const created = await teacher.post('/groups', { title: 'Short-lived' });
    expect((await teacher.delete(`/groups/${created.json.id}`)).status).toBe(204);
    await deliver();
    const id = Number(created.json.id);
    const bare = { realm: 'group', group_id: id, realm_id: id };
    expect(receiver.bodiesAt('/plain').map((event) => [event.type, event.data])).toEqual([
      ['group.create', [bare]],
      ['group.delete', [bare]],
    ]);
    // Rendered when fanned out: by then the group is gone, so neither event carries it.
    expect(receiver.bodiesAt('/deleted').map((event) => event.data)).toEqual([[bare], [bare]]);
  });

  it('does not send events from before the subscription', async () => {
    const early = await teacher.post('/groups', { title: 'Before' });
    await subscribedTarget(admin, '/late', ['group']);
    await deliver();
    expect(receiver.bodiesAt('/late').map((event) => event.data[0].group_id)).not.toContain(Number(early.json.id));
  });

  it('retries failures with exponential backoff and honours Retry-After, logging each attempt', async () => {
    const target = await subscribedTarget(admin, '/flaky', ['group']);
    receiver.answer('/flaky', 500, {}, 'down');
    receiver.answer('/flaky', 503, { 'retry-after': '600' }, 'busy');
    await teacher.post('/groups', { title: 'Retry me' });

    expect(await deliver()).toMatchObject({ delivered: 0, retry: 1 });
    let delivery = await deliveryOf(target);
    expect(delivery.nextAttemptAt.getTime() - clock.getTime()).toBe(backoffMs(1, () => 1));
    advance(backoffMs(1, () => 1) - 1);
    expect(await deliver()).toMatchObject({ delivered: 0, retry: 0 });
    advance(1);
    expect(await deliver()).toMatchObject({ retry: 1 });
    delivery = await deliveryOf(target);
    // The second backoff (20 s) is shorter than the receiver's Retry-After: 600 s wins.
    expect(delivery.nextAttemptAt.getTime() - clock.getTime()).toBe(600_000);
    advance(600_000);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    delivery = await deliveryOf(target);
    expect(delivery.status).toBe('SUCCEEDED');
    expect(delivery.attemptLog.map(({ statusCode, responseBody }) => [statusCode, responseBody])).toEqual([
      [500, 'down'],
      [503, 'busy'],
      [200, 'ok'],
    ]);
    expect(receiver.bodiesAt('/flaky')).toHaveLength(3);
    expect(new Set(receiver.requestsAt('/flaky').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('draws each backoff between half and all of a doubling ceiling, up to an hour', () => {
    expect([1, 2, 3, 10, 30].map((attempts) => backoffMs(attempts, () => 1))).toEqual([
      10_000, 20_000, 40_000, 3_600_000, 3_600_000,
    ]);
    expect(backoffMs(3, () => 0)).toBe(20_000);
  });

  it('keeps retrying for 72 hours, then gives the delivery up', async () => {
    const target = await subscribedTarget(admin, '/dead', ['group']);
    for (let i = 0; i < 100; i++) receiver.answer('/dead', 500);
    await teacher.post('/groups', { title: 'Never arrives' });
    await deliver();
    for (let hours = 0; hours < 71; hours++) {
      advance(3_600_000);
      expect(await deliver()).toMatchObject({ retry: 1, failed: 0 });
    }
    advance(3_600_000);
    expect(await deliver()).toMatchObject({ retry: 0, failed: 1 });
    expect(await deliveryOf(target)).toMatchObject({ status: 'FAILED', attempts: 73, lastStatusCode: 500 });
    advance(3_600_000);
    await deliver();
    expect(receiver.bodiesAt('/dead')).toHaveLength(73);
  });

  it('unsubscribes a target that answers 410 Gone', async () => {
    const target = await subscribedTarget(admin, '/gone', ['group', 'blog_post']);
    receiver.answer('/gone', 410);
    const events = await watchDomainEvents();
    await teacher.post('/groups', { title: 'Gone' });
    expect(await deliver()).toMatchObject({ gone: 1 });
    expect(await db().triggerSubscription.count({ where: { targetId: target } })).toBe(0);
    expect(await deliveryOf(target)).toMatchObject({ status: 'CANCELLED', lastStatusCode: 410 });
    expect((await events()).map((event) => event[0])).toEqual([
      'group.create',
      'trigger_subscription.delete',
      'trigger_subscription.delete',
    ]);
    await teacher.post('/groups', { title: 'Not sent' });
    await deliver();
    expect(receiver.bodiesAt('/gone')).toHaveLength(1);
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const target = await subscribedTarget(admin, '/rotated', ['group']);
    const old = await secretOf(target);
    await gqlAdmin('mutation($id: ID!) { rotateTriggerTargetSecret(input: { id: $id }) { userErrors { code } } }', {
      id: String(target),
    });
    const renewed = await secretOf(target);
    await teacher.post('/groups', { title: 'Both' });
    await deliver();
    const [request] = receiver.requestsAt('/rotated');
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [old, renewed]) expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();

    // The rotation happened after this test's clock was set: a day and a minute later the old secret is done.
    advance(24 * 3_600_000 + 60_000);
    await teacher.post('/groups', { title: 'New only' });
    await deliver();
    expect(String(receiver.requestsAt('/rotated')[1]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('refuses at delivery a target whose address is not allowed, checked on the address connected to', async () => {
    // `localhost` is not in WEBHOOK_ALLOW_HOSTS and resolves to the loopback: written past the API's own check.
    const target = await subscribedTarget(admin, '/ssrf', ['group']);
    await db().triggerTarget.update({
      where: { id: target },
      data: { url: receiver.url('/ssrf').replace('127.0.0.1', 'localhost') },
    });
    await teacher.post('/groups', { title: 'Not to the loopback' });
    expect(await deliver()).toMatchObject({ retry: 1 });
    expect(receiver.bodiesAt('/ssrf')).toEqual([]);
    const delivery = await deliveryOf(target);
    expect(delivery.lastStatusCode).toBeNull();
    // Refused by the guard's own lookup, which request-filtering-agent's check follows.
    expect(delivery.lastError).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
  });

  it('shares the work between instances without sending an attempt twice, and caps attempts in flight per target', async () => {
    const busy = await subscribedTarget(admin, '/busy', ['group']);
    const quiet = await subscribedTarget(otherAdmin, '/quiet', ['group']);
    for (let i = 0; i < 6; i++) await teacher.post('/groups', { title: `Busy ${i}` });
    const otherTeacher = await clients.rest(await createUser(world.otherSchool.id, 'TEACHER'));
    for (let i = 0; i < 3; i++) await otherTeacher.post('/groups', { title: `Quiet ${i}` });

    // Queued while paused, so that the instances below only send.
    await db().triggerTarget.updateMany({ where: { id: { in: [busy, quiet] } }, data: { pausedAt: new Date() } });
    await deliver();
    await db().triggerTarget.updateMany({ where: { id: { in: [busy, quiet] } }, data: { pausedAt: null } });
    receiver.hold();
    const instances = [
      newWorker({ perTargetConcurrency: 2 }),
      newWorker({ perTargetConcurrency: 2 }),
      newWorker({ perTargetConcurrency: 2 }),
    ];
    const rounds = instances.map((instance) => instance.runOnce());
    await expect.poll(() => receiver.requestsAt('/busy').length + receiver.requestsAt('/quiet').length).toBe(4);
    // Two in flight for each target, over all instances, however many instances ask.
    expect(receiver.requestsAt('/busy')).toHaveLength(2);
    expect(receiver.requestsAt('/quiet')).toHaveLength(2);
    receiver.release();
    await Promise.all(rounds);
    // Released answers let each instance claim more; later rounds send the rest.
    await deliver();
    const ids = (path: string) => receiver.requestsAt(path).map((r) => r.headers['webhook-id']);
    expect(ids('/busy')).toHaveLength(6);
    expect(new Set(ids('/busy')).size).toBe(6);
    expect(new Set(ids('/quiet')).size).toBe(3);
    expect(ids('/quiet')).toHaveLength(3);
    expect([receiver.mostInFlight('/busy'), receiver.mostInFlight('/quiet')]).toEqual([2, 2]);
    for (const target of [busy, quiet]) {
      expect(await db().webhookDelivery.count({ where: { targetId: target, status: { not: 'SUCCEEDED' } } })).toBe(0);
    }
  });

  it('queues a claim beyond the per-target cap here, and gives back unsent what waited until its lease ran short', async () => {
    const target = await subscribedTarget(admin, '/queued', ['group']);
    for (let i = 0; i < 3; i++) await teacher.post('/groups', { title: `Queued ${i}` });
    await db().triggerTarget.update({ where: { id: target }, data: { pausedAt: new Date() } });
    await deliver();
    await db().triggerTarget.update({ where: { id: target }, data: { pausedAt: null } });
    receiver.hold();
    const one = newWorker({ perTargetConcurrency: 1, attemptTimeoutMs: 10_000 });
    const round = one.runOnce();
    // One claim leases all three, but one attempt at a time is sent.
    await expect.poll(() => receiver.requestsAt('/queued').length).toBe(1);
    expect(await db().webhookDelivery.count({ where: { targetId: target, leasedUntil: { not: null } } })).toBe(3);
    // The others would no longer have a whole attempt's time left on their lease: they go back unsent, to be claimed again.
    advance(10_001);
    receiver.release();
    receiver.hold();
    await expect.poll(() => receiver.requestsAt('/queued').length).toBe(2);
    const rows = await db().webhookDelivery.findMany({ where: { targetId: target }, orderBy: { id: 'asc' } });
    expect(rows.map(({ status, attempts }) => [status, attempts])).toEqual([
      ['SUCCEEDED', 1],
      ['PENDING', 1],
      ['PENDING', 1],
    ]);
    // Leased by the second claim (the attempt timeout twice and 5 s from now), not the first.
    expect(rows.slice(1).map(({ leasedUntil }) => leasedUntil!.getTime() - clock.getTime())).toEqual([25_000, 25_000]);
    receiver.release();
    expect(await round).toMatchObject({ delivered: 3, retry: 0 });
    expect(await db().webhookAttempt.count({ where: { delivery: { targetId: target } } })).toBe(3);
    expect(new Set(receiver.requestsAt('/queued').map((r) => r.headers['webhook-id'])).size).toBe(3);
    expect(receiver.requestsAt('/queued')).toHaveLength(3);
    expect(receiver.mostInFlight('/queued')).toBe(1);
  });

  it('logs the attempt of an instance that stopped before recording it at the next claim, so the log misses none sent', async () => {
    const target = await subscribedTarget(admin, '/unrecorded', ['group']);
    await teacher.post('/groups', { title: 'Sent, never recorded' });
    // Fanned out while paused, so that the round below only claims, sends and records.
    await db().triggerTarget.update({ where: { id: target }, data: { pausedAt: new Date() } });
    await deliver();
    await db().triggerTarget.update({ where: { id: target }, data: { pausedAt: null } });
    receiver.hold();
    const claimedAt = clock;
    const round = worker.runOnce();
    await expect.poll(() => receiver.requestsAt('/unrecorded').length).toBe(1);
    // The instance goes once the receiver has the POST: the record of the attempt never reaches the database.
    const record = vi.spyOn(db(), '$executeRaw').mockRejectedValueOnce(new Error('the instance stopped'));
    receiver.release();
    await expect(round).rejects.toThrow('the instance stopped');
    record.mockRestore();
    expect(await deliveryOf(target)).toMatchObject({ status: 'PENDING', attempts: 1, attemptLog: [] });

    // Once its lease (twice the attempt timeout and 5 s) has run out, another instance claims it again.
    advance(25_000);
    await deliver(newWorker());
    const delivery = await deliveryOf(target);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(
      delivery.attemptLog.map(({ startedAt, latencyMs, statusCode, error }) => [
        startedAt.getTime(),
        latencyMs,
        statusCode,
        error,
      ]),
    ).toEqual([
      [claimedAt.getTime(), null, null, lostAttemptError],
      [clock.getTime(), expect.any(Number), 200, null],
    ]);
    expect(receiver.requestsAt('/unrecorded')).toHaveLength(delivery.attemptLog.length);
  });

  it("holds a paused target's deliveries until it is resumed", async () => {
    const target = await subscribedTarget(admin, '/paused', ['group']);
    const paused = await gqlAdmin(
      'mutation($id: ID!) { pauseTriggerTarget(input: { id: $id }) { triggerTarget { pausedAt } } }',
      { id: String(target) },
    );
    expect(paused.data.pauseTriggerTarget.triggerTarget.pausedAt).toEqual(expect.any(String));
    await teacher.post('/groups', { title: 'Wait for it' });
    await deliver();
    expect(receiver.bodiesAt('/paused')).toEqual([]);
    expect(await deliveryOf(target)).toMatchObject({ status: 'PENDING', attempts: 0 });
    await gqlAdmin('mutation($id: ID!) { resumeTriggerTarget(input: { id: $id }) { userErrors { code } } }', {
      id: String(target),
    });
    await deliver();
    expect(receiver.bodiesAt('/paused').map((event) => event.type)).toEqual(['group.create']);
  });

  it('disables a target whose attempts have all failed for the configured time, with an event; resuming sends', async () => {
    const target = await subscribedTarget(admin, '/failing', ['group']);
    for (let i = 0; i < 3; i++) receiver.answer('/failing', 500);
    const impatient = newWorker({ disableAfterMs: 3_600_000 });
    const events = await watchDomainEvents();
    await teacher.post('/groups', { title: 'Failing' });
    await deliver(impatient);
    expect(await db().triggerTarget.findUniqueOrThrow({ where: { id: target } })).toMatchObject({
      failingSince: clock,
      disabledAt: null,
    });
    advance(3_600_000);
    expect(await deliver(impatient)).toMatchObject({ retry: 1 });
    expect(await db().triggerTarget.findUniqueOrThrow({ where: { id: target } })).toMatchObject({ disabledAt: clock });
    expect((await events()).map((event) => event[0])).toEqual(['group.create', 'trigger_target.disable']);
    advance(3_600_000);
    expect(await deliver(impatient)).toMatchObject({ retry: 0, delivered: 0 });
    expect(receiver.requestsAt('/failing')).toHaveLength(2);

    await gqlAdmin('mutation($id: ID!) { resumeTriggerTarget(input: { id: $id }) { userErrors { code } } }', {
      id: String(target),
    });
    advance(3_600_000);
    expect(await deliver(impatient)).toMatchObject({ retry: 1 });
    expect(await deliver(impatient)).toMatchObject({ retry: 0 });
    advance(3_600_000);
    expect(await deliver(impatient)).toMatchObject({ delivered: 1 });
    expect(await db().triggerTarget.findUniqueOrThrow({ where: { id: target } })).toMatchObject({
      failingSince: null,
      disabledAt: null,
    });
  });

  it('shows the delivery log in GraphQL, and redelivers one delivery or everything since a time', async () => {
    const target = await subscribedTarget(admin, '/log', ['group']);
    receiver.answer('/log', 502, {}, 'x'.repeat(3000));
    await teacher.post('/groups', { title: 'Logged' });
    await deliver();
    advance(60_000);
    await deliver();
    const log = async () => {
      const answer =
        await gqlAdmin(`{ triggerTargets(limit: 20) { items { id: databaseId deliveries(limit: 5) { total items {
        id eventId type status attempts lastStatusCode payload attemptLog { statusCode responseBody latencyMs error } } } } } }`);
      expect(answer.errors).toBeUndefined();
      return answer.data.triggerTargets.items.find((item: { id: string }) => item.id === String(target)).deliveries;
    };
    const first = await log();
    expect(first.total).toBe(1);
    const [delivery] = first.items;
    expect(delivery).toMatchObject({ type: 'group.create', status: 'SUCCEEDED', attempts: 2, lastStatusCode: 200 });
    expect(JSON.parse(delivery.payload)).toEqual(receiver.bodiesAt('/log')[0]);
    expect(
      delivery.attemptLog.map((attempt: { statusCode: number; responseBody: string }) => [
        attempt.statusCode,
        attempt.responseBody.length,
      ]),
    ).toEqual([
      [502, 1024],
      [200, 2],
    ]);

    const again = await gqlAdmin(
      'mutation($id: ID!) { redeliverWebhook(input: { id: $id }) { webhookDelivery { status } } }',
      { id: delivery.id },
    );
    expect(again.data.redeliverWebhook).toEqual({ webhookDelivery: { status: 'PENDING' } });
    await deliver();
    expect(receiver.requestsAt('/log').map((r) => r.headers['webhook-id'])).toEqual([
      `evt_${delivery.eventId}`,
      `evt_${delivery.eventId}`,
      `evt_${delivery.eventId}`,
    ]);

    const replayed = await gqlAdmin(
      `mutation($input: ReplayTriggerTargetInput!) { replayTriggerTarget(input: $input) {
        triggerTargetReplay { requeued } triggerTarget { id: databaseId deliveries(limit: 5) { items { status } } } } }`,
      { input: { id: String(target), since: new Date(Date.now() - 3_600_000).toISOString() } },
    );
    // The target comes back with its deliveries as they now are: queued again.
    expect(replayed.data.replayTriggerTarget).toEqual({
      triggerTargetReplay: { requeued: 1 },
      triggerTarget: { id: String(target), deliveries: { items: [{ status: 'PENDING' }] } },
    });
    await deliver();
    expect(receiver.requestsAt('/log')).toHaveLength(4);

    const hidden = await (await clients.graphql(world.otherAdmin))(
      'mutation($id: ID!) { redeliverWebhook(input: { id: $id }) { userErrors { field code } } }',
      { id: delivery.id },
    );
    expect(hidden.data.redeliverWebhook.userErrors).toEqual([{ field: ['input', 'id'], code: 'NOT_FOUND' }]);
  });

  it('prunes finished deliveries older than the retention, keeping pending ones', async () => {
    const target = await subscribedTarget(admin, '/pruned', ['group']);
    receiver.answer('/pruned', 500);
    await teacher.post('/groups', { title: 'Delivered' });
    await teacher.post('/groups', { title: 'Still pending' });
    await deliver();
    const statuses = async () =>
      (await db().webhookDelivery.findMany({ where: { targetId: target }, orderBy: { id: 'asc' } })).map(
        (d) => d.status,
      );
    expect((await statuses()).sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(await pruneDeliveryLog(30, new Date(Date.now() + 29 * 24 * 3_600_000))).toBe(0);
    expect(await pruneDeliveryLog(30, new Date(Date.now() + 31 * 24 * 3_600_000))).toBe(1);
    expect(await statuses()).toEqual(['PENDING']);
    expect(await db().webhookAttempt.count({ where: { delivery: { targetId: target } } })).toBe(1);
  });

  it('in the background, fans out a commit that fires no target in one read, and claims nothing for it', async () => {
    const live = newWorker({ idleMs: 600_000 });
    await live.runOnce();
    // The loops run in the context they were started in, so `sent` goes on collecting their statements.
    const sent = await server.database.statementsOf(async () => live.start());
    const step = (sql: string) =>
      /FROM domain_events/.test(sql)
        ? 'read the log'
        : /trigger_subscriptions/.test(sql)
          ? 'find subscriptions'
          : /UPDATE webhook_cursors/.test(sql)
            ? 'move the cursor'
            : /FROM trigger_targets/.test(sql)
              ? 'claim'
              : sql;
    // What each statement is for; transaction control is left out (PostgreSQL's driver sends it as statements).
    const steps = () => sent.filter((sql) => !/^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(sql)).map(step);
    try {
      // Starting, it reads the log and claims, finding nothing either time.
      await expect.poll(steps).toEqual(['read the log', 'claim']);
      const commitsAt: number[] = [];
      for (const title of ['Unheard', 'Unheard again']) {
        commitsAt.push(steps().length);
        await teacher.post('/groups', { title });
        await expect.poll(() => live.caughtUp()).toBe(true);
      }
      // From each commit to the next: one read, or several while another file's open transaction on a shared
      // PostgreSQL server holds the event back; no read after the cursor moved to find the log's end (a commit since
      // would have woken it), and no claim, since nothing was queued.
      const all = steps();
      const afterEachCommit = commitsAt.map((at, index) =>
        all
          .slice(at, commitsAt[index + 1])
          .filter((one, position, window) => !(one === 'read the log' && window[position + 1] === one)),
      );
      expect(afterEachCommit).toEqual(commitsAt.map(() => ['read the log', 'find subscriptions', 'move the cursor']));
    } finally {
      await live.stop();
    }
  });

  it("runs in the background, woken by this process's commits rather than its poll, and stops cleanly", async () => {
    await subscribedTarget(admin, '/live', ['group', 'blog_post']);
    // A poll interval far beyond the test's patience: only the wake-up on commit can deliver in time.
    const live = newWorker({ idleMs: 600_000 });
    live.start();
    try {
      const created = await teacher.post('/groups', { title: 'Live' });
      await expect.poll(() => receiver.bodiesAt('/live').length, { timeout: 5_000, interval: 10 }).toBe(1);
      await teacher.post(`/groups/${created.json.id}/posts`, { title: 'Hello' });
      await expect
        .poll(() => receiver.bodiesAt('/live').map((event) => event.type), { timeout: 5_000, interval: 10 })
        .toEqual(['group.create', 'blog_post.create']);
    } finally {
      await live.stop();
    }
    expect(
      await db().webhookDelivery.count({ where: { target: { url: receiver.url('/live') }, status: 'SUCCEEDED' } }),
    ).toBe(2);
  });
});
