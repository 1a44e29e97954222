import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import { type World, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { el, v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

// Targets at a public address (TEST-NET documentation ranges are reserved, so a public literal is used) or at a host
// named here; nothing is sent in this file.
const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: 'receiver.test' });
const clients = clientsFor(server);

const cast = ['admin', 'schoolAdmin', 'teacher', 'otherAdmin', 'outsider'] as const;
type Person = (typeof cast)[number];
let world: World & Record<'admin' | 'otherAdmin', { id: number }>;
let as: Record<Person, RestClient>;
let gqlAdmin: GraphQLClient;
let gqlTeacher: GraphQLClient;

beforeAll(async () => {
  const created = await createWorld();
  world = {
    ...created,
    admin: await createUser(created.school.id, 'TEACHER', { triggerAdmin: true }),
    otherAdmin: await createUser(created.otherSchool.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
  };
  as = await clients.restFor(cast, world);
  gqlAdmin = await clients.graphql(world.admin);
  gqlTeacher = await clients.graphql(world.teacher);
});

const createTarget = async (who: RestClient = as.admin, url = 'https://receiver.test/hook') => {
  const created = await who.post('/triggers/targets', { target: url, description: 'SIS sync' });
  expect(created.status).toBe(201);
  return created.json.id as number;
};

describe('trigger targets', () => {
  it("creates, lists, edits and deletes a target of the creator's school (JSON), recording events", async () => {
    const events = await watchDomainEvents();
    const created = await as.admin.post('/triggers/targets', {
      target: 'https://receiver.test/hook',
      description: 'SIS sync',
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(created.json).toEqual({
      id: expect.any(Number),
      target: 'https://receiver.test/hook',
      description: 'SIS sync',
    });
    expect(await db().triggerTarget.findUniqueOrThrow({ where: { id } })).toMatchObject({ schoolId: world.school.id });

    const listed = await as.admin.get('/triggers/targets');
    expect(listed.status).toBe(200);
    expect(listed.json.target).toContainEqual({ id, target: 'https://receiver.test/hook', description: 'SIS sync' });
    expect(listed.json.links.self).toBe(`${v1}/triggers/targets?start=0&limit=20`);

    expect((await as.admin.put(`/triggers/targets/${id}`, { description: null })).status).toBe(204);
    expect(await db().triggerTarget.findUniqueOrThrow({ where: { id } })).toMatchObject({
      url: 'https://receiver.test/hook',
      description: '',
    });
    expect((await as.admin.put(`/triggers/targets/${id}`, { target: 'https://receiver.test/v2' })).status).toBe(204);
    expect((await db().triggerTarget.findUniqueOrThrow({ where: { id } })).url).toBe('https://receiver.test/v2');

    expect((await as.admin.delete(`/triggers/targets/${id}`)).status).toBe(204);
    expect(await db().triggerTarget.findUnique({ where: { id } })).toBeNull();
    const scope = [world.district.id, world.school.id];
    expect(await events()).toEqual([
      ['trigger_target.create', 'SCHOOL', world.school.id, id, world.admin.id, ...scope],
      ['trigger_target.update', 'SCHOOL', world.school.id, id, world.admin.id, ...scope],
      ['trigger_target.update', 'SCHOOL', world.school.id, id, world.admin.id, ...scope],
      ['trigger_target.delete', 'SCHOOL', world.school.id, id, world.admin.id, ...scope],
    ]);
  });

  it('creates from XML and answers in XML', async () => {
    const body =
      '<body><target>https://receiver.test/x?a=1&amp;b=2</target><description>&lt;b&gt;</description></body>';
    const created = await as.admin.post('/triggers/targets', body, { accept: 'xml' });
    expect(created.status).toBe(201);
    const id = /<id>(\d+)<\/id>/.exec(created.text)![1];
    expect(created.text).toBe(
      `${xmlHead}<result>${el('id', id)}${el('target', 'https://receiver.test/x?a=1&b=2')}${el('description', '<b>')}</result>`,
    );
    const listed = await as.admin.get('/triggers/targets?limit=200', { accept: 'xml' });
    expect(listed.text).toContain(`<target>${el('id', id)}${el('target', 'https://receiver.test/x?a=1&b=2')}`);
  });

  it.each([
    ['no target', { description: 'x' }, 'target', 'is required'],
    ['not a URL', { target: 'receiver' }, 'target', 'must be an absolute https URL'],
    ['another scheme', { target: 'ftp://receiver.test/' }, 'target', 'must be an absolute https URL'],
    ['plain http', { target: 'http://203.0.113.9/hook' }, 'target', 'must be an https URL'],
    [
      'loopback',
      { target: 'https://127.0.0.1/hook' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'IPv6 loopback',
      { target: 'https://[::1]/hook' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'IPv4-mapped private',
      { target: 'https://[::ffff:10.0.0.1]/' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'private',
      { target: 'https://192.168.1.20/hook' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'cloud metadata',
      { target: 'https://169.254.169.254/latest' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    // Issue 37: IPv4-compatible addresses (deprecated) were taken for public ones.
    [
      'IPv4-compatible loopback',
      { target: 'https://[::127.0.0.1]/hook' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'IPv4-compatible public',
      { target: 'https://[::8.8.8.8]/hook' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'NAT64 private',
      { target: 'https://[64:ff9b::10.0.0.1]/' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      '6to4 loopback',
      { target: 'https://[2002:7f00:1::1]/' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'Teredo',
      { target: 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/' },
      'target',
      'must not be a loopback, private, link-local or reserved address',
    ],
    [
      'a name of the loopback',
      { target: 'https://localhost:8443/hook' },
      'target',
      'resolves to a loopback, private, link-local or reserved address',
    ],
    [
      'credentials in the URL',
      { target: 'https://user:pw@receiver.test/' },
      'target',
      'must not carry a user name or password',
    ],
  ])('refuses a target with %s: 400 naming the member, nothing written', async (_case, body, field, message) => {
    const refused = await expectNothingWritten(() => as.admin.post('/triggers/targets', body));
    expect(refused.status).toBe(400);
    expect(refused.json.issues).toEqual([{ field, message }]);
  });

  it('refuses an IPv4-compatible address in XML too', async () => {
    const refused = await expectNothingWritten(() =>
      as.admin.post('/triggers/targets', '<body><target>https://[::127.0.0.1]/hook</target></body>', { accept: 'xml' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      '<field>target</field><message>must not be a loopback, private, link-local or reserved address</message>',
    );
  });

  it('refuses the guarded address on edit too', async () => {
    const id = await createTarget();
    const refused = await expectNothingWritten(() =>
      as.admin.put(`/triggers/targets/${id}`, { target: 'https://10.1.2.3/' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.issues).toEqual([
      { field: 'target', message: 'must not be a loopback, private, link-local or reserved address' },
    ]);
  });

  it('is for users with trigger administration only (403), whatever their role', async () => {
    for (const who of [as.teacher, as.schoolAdmin, as.outsider]) {
      expect((await who.get('/triggers/targets')).status).toBe(403);
      expect(
        (await expectNothingWritten(() => who.post('/triggers/targets', { target: 'https://receiver.test/' }))).status,
      ).toBe(403);
    }
    const id = await createTarget();
    expect(
      (await expectNothingWritten(() => as.schoolAdmin.put(`/triggers/targets/${id}`, { description: 'x' }))).status,
    ).toBe(403);
    expect((await expectNothingWritten(() => as.teacher.delete(`/triggers/targets/${id}`))).status).toBe(403);
    // Without the grant the id is not even looked up: 403 for unknown ids too.
    expect((await as.teacher.delete('/triggers/targets/999999999')).status).toBe(403);
  });

  it('is refused to a student or parent who holds the grant from before it was for staff only (403), on both surfaces', async () => {
    const id = await createTarget();
    for (const role of ['STUDENT', 'PARENT'] as const) {
      const holder = await createUser(world.school.id, role, { triggerAdmin: true });
      const rest = await clients.rest(holder);
      expect((await rest.get('/triggers/targets')).status).toBe(403);
      expect(
        (await expectNothingWritten(() => rest.post('/triggers/targets', { target: 'https://receiver.test/' }))).status,
      ).toBe(403);
      expect(
        (await expectNothingWritten(() => rest.put(`/triggers/targets/${id}`, { description: 'mine now' }))).status,
      ).toBe(403);
      const graphql = await clients.graphql(holder);
      const listed = await graphql('{ triggerTargets { total } }');
      expect(listed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const node = await graphql('query($id: ID!) { node(id: $id) { id } }', {
        id: encodeGlobalId('TriggerTarget', id),
      });
      expect(node.data.node).toBeNull();
    }
  });

  it("hides another school's targets (404) and unknown ones", async () => {
    const id = await createTarget();
    expect(
      (await expectNothingWritten(() => as.otherAdmin.put(`/triggers/targets/${id}`, { description: 'x' }))).status,
    ).toBe(404);
    expect((await expectNothingWritten(() => as.otherAdmin.delete(`/triggers/targets/${id}`))).status).toBe(404);
    expect(
      (await as.otherAdmin.get('/triggers/targets?limit=200')).json.target.map((t: { id: number }) => t.id),
    ).not.toContain(id);
    expect((await as.admin.delete('/triggers/targets/999999999')).status).toBe(404);
    expect((await as.admin.delete('/triggers/targets/99999999999999999999')).status).toBe(404);
  });
});

describe('trigger subscriptions', () => {
  it("subscribes item by item: an unknown trigger is item status 400 while the others apply; items echo as the platform's", async () => {
    const target = await createTarget();
    const events = await watchDomainEvents();
    const answer = await as.admin.put('/triggers/subscriptions', {
      subscription: [
        { target_id: target, trigger: 'group', subscribed: 1, include_object: 1 },
        { target_id: String(target), trigger: 'report_card', subscribed: '1' },
        { target_id: target, trigger: 'blog_post', subscribed: 1, version: 'v1' },
        { target_id: target, trigger: 'invite', subscribed: 1, version: 'v2' },
        { target_id: 999999999, trigger: 'group', subscribed: 1 },
      ],
    });
    expect(answer.status).toBe(200);
    const url = 'https://receiver.test/hook';
    // As in the platform's example: an applied item echoes include_object as a string, a failed one nulls what was not applied.
    const failed = { version: null, target_url: null, include_object: null };
    expect(answer.json).toEqual({
      subscription: [
        {
          item: {
            target_id: target,
            trigger: 'group',
            version: 'v1',
            subscribed: 1,
            target_url: url,
            include_object: '1',
          },
          status: 200,
        },
        {
          item: { target_id: target, trigger: 'report_card', subscribed: 1, ...failed },
          status: 400,
          message: 'The trigger with name report_card does not exist',
        },
        {
          item: {
            target_id: target,
            trigger: 'blog_post',
            version: 'v1',
            subscribed: 1,
            target_url: url,
            include_object: '0',
          },
          status: 200,
        },
        {
          item: { target_id: target, trigger: 'invite', subscribed: 1, ...failed },
          status: 400,
          message: 'version: only version v1 is supported',
        },
        {
          item: { target_id: 999999999, trigger: 'group', subscribed: 1, ...failed },
          status: 404,
          message: 'The target with id 999999999 does not exist',
        },
      ],
    });
    const stored = await db().triggerSubscription.findMany({ where: { targetId: target }, orderBy: { id: 'asc' } });
    expect(stored.map(({ trigger, includeObject, version }) => ({ trigger, includeObject, version }))).toEqual([
      { trigger: 'group', includeObject: true, version: 'v1' },
      { trigger: 'blog_post', includeObject: false, version: 'v1' },
    ]);
    expect((await events()).map((event) => event[0])).toEqual([
      'trigger_subscription.create',
      'trigger_subscription.create',
    ]);

    const listed = await as.admin.get('/triggers/subscriptions?limit=200');
    expect(listed.status).toBe(200);
    expect(listed.json.subscription.filter((s: { target_id: number }) => s.target_id === target)).toEqual([
      { target_id: target, trigger: 'group', subscribed: 0, version: 'v1', include_object: 1, target_url: url },
      { target_id: target, trigger: 'blog_post', subscribed: 0, version: 'v1', include_object: 0, target_url: url },
    ]);

    // Unsubscribing, and unsubscribing what is not subscribed: both succeed.
    const off = await as.admin.put('/triggers/subscriptions', {
      subscription: [
        { target_id: target, trigger: 'group', subscribed: 0 },
        { target_id: target, trigger: 'invite', subscribed: 0 },
      ],
    });
    expect(off.json.subscription.map((result: { status: number }) => result.status)).toEqual([200, 200]);
    expect((await db().triggerSubscription.findMany({ where: { targetId: target } })).map((s) => s.trigger)).toEqual([
      'blog_post',
    ]);
  });

  it("reads XML items, one element as a list of one, and answers in XML; a failed item's nulls are empty elements", async () => {
    const target = await createTarget();
    const body =
      `<body><subscription><target_id>${target}</target_id><trigger>friend_request</trigger><subscribed>1</subscribed>` +
      '<include_object>1</include_object></subscription></body>';
    const answer = await as.admin.put('/triggers/subscriptions', body, { accept: 'xml' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(
      `${xmlHead}<result><subscription><item>${el('target_id', target)}${el('trigger', 'friend_request')}` +
        `${el('version', 'v1')}${el('subscribed', 1)}${el('target_url', 'https://receiver.test/hook')}${el('include_object', 1)}</item>` +
        `${el('status', 200)}</subscription></result>`,
    );
    const unknown = `<body><subscription><target_id>${target}</target_id><trigger>attendancesdf</trigger><subscribed>0</subscribed></subscription></body>`;
    const refused = await as.admin.put('/triggers/subscriptions', unknown, { accept: 'xml' });
    expect(refused.text).toBe(
      `${xmlHead}<result><subscription><item>${el('target_id', target)}${el('trigger', 'attendancesdf')}` +
        `<version />${el('subscribed', 0)}<target_url /><include_object /></item>${el('status', 400)}` +
        `${el('message', 'The trigger with name attendancesdf does not exist')}</subscription></result>`,
    );
    expect(await db().triggerSubscription.count({ where: { targetId: target, trigger: 'friend_request' } })).toBe(1);
  });

  it('refuses a malformed body with 400 and applies nothing', async () => {
    const target = await createTarget();
    for (const body of [
      {},
      { subscription: [{ target_id: target, trigger: 'group', subscribed: 'maybe' }] },
      { subscription: [{ target_id: 'abc', trigger: 'group', subscribed: 1 }] },
    ]) {
      const refused = await expectNothingWritten(() => as.admin.put('/triggers/subscriptions', body));
      expect(refused.status).toBe(400);
      expect(refused.json.issues[0].field).toBe('subscription');
    }
  });

  it("is for trigger administrators only; another school's target is an unknown target", async () => {
    const target = await createTarget();
    const body = { subscription: [{ target_id: target, trigger: 'group', subscribed: 1 }] };
    expect((await expectNothingWritten(() => as.schoolAdmin.put('/triggers/subscriptions', body))).status).toBe(403);
    expect((await as.teacher.get('/triggers/subscriptions')).status).toBe(403);
    const other = await expectNothingWritten(() => as.otherAdmin.put('/triggers/subscriptions', body));
    expect(other.json.subscription[0]).toMatchObject({ status: 404, item: { target_url: null } });
  });
});

describe('GraphQL', () => {
  it('lists the trigger catalogue: one trigger per family something fires, none that nothing fires', async () => {
    const answer = await gqlTeacher('{ triggers { name operations description } }');
    const names = answer.data.triggers.map((trigger: { name: string }) => trigger.name);
    expect(names).toEqual([
      'SCHOOL',
      'BUILDING',
      'USER',
      'SECTION',
      'ENROLLMENT',
      'GROUP',
      'GROUP_MEMBER',
      'BLOG_POST',
      'INVITE',
      'FRIEND_REQUEST',
      'CALENDAR_EVENT',
      'PAGE',
      'ALBUM',
      'ALBUM_CONTENT',
      'ALBUM_COMMENT',
      'WEB_PACKAGE',
      'GRADE_ITEM',
      'GRADES',
      'ATTENDANCE',
    ]);
    expect(answer.data.triggers.find((trigger: { name: string }) => trigger.name === 'GROUP').operations).toEqual([
      'create',
      'update',
      'delete',
    ]);
    expect(names).not.toContain('REPORT_CARD');
    expect(answer.data.triggers.find((trigger: { name: string }) => trigger.name === 'ATTENDANCE')).toEqual({
      name: 'ATTENDANCE',
      operations: ['update'],
      description: 'Attendance taken or changed in course sections.',
    });
  });

  it('creates a target with a Standard Webhooks secret and rotates it', async () => {
    const created = await gqlAdmin(
      `mutation($input: CreateTriggerTargetInput!) { createTriggerTarget(input: $input) {
        triggerTarget { id: databaseId url secret previousSecretExpiresAt } userErrors { message } } }`,
      { input: { url: 'https://receiver.test/gql' } },
    );
    expect(created.data.createTriggerTarget.userErrors).toEqual([]);
    const target = created.data.createTriggerTarget.triggerTarget;
    expect(target).toMatchObject({
      url: 'https://receiver.test/gql',
      previousSecretExpiresAt: null,
    });
    expect(target.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(() => new Webhook(target.secret)).not.toThrow();
    // Stored sealed with the server key, not as the secret itself.
    expect((await db().triggerTarget.findUniqueOrThrow({ where: { id: Number(target.id) } })).secret).not.toContain(
      target.secret.slice(6),
    );

    const rotated = await gqlAdmin(
      'mutation($id: ID!) { rotateTriggerTargetSecret(input: { id: $id }) { triggerTarget { secret previousSecretExpiresAt } } }',
      { id: target.id },
    );
    const { secret, previousSecretExpiresAt } = rotated.data.rotateTriggerTargetSecret.triggerTarget;
    expect(secret).not.toBe(target.secret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
  });

  it('answers userErrors and refusals; a delete answers the global id', async () => {
    const create =
      'mutation($input: CreateTriggerTargetInput!) { createTriggerTarget(input: $input) { triggerTarget { id } userErrors { field code message } } }';
    const invalid = await gqlAdmin(create, { input: { url: 'https://127.0.0.1/' } });
    expect(invalid.data.createTriggerTarget).toEqual({
      triggerTarget: null,
      userErrors: [
        {
          field: ['input', 'url'],
          code: 'INVALID',
          message: 'must not be a loopback, private, link-local or reserved address',
        },
      ],
    });
    const compatible = await gqlAdmin(create, { input: { url: 'https://[::127.0.0.1]:8443/' } });
    expect(compatible.data.createTriggerTarget).toEqual(invalid.data.createTriggerTarget);
    const refused = await gqlTeacher('{ triggerTargets { total } }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const remove =
      'mutation($id: ID!) { deleteTriggerTarget(input: { id: $id }) { deletedTriggerTargetId userErrors { field code message } } }';
    expect((await gqlAdmin(remove, { id: '999999999' })).data.deleteTriggerTarget).toEqual({
      deletedTriggerTargetId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: 'TriggerTarget 999999999 was not found' }],
    });
    const target = await createTarget();
    expect((await gqlAdmin(remove, { id: String(target) })).data.deleteTriggerTarget).toEqual({
      deletedTriggerTargetId: encodeGlobalId('TriggerTarget', target),
      userErrors: [],
    });
  });

  it('lists subscriptions with their targets and applies bulk changes', async () => {
    const target = await createTarget();
    const changed = await gqlAdmin(
      `mutation($input: UpdateTriggerSubscriptionsInput!) { updateTriggerSubscriptions(input: $input) {
        triggerSubscriptionUpdate { results { status message item { trigger targetUrl } } } } }`,
      {
        input: {
          subscriptions: [
            { targetId: String(target), trigger: 'user', subscribed: true, includeObject: true },
            { targetId: String(target), trigger: 'nope', subscribed: true },
          ],
        },
      },
    );
    expect(changed.data.updateTriggerSubscriptions.triggerSubscriptionUpdate.results).toEqual([
      { status: 'APPLIED', message: null, item: { trigger: 'user', targetUrl: 'https://receiver.test/hook' } },
      {
        status: 'INVALID',
        message: 'The trigger with name nope does not exist',
        item: { trigger: 'nope', targetUrl: 'https://receiver.test/hook' },
      },
    ]);
    const listed = await gqlAdmin(
      '{ triggerSubscriptions(limit: 200) { items { trigger includeObject target { id: databaseId } } } }',
    );
    expect(listed.data.triggerSubscriptions.items).toContainEqual({
      trigger: 'USER',
      includeObject: true,
      target: { id: String(target) },
    });
  });
});
