import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import type { PrivacyLevel, RealmType } from '../../src/generated/prisma/enums';
import { clientsFor } from '../support/client';
import { type World, createBlogPosts, createGroup, createSection, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
type Person = keyof Omit<World, 'district' | 'school' | 'building' | 'otherSchool' | 'otherDistrict' | 'farSchool'>;
let w: World;
let section: { id: number };
let group: { id: number };

const clients = clientsFor(server);
/** One signed REST client per user, issued on first use. */
const as = clients.rest;

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  // Members may not post here, so the student is a reader like the others; member posting has its own tests.
  group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id], memberPost: false });
});

interface RealmCase {
  name: string;
  type: RealmType;
  prefix: string;
  id(): number;
  /** Who administers the realm, and a reader of it who may not write. */
  admin: Person;
  reader: Person;
  /** The top-level school the realm's domain events name. */
  schoolId(): number | null;
}

const realms: RealmCase[] = [
  {
    name: 'district',
    type: 'DISTRICT',
    prefix: 'districts',
    id: () => w.district.id,
    admin: 'districtAdmin',
    reader: 'student',
    schoolId: () => null,
  },
  {
    name: 'school',
    type: 'SCHOOL',
    prefix: 'schools',
    id: () => w.school.id,
    admin: 'schoolAdmin',
    reader: 'teacher',
    schoolId: () => w.school.id,
  },
  {
    name: 'building',
    type: 'SCHOOL',
    prefix: 'schools',
    id: () => w.building.id,
    admin: 'schoolAdmin',
    reader: 'student',
    schoolId: () => w.school.id,
  },
  {
    name: 'user',
    type: 'USER',
    prefix: 'users',
    id: () => w.teacher.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
  {
    name: 'section',
    type: 'SECTION',
    prefix: 'sections',
    id: () => section.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
  {
    name: 'group',
    type: 'GROUP',
    prefix: 'groups',
    id: () => group.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
];

const url = (path: string) => `${v1}${path}`;
const postEvents = (objectId: number) =>
  db().domainEvent.findMany({
    where: { objectId, type: { startsWith: 'blog_post.' } },
    orderBy: { id: 'asc' },
    select: {
      type: true,
      realmType: true,
      realmId: true,
      objectId: true,
      actorId: true,
      districtId: true,
      schoolId: true,
    },
  });

/** Elements of one XML element's direct text children, e.g. `<id>5</id>` -> { id: '5' }. */
function xmlFields(xml: string, element: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${element}>(.*?)</${element}>`, 'g'))].map(([, inner]) =>
    Object.fromEntries([...inner!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map(([, name, value]) => [name!, value!])),
  );
}

describe.each(realms)('blog posts in the $name realm', (realm) => {
  const base = () => `/${realm.prefix}/${realm.id()}/posts`;
  const realmWhere = () => ({ realmType: realm.type, realmId: realm.id() });

  it('creates in JSON (201), views in JSON and XML with wire types, and records blog_post.create', async () => {
    const admin = await as(w[realm.admin]);
    const before = Math.floor(Date.now() / 1000);
    const created = await admin.post(base(), { title: `Hello ${realm.name}`, body: 'Line one<br>Line two & more' });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(typeof id).toBe('string');
    const stored = await db().blogPost.findUniqueOrThrow({ where: { id: Number(id) } });
    expect(stored).toMatchObject({ ...realmWhere(), title: `Hello ${realm.name}`, authorId: w[realm.admin].id });
    // The body is HTML, sanitized on write, which also writes it out in normal form.
    const post = {
      id,
      title: `Hello ${realm.name}`,
      body: 'Line one<br />Line two &amp; more',
      created: Math.floor(stored.createdAt.getTime() / 1000),
      links: { self: url(`${base()}/${id}`) },
    };
    expect(created.json).toEqual(post);
    expect(Number.isInteger(created.json.created)).toBe(true);
    expect(created.json.created).toBeGreaterThanOrEqual(before - 5);

    const viewed = await admin.get(`${base()}/${id}`);
    expect(viewed.status).toBe(200);
    expect(viewed.json).toEqual(post);

    const xml = await (await as(w[realm.reader])).get(`${base()}/${id}`, { accept: 'xml' });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(xml.text).toBe(
      `${xmlHead}<result>` +
        `<id>${id}</id><title>Hello ${realm.name}</title><body>Line one&lt;br /&gt;Line two &amp;amp; more</body>` +
        `<created>${post.created}</created><links><self>${post.links.self}</self></links></result>`,
    );

    expect(await postEvents(Number(id))).toEqual([
      {
        type: 'blog_post.create',
        realmType: realm.type,
        realmId: realm.id(),
        objectId: Number(id),
        actorId: w[realm.admin].id,
        districtId: w.district.id,
        schoolId: realm.schoolId(),
      },
    ]);
  });

  it('creates from an XML body and answers in XML; an empty body renders self-closing', async () => {
    const admin = await as(w[realm.admin]);
    const created = await admin.post(base(), '<body><title>From XML &amp; co</title><body>a&lt;br&gt;b</body></body>', {
      accept: 'xml',
    });
    expect(created.status).toBe(201);
    const [fields] = xmlFields(created.text, 'result');
    expect(fields).toMatchObject({ title: 'From XML &amp; co', body: 'a&lt;br /&gt;b' });
    expect(await db().blogPost.findUniqueOrThrow({ where: { id: Number(fields!.id) } })).toMatchObject({
      ...realmWhere(),
      title: 'From XML & co',
      body: 'a<br />b',
    });
    const bare = await admin.post(base(), '<body><title>No body</title></body>', { accept: 'xml' });
    expect(bare.status).toBe(201);
    expect(bare.text).toContain('<title>No body</title><body />');
  });

  it('lists oldest first with total, links.self showing start and limit, and links.next only when more', async () => {
    const before = await db().blogPost.count({ where: realmWhere() });
    const posts = await createBlogPosts({ type: realm.type, id: realm.id() }, 3, { title: (i) => `Paged ${i}` });
    const reader = await as(w[realm.reader]);
    const first = await reader.get(`${base()}?start=${before}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.json.total).toBe(before + 3);
    expect(first.json.post.map((p: { id: string }) => p.id)).toEqual([String(posts[0]!.id), String(posts[1]!.id)]);
    expect(first.json.post[0]).toEqual({
      id: String(posts[0]!.id),
      title: 'Paged 0',
      body: '',
      created: Math.floor(posts[0]!.createdAt.getTime() / 1000),
      links: { self: url(`${base()}/${posts[0]!.id}`) },
    });
    expect(first.json.links).toEqual({
      self: url(`${base()}?start=${before}&limit=2`),
      next: url(`${base()}?start=${before + 2}&limit=2`),
    });
    const last = await reader.get(`${base()}?start=${before + 2}&limit=2`, { accept: 'xml' });
    expect(last.status).toBe(200);
    expect(xmlFields(last.text, 'post').map((p) => p.title)).toEqual(['Paged 2']);
    expect(last.text).toContain(
      `<total>${before + 3}</total><links><self>${url(`${base()}?start=${before + 2}&amp;limit=2`)}</self></links></result>`,
    );
    const all = await reader.get(base());
    expect(all.json.links).toEqual({ self: url(`${base()}?start=0&limit=20`) });
    expect(all.json.post).toHaveLength(before + 3);
  });

  it('lets readers read, refuses their writes with 403, hides everything from outsiders with 404', async () => {
    const [{ id }] = await createBlogPosts({ type: realm.type, id: realm.id() }, 1, { title: () => 'Keep me' });
    const [reader, outsider] = await Promise.all([as(w[realm.reader]), as(w.outsider)]);
    expect((await reader.get(base())).status).toBe(200);
    expect((await reader.get(`${base()}/${id}`)).json.title).toBe('Keep me');
    await expectNothingWritten(async () => {
      expect((await reader.post(base(), { title: 'Nope' })).status).toBe(403);
      expect((await reader.put(`${base()}/${id}`, { title: 'Nope' })).status).toBe(403);
      expect((await reader.delete(`${base()}/${id}`)).status).toBe(403);
      const one = `${base()}/${id}`;
      const answers = [
        await outsider.get(base()),
        await outsider.get(one),
        await outsider.post(base(), { title: 'Nope' }),
      ];
      answers.push(await outsider.put(one, { title: 'Nope' }), await outsider.delete(one));
      expect(answers.map((response) => response.status)).toEqual([404, 404, 404, 404, 404]);
    });
  });

  it('updates (204, visible, blog_post.update) and deletes (204, then 404, blog_post.delete)', async () => {
    const admin = await as(w[realm.admin]);
    const created = await admin.post(base(), { title: 'Draft', body: 'Body stays' });
    const path = `${base()}/${created.json.id}`;
    const updated = await admin.put(path, { title: 'Final' });
    expect(updated.status).toBe(204);
    expect(updated.text).toBe('');
    expect((await admin.get(path)).json).toEqual({ ...created.json, title: 'Final', body: 'Body stays' });
    expect((await admin.put(path, '<body><body>New &amp; XML</body></body>')).status).toBe(204);
    expect((await admin.get(path)).json).toMatchObject({ title: 'Final', body: 'New &amp; XML' });

    const deleted = await admin.delete(path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await admin.get(path)).status).toBe(404);
    await expectNothingWritten(async () => {
      expect((await admin.delete(path)).status).toBe(404);
      expect((await admin.put(path, { title: 'Back' })).status).toBe(404);
    });
    const events = await postEvents(Number(created.json.id));
    expect(events.map((event) => [event.type, event.actorId, event.realmType, event.realmId])).toEqual(
      ['create', 'update', 'update', 'delete'].map((action) => [
        `blog_post.${action}`,
        w[realm.admin].id,
        realm.type,
        realm.id(),
      ]),
    );
  });

  it('rejects bad input with 400 naming the field and writes nothing', async () => {
    const admin = await as(w[realm.admin]);
    const [{ id }] = await createBlogPosts({ type: realm.type, id: realm.id() }, 1, { title: () => 'Original' });
    await expectNothingWritten(async () => {
      const missing = await admin.post(base(), { body: 'no title' });
      expect(missing.status).toBe(400);
      expect(missing.json).toEqual({
        error: 'title: is required',
        issues: [{ field: 'title', message: 'is required' }],
      });
      const blank = await admin.post(base(), '<body><title>   </title></body>');
      expect(blank.status).toBe(400);
      expect(blank.json).toEqual({ error: 'title: is required', issues: [{ field: 'title', message: 'is required' }] });
      const object = await admin.post(base(), { title: { text: 'x' } });
      expect(object.status).toBe(400);
      expect(object.json.issues).toEqual([{ field: 'title', message: 'must be a string' }]);
      const tooLong = await admin.post(base(), { title: 'x'.repeat(256) });
      expect(tooLong.json.issues).toEqual([{ field: 'title', message: 'must be at most 255 characters' }]);
      const json = await admin.post(base(), '{"title": "x"', { contentType: 'application/json' });
      expect([json.status, json.json.error]).toEqual([400, expect.stringMatching(/^Malformed JSON body/)]);
      const xml = await admin.post(base(), '<body><title>x</body>', { accept: 'xml' });
      expect(xml.status).toBe(400);
      expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="utf-8" \?><result><error>Malformed XML body: /);
      expect((await admin.post(base(), 'title=x', { contentType: 'application/x-www-form-urlencoded' })).status).toBe(
        415,
      );
      const emptied = await admin.put(`${base()}/${id}`, { title: '' });
      expect([emptied.status, emptied.json.issues]).toEqual([400, [{ field: 'title', message: 'is required' }]]);
    });
  });

  it('answers 404 for a post of another realm, an unknown post and an unknown realm id', async () => {
    const admin = await as(w.districtAdmin);
    const [other] = await createBlogPosts(
      { type: realm.type === 'GROUP' ? 'SECTION' : 'GROUP', id: realm.type === 'GROUP' ? section.id : group.id },
      1,
    );
    const [mine] = await createBlogPosts({ type: realm.type, id: realm.id() }, 1);
    await expectNothingWritten(async () => {
      for (const path of [`${base()}/${other!.id}`, `${base()}/999999`, `${base()}/4000000000`]) {
        expect((await admin.get(path)).status).toBe(404);
        expect((await admin.put(path, { title: 'x' })).status).toBe(404);
        expect((await admin.delete(path)).status).toBe(404);
      }
      for (const realmId of [999999, 4000000000]) {
        const unknown = `/${realm.prefix}/${realmId}/posts`;
        expect((await admin.get(unknown)).status).toBe(404);
        expect((await admin.get(`${unknown}/${mine!.id}`)).status).toBe(404);
        expect((await admin.post(unknown, { title: 'x' })).status).toBe(404);
      }
    });
  });

  it('has a GraphQL twin that returns the same data', async () => {
    const reader = await as(w[realm.reader]);
    const rest = await reader.get(`${base()}?limit=200`);
    const graphql = await clients.graphql(w[realm.reader]);
    const realmArg = { type: realm.type, id: String(realm.id()) };
    const list = await graphql(
      `query($realm: RealmInput!) { blogPosts(realm: $realm, limit: 200) { total start limit items { id: databaseId title body realmType realmId createdAt } } }`,
      { realm: realmArg },
    );
    expect(list.data.blogPosts).toMatchObject({ total: rest.json.total, start: 0, limit: 200 });
    const twin = list.data.blogPosts.items.map(
      (p: { id: string; title: string; body: string | null; createdAt: string }) => ({
        id: p.id,
        title: p.title,
        // GraphQL answers null for a post without a body, which /v1 shows as "".
        body: p.body ?? '',
        created: Math.floor(Date.parse(p.createdAt) / 1000),
        links: { self: url(`${base()}/${p.id}`) },
      }),
    );
    expect(twin).toEqual(rest.json.post);
    expect(
      list.data.blogPosts.items.every(
        (p: { realmType: string; realmId: string }) => p.realmType === realm.type && p.realmId === String(realm.id()),
      ),
    ).toBe(true);
    const one = await graphql(
      `query($realm: RealmInput!, $id: ID!) { blogPost(realm: $realm, id: $id) { id: databaseId title } }`,
      {
        realm: realmArg,
        id: twin[0].id,
      },
    );
    expect(one.data.blogPost).toEqual({ id: twin[0].id, title: twin[0].title });
  });
});

describe('who reads and who writes, realm by realm', () => {
  type Row = [realm: keyof typeof paths, who: Person, read: number, write: number];
  const paths = {
    district: () => `/districts/${w.district.id}/posts`,
    school: () => `/schools/${w.school.id}/posts`,
    building: () => `/schools/${w.building.id}/posts`,
    user: () => `/users/${w.teacher.id}/posts`,
    districtAdminUser: () => `/users/${w.districtAdmin.id}/posts`,
    section: () => `/sections/${section.id}/posts`,
    group: () => `/groups/${group.id}/posts`,
  };
  const rows: Row[] = [
    ['district', 'districtAdmin', 200, 201],
    ['district', 'schoolAdmin', 200, 403],
    ['district', 'otherSchoolStudent', 200, 403],
    ['district', 'parent', 200, 403],
    ['school', 'districtAdmin', 200, 201],
    ['school', 'parent', 200, 403],
    // Schools are known district-wide (GET /schools lists them), so their posts are too.
    ['school', 'otherSchoolStudent', 200, 403],
    ['building', 'districtAdmin', 200, 201],
    ['building', 'teacher', 200, 403],
    ['user', 'schoolAdmin', 200, 201],
    ['user', 'districtAdmin', 200, 201],
    ['user', 'parent', 200, 403],
    ['user', 'otherSchoolStudent', 404, 404],
    // A school administrator does not act in the realm of a district administrator of their school.
    ['districtAdminUser', 'schoolAdmin', 200, 403],
    ['districtAdminUser', 'districtAdmin', 200, 201],
    ['section', 'schoolAdmin', 200, 201],
    ['section', 'districtAdmin', 200, 201],
    ['section', 'parent', 403, 403],
    ['section', 'otherSchoolStudent', 404, 404],
    ['group', 'schoolAdmin', 200, 201],
    ['group', 'districtAdmin', 200, 201],
    ['group', 'parent', 200, 403],
    ['group', 'otherSchoolStudent', 404, 404],
  ];

  it.each(rows)('%s realm: %s reads with %i, creates with %i', async (realm, who, read, write) => {
    const client = await as(w[who]);
    const path = paths[realm];
    expect((await client.get(path())).status).toBe(read);
    const before = await db().blogPost.count();
    const created = await client.post(path(), { title: `By ${who}` });
    expect(created.status).toBe(write);
    expect(await db().blogPost.count()).toBe(before + (write === 201 ? 1 : 0));
  });

  it('closes a section to same-school users who are not enrolled (403 on list and view)', async () => {
    const [post] = await createBlogPosts({ type: 'SECTION', id: section.id }, 1);
    const parent = await as(w.parent);
    const view = await parent.get(`/sections/${section.id}/posts/${post!.id}`);
    expect(view.status).toBe(403);
    expect(view.json).toEqual({ error: 'You may not read this section' });
    const enrolledTeacher = await createUser(w.school.id, 'TEACHER');
    const plainSection = await createSection(w.school.id, [{ userId: enrolledTeacher.id, admin: false }]);
    const client = await as(enrolledTeacher);
    expect((await client.get(`/sections/${plainSection.id}/posts`)).status).toBe(200);
    expect((await client.post(`/sections/${plainSection.id}/posts`, { title: 'x' })).status).toBe(403);
  });

  it.each<[PrivacyLevel, Person, number]>([
    ['EVERYONE', 'otherSchoolStudent', 200],
    ['EVERYONE', 'outsider', 404],
    ['SCHOOL', 'parent', 200],
    ['BUILDING', 'student', 200],
    ['BUILDING', 'parent', 404],
    ['GROUP', 'parent', 404],
    ['GROUP', 'student', 200],
  ])('a group with privacy %s: %s reads with %i', async (privacyLevel, who, status) => {
    const privateGroup = await createGroup(w.school.id, {
      privacyLevel,
      buildingId: privacyLevel === 'BUILDING' ? w.building.id : undefined,
      admins: [w.teacher.id],
      members: privacyLevel === 'GROUP' ? [w.student.id] : [],
      memberPost: false,
    });
    const [post] = await createBlogPosts({ type: 'GROUP', id: privateGroup.id }, 1);
    const client = await as(w[who]);
    expect((await client.get(`/groups/${privateGroup.id}/posts`)).status).toBe(status);
    expect((await client.get(`/groups/${privateGroup.id}/posts/${post!.id}`)).status).toBe(status);
    expect((await client.post(`/groups/${privateGroup.id}/posts`, { title: 'x' })).status).toBe(
      status === 200 ? 403 : 404,
    );
  });
});

describe('group options: members post and comment when the group lets them', () => {
  const viewerCan = `query($id: ID!) { group(id: $id) { viewerCanPost viewerCanComment } }`;

  it('lets a member post when options/member_post is 1, and change only their own posts', async () => {
    const classmate = await createUser(w.school.id, 'STUDENT');
    const open = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id, classmate.id] });
    const base = `/groups/${open.id}/posts`;
    const [student, other, admin] = await Promise.all([as(w.student), as(classmate), as(w.teacher)]);
    const mine = await student.post(base, { title: 'Bake sale on Friday' });
    expect(mine.status).toBe(201);
    expect(await db().blogPost.findUniqueOrThrow({ where: { id: Number(mine.json.id) } })).toMatchObject({
      authorId: w.student.id,
    });
    expect((await student.put(`${base}/${mine.json.id}`, { title: 'Bake sale on Thursday' })).status).toBe(204);
    await expectNothingWritten(async () => {
      expect((await other.put(`${base}/${mine.json.id}`, { title: 'Cancelled' })).status).toBe(403);
      expect((await other.delete(`${base}/${mine.json.id}`)).status).toBe(403);
    });
    // The group's administrators moderate every post.
    expect((await admin.delete(`${base}/${mine.json.id}`)).status).toBe(204);
  });

  it('refuses members when options/member_post is 0, and readers who are not members, with 403', async () => {
    const closed = await createGroup(w.school.id, {
      admins: [w.teacher.id],
      members: [w.student.id],
      memberPost: false,
    });
    const everyone = await createGroup(w.school.id, { privacyLevel: 'EVERYONE', admins: [w.teacher.id] });
    // Clients are issued before the check: issuing one is a write.
    const [student, reader] = await Promise.all([as(w.student), as(w.otherSchoolStudent)]);
    await expectNothingWritten(async () => {
      const refused = await student.post(`/groups/${closed.id}/posts`, { title: 'x' });
      expect([refused.status, refused.json]).toEqual([403, { error: 'You may not change this group' }]);
      expect((await reader.post(`/groups/${everyone.id}/posts`, { title: 'x' })).status).toBe(403);
    });
    expect((await (await as(w.teacher)).post(`/groups/${closed.id}/posts`, { title: 'From the teacher' })).status).toBe(
      201,
    );
  });

  it.each([
    ['a member, both options on', 'student', true, true, [true, true]],
    ['a member, member_post 0', 'student', false, true, [false, true]],
    ['a member, member_post_comment 0', 'student', true, false, [true, false]],
    ['an administrator, both options off', 'teacher', false, false, [true, true]],
    ['a school administrator who is not a member', 'schoolAdmin', false, false, [true, true]],
    ['a reader who is not a member', 'parent', true, true, [false, false]],
  ] as const)(
    'tells GraphQL front ends what %s may do',
    async (_name, who, memberPost, memberPostComment, [post, comment]) => {
      const subject = await createGroup(w.school.id, {
        admins: [w.teacher.id],
        members: [w.student.id],
        memberPost,
        memberPostComment,
      });
      const graphql = await clients.graphql(w[who]);
      expect((await graphql(viewerCan, { id: String(subject.id) })).data.group).toEqual({
        viewerCanPost: post,
        viewerCanComment: comment,
      });
    },
  );
});

describe('routing, paging defaults and realm deletion', () => {
  it('answers 404 for unknown realm prefixes and non-numeric ids, 405 with Allow for other methods', async () => {
    const admin = await as(w.districtAdmin);
    for (const path of [
      '/courses/1/posts',
      `/groups/abc/posts`,
      `/groups/${group.id}/posts/abc`,
      `/groups/${group.id}/posts/1.5`,
    ]) {
      const response = await admin.get(path);
      expect([path, response.status]).toEqual([path, 404]);
    }
    expect((await admin.post('/courses/1/posts', { title: 'x' })).status).toBe(404);
    const put = await admin.put(`/groups/${group.id}/posts`, { title: 'x' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST, OPTIONS']);
    const unsigned = await server.fetch(`/v1/groups/${group.id}/posts`);
    expect(unsigned.status).toBe(401);
  });

  it('pages 20 at a time by default and clamps limit to 200', async () => {
    const fresh = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const posts = await createBlogPosts({ type: 'GROUP', id: fresh.id }, 21, { title: (i) => `P${i}` });
    const teacher = await as(w.teacher);
    const base = `/groups/${fresh.id}/posts`;
    const first = await teacher.get(base);
    expect(first.json.post.map((p: { title: string }) => p.title)).toEqual(posts.slice(0, 20).map((p) => p.title));
    expect(first.json).toMatchObject({
      total: 21,
      links: { self: url(`${base}?start=0&limit=20`), next: url(`${base}?start=20&limit=20`) },
    });
    const second = await teacher.get(`${base}?start=20`);
    expect(second.json).toEqual({
      post: [expect.objectContaining({ title: 'P20' })],
      total: 21,
      links: { self: url(`${base}?start=20&limit=20`) },
    });
    const big = await teacher.get(`${base}?limit=500`);
    expect([big.json.post.length, big.json.links]).toEqual([21, { self: url(`${base}?limit=200&start=0`) }]);
    const past = await teacher.get(`${base}?start=30`, { accept: 'xml' });
    expect(past.text).toContain('<result><post /><total>21</total>');
    expect((await teacher.get(`${base}?limit=0`)).status).toBe(400);
  });

  it('creates, changes and deletes through GraphQL payloads, with userErrors naming input members', async () => {
    const graphql = await clients.graphql(w.teacher);
    const create = `mutation($input: CreateBlogPostInput!) { createBlogPost(input: $input) {
      blogPost { id: databaseId title body realmType realmId authorId } userErrors { field code message } } }`;
    const realm = { type: 'GROUP', id: String(group.id) };
    const created = await graphql(create, { input: { realm, title: 'Via GraphQL', body: 'b' } });
    const post = created.data.createBlogPost.blogPost;
    expect(created.data.createBlogPost).toEqual({
      blogPost: {
        id: post.id,
        title: 'Via GraphQL',
        body: 'b',
        realmType: 'GROUP',
        realmId: String(group.id),
        authorId: String(w.teacher.id),
      },
      userErrors: [],
    });
    const rest = await (await as(w.student)).get(`/groups/${group.id}/posts/${post.id}`);
    expect(rest.json).toMatchObject({ id: post.id, title: 'Via GraphQL', body: 'b' });
    expect((await postEvents(Number(post.id))).map((e) => e.type)).toEqual(['blog_post.create']);

    const invalid = await expectNothingWritten(() => graphql(create, { input: { realm, title: ' ' } }));
    expect(invalid.data.createBlogPost).toEqual({
      blogPost: null,
      userErrors: [{ field: ['input', 'title'], code: 'REQUIRED', message: 'is required' }],
    });
    const missing = await graphql(create, { input: { realm: { type: 'GROUP', id: '999999' }, title: 'x' } });
    expect(missing.data.createBlogPost).toEqual({
      blogPost: null,
      userErrors: [{ field: ['input', 'realm', 'id'], code: 'NOT_FOUND', message: 'Group 999999 was not found' }],
    });

    const updated = await graphql(
      `mutation($input: UpdateBlogPostInput!) { updateBlogPost(input: $input) {
        blogPost { id title body } userErrors { field code message } } }`,
      { input: { realm, id: encodeGlobalId('BlogPost', Number(post.id)), title: 'Renamed' } },
    );
    expect(updated.data.updateBlogPost).toEqual({
      blogPost: { id: encodeGlobalId('BlogPost', Number(post.id)), title: 'Renamed', body: 'b' },
      userErrors: [],
    });
    const remove = `mutation($input: DeleteBlogPostInput!) { deleteBlogPost(input: $input) {
      deletedBlogPostId userErrors { field code message } } }`;
    const deleted = await graphql(remove, { input: { realm, id: post.id } });
    expect(deleted.data.deleteBlogPost).toEqual({
      deletedBlogPostId: encodeGlobalId('BlogPost', Number(post.id)),
      userErrors: [],
    });
    expect((await graphql(remove, { input: { realm, id: post.id } })).data.deleteBlogPost).toEqual({
      deletedBlogPostId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `BlogPost ${post.id} was not found` }],
    });
    const student = await clients.graphql(w.student);
    const forbidden = await student(create, { input: { realm, title: 'x' } });
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const hidden = await (await clients.graphql(w.outsider))(
      `{ blogPosts(realm: {type: GROUP, id: "${group.id}"}) { total } }`,
    );
    expect(hidden.data).toEqual({ blogPosts: null });
  });

  it('ignores /v1 body members it does not know, as the platform does; GraphQL refuses an input field it does not declare', async () => {
    const created = await (await as(w.teacher)).post(`/groups/${group.id}/posts`, {
      title: 'Extra',
      body: 'b',
      color: 'red',
      options: { pinned: 1 },
    });
    expect([created.status, created.json.title, created.json.body]).toEqual([201, 'Extra', 'b']);
    const graphql = await clients.graphql(w.teacher);
    const undeclared = await expectNothingWritten(() =>
      graphql(
        `mutation($realm: RealmInput!) { createBlogPost(input: { realm: $realm, title: "x", color: "red" }) { userErrors { code } } }`,
        {
          realm: { type: 'GROUP', id: String(group.id) },
        },
      ),
    );
    expect(undeclared.errors?.[0]?.message).toMatch(/"color" is not defined by type "CreateBlogPostInput"/);
  });

  it("authorizes before it validates: a reader's bad input is refused as forbidden, not as invalid", async () => {
    const student = await clients.graphql(w.student);
    const refused = await expectNothingWritten(() =>
      student(
        `mutation($realm: RealmInput!) { createBlogPost(input: { realm: $realm, title: " " }) { userErrors { code } } }`,
        {
          realm: { type: 'GROUP', id: String(group.id) },
        },
      ),
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect((await (await as(w.student)).post(`/groups/${group.id}/posts`, { title: ' ' })).status).toBe(403);
  });

  it('deletes a group together with its posts', async () => {
    const doomed = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const teacher = await as(w.teacher);
    const created = await teacher.post(`/groups/${doomed.id}/posts`, { title: 'Soon gone' });
    expect(created.status).toBe(201);
    expect((await teacher.delete(`/groups/${doomed.id}`)).status).toBe(204);
    expect((await teacher.get(`/groups/${doomed.id}/posts`)).status).toBe(404);
    expect((await teacher.get(`/groups/${doomed.id}/posts/${created.json.id}`)).status).toBe(404);
    expect(await db().blogPost.count({ where: { realmType: 'GROUP', realmId: doomed.id } })).toBe(0);
    const graphql = await clients.graphql(w.districtAdmin);
    const twin = await graphql(
      `{ blogPost(realm: {type: GROUP, id: "${doomed.id}"}, id: "${created.json.id}") { id: databaseId } }`,
    );
    expect(twin.data).toEqual({ blogPost: null });
  });
});
