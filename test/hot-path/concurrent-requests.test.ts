import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { listenToRealms } from '../../src/outbox/bus';
import { readById } from '../../src/graphql/reads-by-id';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type ApiResponse, type RestClient, restClientFor } from '../support/client';
import { createGroup, createWorld, type World } from '../support/factories';
import { testOrigin, useTestServer } from '../support/harness';

// With the credential cache on, as in production: requests that arrive together reach their statements in one turn.
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });

/**
 * What concurrent requests share: the OAuth nonces of the requests that reach the check in one turn of the event loop
 * are recorded by one INSERT, and the objects they ask for by id, the realms whose access they check, and district
 * administrators' list windows are read by one SELECT. Each request is still answered by its own viewer's rules.
 */
describe('concurrent requests', () => {
  let world: World;
  let teacher: RestClient;
  let admin: RestClient;
  let visible: { id: number; title: string };
  let hidden: { id: number; title: string };
  let another: { id: number; title: string };
  const missing = 2_147_483_000;

  beforeAll(async () => {
    world = await createWorld();
    visible = await createGroup(world.school.id, { privacyLevel: 'SCHOOL' });
    hidden = await createGroup(world.otherSchool.id, { privacyLevel: 'GROUP' });
    another = await createGroup(world.school.id, { privacyLevel: 'SCHOOL' });
    teacher = await restClientFor(server, world.teacher);
    admin = await restClientFor(server, world.districtAdmin);
    // Their consumer keys are cached from here on.
    expect((await teacher.get('/users/me')).status).toBe(303);
    expect((await admin.get('/users/me')).status).toBe(303);
  });

  /**
   * Bearer tokens of `users`, returned once the log follower has read their issue. The credential cache drops a user's
   * entries when the follower reads an event of theirs, such as a token's issue; on PostgreSQL another file's open
   * transaction can hold that read back by a poll. Waiting for it keeps it from landing among requests sent together,
   * where the dropped credential would be read again and its request would reach the shared statement a turn late.
   */
  async function heardTokens(users: { id: number }[]): Promise<string[]> {
    let allHeard!: () => void;
    const heard = new Promise<void>((resolve) => (allHeard = resolve));
    let unheard = users.length;
    const listening = listenToRealms(
      users.map(({ id }) => ({ type: 'USER', id })),
      () => --unheard === 0 && allHeard(),
    );
    try {
      await listening.ready;
      const tokens = await Promise.all(users.map(async (user) => (await issueAccessToken({ userId: user.id })).token));
      await heard;
      return tokens;
    } finally {
      listening.stop();
    }
  }

  /** The answers of requests sent at once, and the statements they sent. */
  async function together<T>(requests: (() => T | Promise<T>)[]) {
    let answers: T[] = [];
    const statements = await server.database.statementsOf(async () => {
      answers = await Promise.all(requests.map((request) => request()));
    });
    return { answers, statements };
  }

  it('record their OAuth nonces with one statement, and let one of two identical requests through', async () => {
    const { answers, statements } = await together(Array.from({ length: 5 }, () => () => teacher.get('/users/me')));
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303, 303, 303]);
    expect(statements.filter((sql) => sql.includes('oauth_nonces'))).toHaveLength(1);

    const url = `${testOrigin}/v1/users/me`;
    const authorization = teacher.authorization('GET', url);
    const twice = await together(
      [0, 1].map(() => () => server.app.fetch(new Request(url, { headers: { authorization } }))),
    );
    const [passed, refused] = twice.answers.sort((one, other) => one.status - other.status);
    expect([passed!.status, refused!.status]).toEqual([303, 401]);
    expect(await refused!.text()).toBe(
      'Duplicate timestamp/nonce combination, possible replay attack. Request rejected.',
    );
  });

  it("read the groups they ask for by id with one statement, each answered by its own viewer's rules", async () => {
    const { answers, statements } = await together<ApiResponse>([
      () => teacher.get(`/groups/${visible.id}`),
      () => teacher.get(`/groups/${hidden.id}`),
      () => admin.get(`/groups/${hidden.id}`),
      () => teacher.get(`/groups/${another.id}`),
      () => admin.get(`/groups/${visible.id}`),
      () => teacher.get(`/groups/${missing}`),
    ]);
    expect(answers.map(({ status }) => status)).toEqual([200, 404, 200, 200, 200, 404]);
    expect(answers.map(({ status, json }) => (status === 200 ? json.title : null))).toEqual([
      visible.title,
      null,
      hidden.title,
      another.title,
      visible.title,
      null,
    ]);
    // `/v1` asks no relation of a group, so its rows are read directly (not by Prisma, whose own batching within a tick
    // would have joined them on PGlite, which answers without I/O); without readById each request reads its own.
    expect(statements.filter((sql) => sql.includes('FROM groups JOIN schools'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('"public"."groups"'))).toEqual([]);
  });

  it('read the realm facts their writes check with one statement: the schools of concurrent creates', async () => {
    const [token] = await heardTokens([world.districtAdmin]);
    const create = (school: { id: number }, title: string) =>
      server.app.fetch(
        new Request(`${testOrigin}/v1/groups`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ title, school_id: String(school.id) }),
        }),
      );
    expect((await create(world.school, 'Caches the token')).status).toBe(201);
    // Started in turn, each after the process's queued ticks ran: arriving apart as over the network, and not in the
    // same tick, where Prisma's own batching would join their reads.
    const { answers, statements } = await together(
      [world.school, world.otherSchool, world.school, world.farSchool].map((school, index) => async () => {
        for (let tick = 0; tick < index; tick++) await new Promise((resolve) => process.nextTick(resolve));
        return create(school, `Made together ${index}`);
      }),
    );
    expect(answers.map(({ status }) => status)).toEqual([201, 201, 201, 404]);
    const created = await Promise.all(answers.slice(0, 3).map(async (answer) => (await answer.json()).school_id));
    expect(created).toEqual([world.school.id, world.otherSchool.id, world.school.id].map(String));
    // Each create's writes are its own; the schools' facts before them come in one read.
    expect(statements.filter((sql) => /\bFROM schools WHERE id = ANY\(/.test(sql))).toHaveLength(1);
  });

  it("read their viewers' group memberships with one statement, each request its own map", async () => {
    // The teacher belongs to the hidden group (of another school, members only); the student does not.
    const member = await db().groupMembership.create({
      data: { groupId: hidden.id, userId: world.teacher.id, admin: false },
    });
    try {
      const users = [world.teacher, world.student];
      const tokens = new Map((await heardTokens(users)).map((token, index) => [users[index]!.id, token]));
      const read = (user: { id: number }, group: { id: number }) =>
        server.app.fetch(
          new Request(`${testOrigin}/v1/groups/${group.id}`, {
            headers: { authorization: `Bearer ${tokens.get(user.id)}`, accept: 'application/json' },
          }),
        );
      for (const user of users) expect((await read(user, visible)).status).toBe(200); // tokens cached
      // Started a tick apart, as requests arriving over the network are (see the creates above).
      const { answers, statements } = await together(
        [
          [world.teacher, hidden],
          [world.student, hidden],
          [world.teacher, visible],
          [world.student, visible],
        ].map(([user, group], index) => async () => {
          for (let tick = 0; tick < index; tick++) await new Promise((resolve) => process.nextTick(resolve));
          return read(user!, group!);
        }),
      );
      expect(answers.map(({ status }) => status)).toEqual([200, 404, 200, 200]);
      expect(statements.filter((sql) => sql.includes('FROM "public"."group_memberships"'))).toHaveLength(1);
    } finally {
      await db().groupMembership.delete({ where: { id: member.id } });
    }
  });

  it('read the list windows of district administrators with one statement, each request its own page and total', async () => {
    await createGroup(world.farSchool.id);
    const [ownDistrict, otherDistrict] = await heardTokens([world.districtAdmin, world.outsider]);
    const answerOf = async (url: string, token: string) =>
      (
        await server.app.fetch(
          new Request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }),
        )
      ).json();
    const list = (token: string, query: string) => () => answerOf(`${testOrigin}/v1/groups?${query}`, token);
    // A GET, whose document needs no body read first: a POST's body arrives in a later turn.
    const schoolPage = (token: string, schoolId: number) => () => {
      const query = encodeURIComponent(
        `{ groups(schoolId: "${schoolId}", start: 0, limit: 5) { total items { databaseId } } }`,
      );
      return answerOf(`${testOrigin}/graphql?query=${query}`, token);
    };
    const requests = [
      list(ownDistrict!, 'start=0&limit=2'),
      list(otherDistrict!, 'start=0&limit=2'),
      list(ownDistrict!, 'start=1&limit=2'),
      schoolPage(ownDistrict!, world.otherSchool.id),
      list(ownDistrict!, 'start=100&limit=2'),
      list(ownDistrict!, 'start=0&limit=2'),
    ];
    const alone = [];
    for (const request of requests) alone.push(await request());
    const { answers, statements } = await together(requests);
    expect(answers).toEqual(alone);
    // Each its own: two districts, pages from other starts, one school's, one past the end with its total alone.
    expect(alone.map((answer) => answer.total ?? answer.data.groups.total)).toEqual([
      alone[0].total,
      1,
      alone[0].total,
      alone[3].data.groups.total,
      alone[0].total,
      alone[0].total,
    ]);
    expect(alone[3].data.groups.total).toBeLessThan(alone[0].total);
    expect(alone[3].data.groups.items).toContainEqual({ databaseId: String(hidden.id) });
    expect(alone[4].group).toEqual([]);
    expect(alone[2].group[0]).toEqual(alone[0].group[1]);
    expect(statements.filter((sql) => sql.includes('school_group_counts'))).toHaveLength(1);
  });

  it('match rows to their readers when the selection leaves the id out, and fail every reader of a failed read', async () => {
    const titleOnly = { select: { title: true } };
    const { answers, statements } = await together(
      [visible.id, another.id, missing].map((id) => () => readById('Group', titleOnly, id)),
    );
    expect(answers).toEqual([
      expect.objectContaining({ title: visible.title }),
      expect.objectContaining({ title: another.title }),
      null,
    ]);
    expect(statements).toHaveLength(1);

    const unknownColumn = { select: { noSuchColumn: true } };
    const outcomes = await Promise.allSettled(
      [visible.id, another.id].map((id) => readById('Group', unknownColumn, id)),
    );
    expect(outcomes.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
  });
});
