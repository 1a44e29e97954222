import { TZDate } from '@date-fns/tz';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createFriendRequest, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { el, v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const cast = [
  'teacher',
  'student',
  'parent',
  'schoolAdmin',
  'districtAdmin',
  'otherSchoolStudent',
  'outsider',
] as const;
type Person = (typeof cast)[number];
let w: World;
let as: Record<Person, RestClient>;
let gql: Record<Person, GraphQLClient>;

/** Every cast client is issued up front: issuing one records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  w = await createWorld();
  as = await clients.restFor(cast, w);
  gql = await clients.graphqlFor(cast, w);
});

type User = Awaited<ReturnType<typeof createUser>>;
type Row = { id: number; createdAt: Date };

/** A student of the world's school with no requests yet, and their clients (issued now, before any event watch). */
async function classmate() {
  const user = await createUser(w.school.id, 'STUDENT');
  return { user, rest: await clients.rest(user), graphql: await clients.graphql(user) };
}

const addressedOnly = 'Only the user it is addressed to may do this';
const unixText = (date: Date) => String(Math.floor(date.getTime() / 1000));

/** A friend request on the wire, as the platform's example shows one: every member a string, the requester's id as `requester_id`. */
const requestWire = (request: Row, requester: User, school: { id: number; title: string }) => ({
  id: String(request.id),
  requester_id: String(requester.id),
  created: unixText(request.createdAt),
  requester_name: `${requester.nameFirst} ${requester.nameLast}`,
  picture_url: requester.pictureUrl,
  school_name: school.title,
  school_id: String(school.id),
});
/** One request as XML, its members in the order `requestWire` lists them. */
const requestXml = (request: Record<string, unknown>) =>
  `<request>${Object.entries(request)
    .map(([name, value]) => el(name, value))
    .join('')}</request>`;

const ids = (response: { json: { request: { id: string }[] } }) =>
  response.json.request.map((request) => Number(request.id));
const friendIds = async (client: GraphQLClient, user: { id: number }) =>
  (
    await client(`query($id: ID!) { user(id: $id) { friends { total items { id: databaseId } } } }`, {
      id: String(user.id),
    })
  ).data.user.friends;
const friendships = (a: { id: number }, b: { id: number }) =>
  db().friendship.findMany({
    where: {
      OR: [
        { userId: a.id, friendId: b.id },
        { userId: b.id, friendId: a.id },
      ],
    },
    orderBy: { userId: 'asc' },
    select: { userId: true, friendId: true },
  });

describe('GET /users/{id}/requests/friends', () => {
  it("lists pending requests in JSON and XML, every member a string, with the requester's name, picture and school", async () => {
    const { user, rest } = await classmate();
    const fromHere = await db().user.update({
      where: { id: (await createUser(w.school.id, 'TEACHER')).id },
      data: { nameLast: "O'Brien & Sons", pictureUrl: 'https://img.test/me.png?size=2&crop=1' },
    });
    const fromThere = await createUser(w.otherSchool.id, 'STUDENT');
    const requests = [
      await createFriendRequest(fromHere.id, user.id),
      await createFriendRequest(fromThere.id, user.id),
    ];
    // A request the user sent is not theirs to answer.
    await createFriendRequest(user.id, w.student.id);
    const wires = [requestWire(requests[0]!, fromHere, w.school), requestWire(requests[1]!, fromThere, w.otherSchool)];
    const path = `/users/${user.id}/requests/friends`;

    const listed = await rest.get(path);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ request: wires, total: 2, links: { self: `${v1}${path}?start=0&limit=20` } });
    const xml = await rest.get(path, { accept: 'xml' });
    expect([xml.status, xml.headers.get('content-type')]).toEqual([200, 'text/xml; charset=utf-8']);
    expect(xml.text).toBe(
      `${xmlHead}<result>${wires.map(requestXml).join('')}<total>2</total>` +
        `<links><self>${v1}${path}?start=0&amp;limit=20</self></links></result>`,
    );
    expect(xml.text).toContain(
      "<requester_name>Test O'Brien &amp; Sons</requester_name><picture_url>https://img.test/me.png?size=2&amp;crop=1</picture_url>",
    );
  });

  it('pages with start and limit: total, links.self, and links.next only while more follow', async () => {
    const { user, rest } = await classmate();
    const requests: Row[] = [];
    for (let index = 0; index < 3; index++)
      requests.push(await createFriendRequest((await createUser(w.school.id, 'STUDENT')).id, user.id));
    const path = `/users/${user.id}/requests/friends`;
    const first = await rest.get(`${path}?start=0&limit=2`);
    expect([ids(first), first.json.total]).toEqual([[requests[0]!.id, requests[1]!.id], 3]);
    expect(first.json.links).toEqual({ self: `${v1}${path}?start=0&limit=2`, next: `${v1}${path}?start=2&limit=2` });
    const last = await rest.get(`${path}?start=2&limit=2`, { accept: 'xml' });
    expect([...last.text.matchAll(/<request><id>(\d+)<\/id>/g)].map((match) => Number(match[1]))).toEqual([
      requests[2]!.id,
    ]);
    expect(last.text).toContain(
      `<total>3</total><links><self>${v1}${path}?start=2&amp;limit=2</self></links></result>`,
    );
    expect((await rest.get(`${path}?start=3`)).json).toEqual({
      request: [],
      total: 3,
      links: { self: `${v1}${path}?start=3&limit=20` },
    });
  });

  it('shows a user their own requests and their district administrators too; others who see the user 403, others 404', async () => {
    const request = await createFriendRequest((await createUser(w.school.id, 'STUDENT')).id, w.student.id);
    const path = `/users/${w.student.id}/requests/friends`;
    await expectNothingWritten(async () => {
      const own = await as.student.get(path);
      expect(ids(own)).toContain(request.id);
      expect((await as.districtAdmin.get(path)).json).toEqual(own.json);
      for (const person of ['teacher', 'parent', 'schoolAdmin'] as const) {
        const refused = await as[person].get(path);
        expect([person, refused.status, refused.json]).toEqual([person, 403, { error: addressedOnly }]);
      }
      for (const person of ['otherSchoolStudent', 'outsider'] as const) {
        const hidden = await as[person].get(path);
        expect([person, hidden.status, hidden.json]).toEqual([person, 404, { error: 'Not found' }]);
      }
      expect((await as.districtAdmin.get('/users/999999/requests/friends')).status).toBe(404);
    });
  });
});

describe('created_offset on friend requests', () => {
  const minute = 60_000;
  /** Two requests to a fresh user of `schoolId`, created at the two instants; the user's client is returned too. */
  async function requestsAt(schoolId: number, instants: [Date, Date]) {
    const user = await createUser(schoolId, 'STUDENT');
    const requests = [];
    for (const createdAt of instants)
      requests.push(await createFriendRequest((await createUser(schoolId, 'STUDENT')).id, user.id, { createdAt }));
    return { user, rest: await clients.rest(user), requests };
  }

  it('reads a date and time in UTC by default: only requests created after it are listed', async () => {
    const { user, rest, requests } = await requestsAt(w.school.id, [
      new Date('2010-05-14T23:44:32Z'),
      new Date('2010-05-14T23:44:33Z'),
    ]);
    const path = `/users/${user.id}/requests/friends`;
    expect(ids(await rest.get(`${path}?created_offset=${encodeURIComponent('2010-05-14 23:44:32')}`))).toEqual([
      requests[1]!.id,
    ]);
    expect(ids(await rest.get(`${path}?created_offset=2010-05-14`))).toEqual(requests.map((request) => request.id));
    expect(ids(await rest.get(`${path}?created_offset=${encodeURIComponent('3 days ago')}`))).toEqual([]);
  });

  it('reads dates in the district\'s time zone (America/Chicago): a date and time in May, and "yesterday"', async () => {
    const district = await db().district.create({ data: { title: 'Central', timeZone: 'America/Chicago' } });
    const school = await db().school.create({ data: { districtId: district.id, title: 'Prairie High' } });
    // 2010-05-14 23:44:32 on Chicago's daylight-saving clock.
    const dated = await requestsAt(school.id, [new Date('2010-05-15T04:44:32Z'), new Date('2010-05-15T04:44:33Z')]);
    const datedPath = `/users/${dated.user.id}/requests/friends?created_offset=${encodeURIComponent('2010-05-14 23:44:32')}`;
    expect(ids(await dated.rest.get(datedPath))).toEqual([dated.requests[1]!.id]);

    const today = new TZDate(Date.now(), 'America/Chicago');
    const midnight = +new TZDate(
      today.getFullYear(),
      today.getMonth(),
      today.getDate() - 1,
      0,
      0,
      0,
      'America/Chicago',
    );
    const relative = await requestsAt(school.id, [new Date(midnight - minute), new Date(midnight + minute)]);
    expect(
      ids(await relative.rest.get(`/users/${relative.user.id}/requests/friends?created_offset=yesterday`)),
    ).toEqual([relative.requests[1]!.id]);
  });

  it('answers 400 naming created_offset for text that is not a date, in JSON and XML', async () => {
    const { user, rest } = await classmate();
    await createFriendRequest(w.teacher.id, user.id);
    const path = `/users/${user.id}/requests/friends`;
    const reason = (text: string) =>
      `'${text}' is not a date or time this server can read, such as 2010-05-14 23:44:32 or 3 days ago`;
    const json = await rest.get(`${path}?created_offset=${encodeURIComponent('a while back')}`);
    expect([json.status, json.json]).toEqual([
      400,
      {
        error: `created_offset: ${reason('a while back')}`,
        issues: [{ field: 'created_offset', message: reason('a while back') }],
      },
    ]);
    const xml = await rest.get(`${path}?created_offset=never`, { accept: 'xml' });
    expect([xml.status, xml.text]).toEqual([
      400,
      `${xmlHead}<result><error>created_offset: ${reason('never')}</error><issues><field>created_offset</field><message>${reason('never')}</message></issues></result>`,
    ]);
  });
});

describe('PUT /users/{id}/requests/friends/{id}', () => {
  it('accepts (request_action, as documented): 204, the two are friends both ways, the request is gone, friend_request.accept', async () => {
    const { user, rest, graphql } = await classmate();
    const requester = await classmate();
    const request = await createFriendRequest(requester.user.id, user.id);
    const events = await watchDomainEvents();
    const answered = await rest.put(`/users/${user.id}/requests/friends/${request.id}`, { request_action: 'accept' });
    expect([answered.status, answered.text]).toEqual([204, '']);
    const [low, high] = [user.id, requester.user.id].sort((a, b) => a - b);
    expect(await friendships(user, requester.user)).toEqual([
      { userId: low, friendId: high },
      { userId: high, friendId: low },
    ]);
    expect(await db().friendRequest.findUnique({ where: { id: request.id } })).toBeNull();
    expect(await events()).toEqual([
      ['friend_request.accept', 'USER', user.id, request.id, user.id, w.district.id, w.school.id],
    ]);
    expect(await friendIds(graphql, user)).toEqual({ total: 1, items: [{ id: String(requester.user.id) }] });
    expect(await friendIds(requester.graphql, requester.user)).toEqual({ total: 1, items: [{ id: String(user.id) }] });
    expect((await rest.get(`/users/${user.id}/requests/friends`)).json).toMatchObject({ request: [], total: 0 });
  });

  it.each([
    ['nested JSON', { request: { request_action: 'deny' } }],
    ['XML', '<request><request_action>deny</request_action></request>'],
  ])('denies in %s: 204, nobody becomes friends, friend_request.deny', async (_form, body) => {
    const { user, rest } = await classmate();
    const request = await createFriendRequest(w.teacher.id, user.id);
    const events = await watchDomainEvents();
    const answered = await rest.put(`/users/${user.id}/requests/friends/${request.id}`, body);
    expect([answered.status, answered.text]).toEqual([204, '']);
    expect(await db().friendRequest.findUnique({ where: { id: request.id } })).toBeNull();
    expect(await friendships(user, w.teacher)).toEqual([]);
    expect(await events()).toEqual([
      ['friend_request.deny', 'USER', user.id, request.id, user.id, w.district.id, w.school.id],
    ]);
  });

  it("answers 404 for an answered or unknown request, another user's, and one the user sent, writing nothing", async () => {
    const { user, rest } = await classmate();
    const answered = await createFriendRequest(w.teacher.id, user.id);
    expect(
      (await rest.put(`/users/${user.id}/requests/friends/${answered.id}`, { request_action: 'deny' })).status,
    ).toBe(204);
    const someoneElses = await createFriendRequest((await createUser(w.school.id, 'STUDENT')).id, w.student.id);
    const sent = await createFriendRequest(user.id, w.parent.id);
    await expectNothingWritten(async () => {
      for (const id of [answered.id, 999999, 4000000000, someoneElses.id, sent.id]) {
        const response = await rest.put(`/users/${user.id}/requests/friends/${id}`, { request_action: 'accept' });
        expect([id, response.status, response.json]).toEqual([id, 404, { error: `FriendRequest ${id} was not found` }]);
      }
    });
  });

  it('answers 400 naming the member for a missing or unknown action, writing nothing', async () => {
    const { user, rest } = await classmate();
    const request = await createFriendRequest(w.teacher.id, user.id);
    const path = `/users/${user.id}/requests/friends/${request.id}`;
    await expectNothingWritten(async () => {
      for (const [body, field, message] of [
        [{}, 'request_action', 'is required: accept or deny'],
        [{ request_action: 'maybe' }, 'request_action', 'must be one of accept, deny'],
        [{ request: { request_action: 'later' } }, 'request/request_action', 'must be one of accept, deny'],
        ['<request><request_action>yes</request_action></request>', 'request_action', 'must be one of accept, deny'],
      ] as const) {
        const response = await rest.put(path, body);
        expect([response.status, response.json]).toEqual([
          400,
          { error: `${field}: ${message}`, issues: [{ field, message }] },
        ]);
      }
    });
  });

  it('lets only the user asked answer: 403 for the requester and administrators, 404 where the user is hidden', async () => {
    const { user } = await classmate();
    const request = await createFriendRequest(w.teacher.id, user.id);
    const path = `/users/${user.id}/requests/friends/${request.id}`;
    await expectNothingWritten(async () => {
      for (const person of ['teacher', 'schoolAdmin', 'districtAdmin'] as const) {
        const refused = await as[person].put(path, { request_action: 'accept' });
        expect([person, refused.status, refused.json]).toEqual([person, 403, { error: addressedOnly }]);
      }
      for (const person of ['otherSchoolStudent', 'outsider'] as const) {
        const hidden = await as[person].put(path, { request_action: 'accept' });
        expect([person, hidden.status, hidden.json]).toEqual([person, 404, { error: `User ${user.id} was not found` }]);
      }
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'two accepts racing each other: one 204, one 404, exactly two friendship rows (PostgreSQL)',
    async () => {
      const { user, rest } = await classmate();
      const requester = await createUser(w.school.id, 'STUDENT');
      const request = await createFriendRequest(requester.id, user.id);
      const events = await watchDomainEvents();
      const path = `/users/${user.id}/requests/friends/${request.id}`;
      const answers = await Promise.all([
        rest.put(path, { request_action: 'accept' }),
        rest.put(path, { request: { request_action: 'accept' } }),
      ]);
      expect(answers.map((answer) => answer.status).sort((a, b) => a - b)).toEqual([204, 404]);
      expect(await friendships(user, requester)).toHaveLength(2);
      expect((await events()).map(([type]) => type)).toEqual(['friend_request.accept']);
    },
  );
});

describe('GraphQL twins', () => {
  const sendDoc = `mutation($userId: ID!) { sendFriendRequest(input: { userId: $userId }) {
    friendRequest { id: databaseId createdAt requester { id: databaseId } user { id: databaseId } }
    userErrors { field code message } } }`;
  const answerDoc = `mutation($userId: ID!, $id: ID!, $action: RequestAction!) {
    answerFriendRequest(input: { userId: $userId, id: $id, action: $action }) {
      answeredFriendRequest { id action requesterId } deletedFriendRequestId
      requester { id: databaseId friends { items { id: databaseId } } } userErrors { field code message } } }`;
  const refused = (field: string, code: string, message: string) => ({
    friendRequest: null,
    userErrors: [{ field: ['input', field], code, message }],
  });
  const listDoc = `query($userId: ID!, $createdAfterText: String) { friendRequests(userId: $userId, createdAfterText: $createdAfterText) {
    total items { id: databaseId createdAt requester { id: databaseId nameDisplay } user { id: databaseId } } } }`;

  it('sendFriendRequest asks a user the viewer sees: friend_request.create in the realm of the user asked; listed on /v1', async () => {
    const asked = await classmate();
    const events = await watchDomainEvents();
    const sent = (await gql.student(sendDoc, { userId: String(asked.user.id) })).data.sendFriendRequest;
    expect(sent).toEqual({
      friendRequest: {
        id: sent.friendRequest.id,
        createdAt: sent.friendRequest.createdAt,
        requester: { id: String(w.student.id) },
        user: { id: String(asked.user.id) },
      },
      userErrors: [],
    });
    const id = Number(sent.friendRequest.id);
    expect(await events()).toEqual([
      ['friend_request.create', 'USER', asked.user.id, id, w.student.id, w.district.id, w.school.id],
    ]);
    expect((await asked.rest.get(`/users/${asked.user.id}/requests/friends`)).json.request).toEqual([
      requestWire({ id, createdAt: new Date(sent.friendRequest.createdAt) }, w.student, w.school),
    ]);
  });

  it('sendFriendRequest refuses oneself (INVALID), a pending request either way or friends (CONFLICT), hidden users', async () => {
    const pending = await classmate();
    const asking = await classmate();
    const friend = await classmate();
    await createFriendRequest(w.student.id, pending.user.id);
    await createFriendRequest(asking.user.id, w.student.id);
    await db().friendship.createMany({
      data: [
        { userId: w.student.id, friendId: friend.user.id },
        { userId: friend.user.id, friendId: w.student.id },
      ],
    });
    const send = async (userId: number) =>
      (await gql.student(sendDoc, { userId: String(userId) })).data.sendFriendRequest;
    await expectNothingWritten(async () => {
      expect(await send(w.student.id)).toEqual(refused('userId', 'INVALID', 'is yourself'));
      expect(await send(pending.user.id)).toEqual(
        refused('userId', 'CONFLICT', 'A request to that user is already pending'),
      );
      expect(await send(asking.user.id)).toEqual(
        refused('userId', 'CONFLICT', 'That user has already asked you: answer their request'),
      );
      expect(await send(friend.user.id)).toEqual(refused('userId', 'CONFLICT', 'You are already friends'));
      for (const hidden of [w.otherSchoolStudent, w.outsider, { id: 999999 }]) {
        expect(await send(hidden.id)).toEqual(refused('userId', 'NOT_FOUND', `User ${hidden.id} was not found`));
      }
    });
  });

  it('answerFriendRequest accepts (both see each other among friends) and denies; an answered request is NOT_FOUND', async () => {
    const { user, graphql } = await classmate();
    const [accepted, denied] = [
      await createFriendRequest(w.teacher.id, user.id),
      await createFriendRequest(w.parent.id, user.id),
    ];
    const vars = (request: Row, action: string) => ({ userId: String(user.id), id: String(request.id), action });
    await expectNothingWritten(async () => {
      expect(refusal(await gql.teacher(answerDoc, vars(accepted, 'ACCEPT')))).toEqual({
        ...forbidden(addressedOnly),
        data: { answerFriendRequest: null },
      });
      expect((await gql.outsider(answerDoc, vars(accepted, 'ACCEPT'))).data.answerFriendRequest).toEqual({
        answeredFriendRequest: null,
        deletedFriendRequestId: null,
        requester: null,
        userErrors: [{ field: ['input', 'userId'], code: 'NOT_FOUND', message: `User ${user.id} was not found` }],
      });
    });
    // The requester comes back with their friends as they now are, the user who accepted among them.
    expect((await graphql(answerDoc, vars(accepted, 'ACCEPT'))).data.answerFriendRequest).toEqual({
      answeredFriendRequest: {
        id: encodeGlobalId('FriendRequest', accepted.id),
        action: 'ACCEPT',
        requesterId: encodeGlobalId('User', w.teacher.id),
      },
      deletedFriendRequestId: encodeGlobalId('FriendRequest', accepted.id),
      requester: { id: String(w.teacher.id), friends: { items: expect.arrayContaining([{ id: String(user.id) }]) } },
      userErrors: [],
    });
    const deniedAnswer = (await graphql(answerDoc, vars(denied, 'DENY'))).data.answerFriendRequest;
    expect(deniedAnswer).toMatchObject({
      answeredFriendRequest: {
        id: encodeGlobalId('FriendRequest', denied.id),
        action: 'DENY',
        requesterId: encodeGlobalId('User', w.parent.id),
      },
      deletedFriendRequestId: encodeGlobalId('FriendRequest', denied.id),
      requester: { id: String(w.parent.id) },
      userErrors: [],
    });
    expect(deniedAnswer.requester.friends.items).not.toContainEqual({ id: String(user.id) });
    expect(await friendIds(graphql, user)).toEqual({ total: 1, items: [{ id: String(w.teacher.id) }] });
    expect((await friendIds(gql.teacher, w.teacher)).items).toContainEqual({ id: String(user.id) });
    expect((await friendIds(gql.parent, w.parent)).items).not.toContainEqual({ id: String(user.id) });
    const again = await expectNothingWritten(() => graphql(answerDoc, vars(accepted, 'DENY')));
    expect(again.data.answerFriendRequest.userErrors).toEqual([
      expect.objectContaining({ code: 'NOT_FOUND', message: `FriendRequest ${accepted.id} was not found` }),
    ]);
  });

  it('friends lists only the friends the viewer may see', async () => {
    const { user } = await classmate();
    await db().friendship.createMany({
      data: [w.teacher, w.otherSchoolStudent].flatMap((friend) => [
        { userId: user.id, friendId: friend.id },
        { userId: friend.id, friendId: user.id },
      ]),
    });
    const all = [w.teacher.id, w.otherSchoolStudent.id].sort((a, b) => a - b).map((id) => ({ id: String(id) }));
    expect(await friendIds(gql.districtAdmin, user)).toEqual({ total: 2, items: all });
    // Another school's student is hidden from a student here.
    expect(await friendIds(gql.student, user)).toEqual({ total: 1, items: [{ id: String(w.teacher.id) }] });
  });

  it('friendRequests: the same list as /v1; null when hidden, FORBIDDEN for others, BAD_USER_INPUT for unreadable createdAfterText', async () => {
    const { user, rest, graphql } = await classmate();
    const requests = [
      await createFriendRequest(w.teacher.id, user.id, { createdAt: new Date('2010-05-14T12:00:00Z') }),
      await createFriendRequest(w.parent.id, user.id),
    ];
    const listed = (await graphql(listDoc, { userId: String(user.id) })).data.friendRequests;
    expect(listed).toEqual({
      total: 2,
      items: requests.map((request, index) => ({
        id: String(request.id),
        createdAt: request.createdAt.toISOString(),
        requester: {
          id: String([w.teacher, w.parent][index]!.id),
          nameDisplay: `Test ${[w.teacher, w.parent][index]!.nameLast}`,
        },
        user: { id: String(user.id) },
      })),
    });
    const wire = (await rest.get(`/users/${user.id}/requests/friends`)).json.request;
    expect(
      wire.map((item: { id: string; requester_id: string; created: string; requester_name: string }) => [
        item.id,
        item.requester_id,
        item.created,
        item.requester_name,
      ]),
    ).toEqual(
      listed.items.map((item: { id: string; createdAt: string; requester: { id: string; nameDisplay: string } }) => [
        item.id,
        item.requester.id,
        unixText(new Date(item.createdAt)),
        item.requester.nameDisplay,
      ]),
    );
    expect(
      (await graphql(listDoc, { userId: String(user.id), createdAfterText: '2010-05-14 12:00:00' })).data.friendRequests
        .total,
    ).toBe(1);

    const unreadable = await graphql(listDoc, { userId: String(user.id), createdAfterText: 'whenever' });
    expect(unreadable.data).toEqual({ friendRequests: null });
    expect(unreadable.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'createdAfterText' });
    expect((await gql.outsider(listDoc, { userId: String(user.id) })).data).toEqual({ friendRequests: null });
    const refused = await gql.teacher(listDoc, { userId: String(user.id) });
    expect([refused.data, refused.errors?.[0]?.extensions?.code, refused.errors?.[0]?.message]).toEqual([
      { friendRequests: null },
      'FORBIDDEN',
      addressedOnly,
    ]);
    expect((await gql.districtAdmin(listDoc, { userId: String(user.id) })).data.friendRequests.total).toBe(2);
  });

  it('friendRequests and friendRequestsConnection take createdAfter as a DateTime; never with createdAfterText', async () => {
    const { user, graphql } = await classmate();
    await createFriendRequest(w.teacher.id, user.id, { createdAt: new Date('2010-05-14T12:00:00Z') });
    const later = await createFriendRequest(w.parent.id, user.id);
    const since = `query($userId: ID!, $createdAfter: DateTime, $createdAfterText: String) {
      friendRequests(userId: $userId, createdAfter: $createdAfter, createdAfterText: $createdAfterText) { items { id: databaseId } }
      friendRequestsConnection(userId: $userId, createdAfter: $createdAfter) { totalCount nodes { databaseId } } }`;
    const userId = String(user.id);
    expect((await graphql(since, { userId, createdAfter: '2010-05-14T12:00:00Z' })).data).toEqual({
      friendRequests: { items: [{ id: String(later.id) }] },
      friendRequestsConnection: { totalCount: 1, nodes: [{ databaseId: String(later.id) }] },
    });
    expect(
      (await graphql(since, { userId, createdAfter: '2010-05-14T11:59:59Z' })).data.friendRequestsConnection.totalCount,
    ).toBe(2);
    const both = await graphql(since, { userId, createdAfter: '2010-05-14T12:00:00Z', createdAfterText: 'yesterday' });
    expect(both.data.friendRequests).toBeNull();
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'createdAfterText' });
    const notDateTime = await graphql(since, { userId, createdAfter: 'yesterday' });
    expect(notDateTime.data).toBeUndefined();
    expect(notDateTime.errors?.[0]?.message).toMatch(/DateTime must be an ISO 8601 string/);
  });
});
