import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import type { RealmType } from '../../src/generated/prisma/enums';
import { clientsFor } from '../support/client';
import {
  type World,
  createGradingGroup,
  createGroup,
  createPage,
  createSection,
  createUser,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
let w: World;
let section: { id: number };
let group: { id: number };
/** The enrollments of the section: the teacher's, the student's, and a classmate's. */
const enrollment = { student: 0, classmate: 0 };
let classmate: { id: number };

beforeAll(async () => {
  w = await createWorld();
  classmate = await createUser(w.school.id, 'STUDENT');
  section = await createSection(w.school.id, [
    { userId: w.teacher.id, admin: true },
    { userId: w.student.id },
    { userId: classmate.id },
  ]);
  const rows = await db().enrollment.findMany({ where: { sectionId: section.id } });
  enrollment.student = rows.find((row) => row.userId === w.student.id)!.id;
  enrollment.classmate = rows.find((row) => row.userId === classmate.id)!.id;
  group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id, classmate.id] });
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'districtAdmin'], w);
  await clients.rest(classmate);
});

const url = (path: string) => `${v1}${path}`;
const ids = (response: { json: { page: { id: number }[] } }) => response.json.page.map((page) => page.id);

const realms: { name: string; type: RealmType; prefix: string; id(): number }[] = [
  { name: 'section', type: 'SECTION', prefix: 'sections', id: () => section.id },
  { name: 'group', type: 'GROUP', prefix: 'groups', id: () => group.id },
];

describe.each(realms)('pages of a $name', (realm) => {
  const base = () => `/${realm.prefix}/${realm.id()}/pages`;

  it("creates in JSON (201) with the spec's members; views at /page/{id} and /pages/{id} in JSON and XML; records page.create", async () => {
    const teacher = await as(w.teacher);
    const events = await watchDomainEvents();
    const created = await teacher.post(base(), { title: 'Syllabus', body: '<p>Read <b>chapter 1</b> &amp; 2</p>' });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const stored = await db().page.findUniqueOrThrow({ where: { id } });
    const page = {
      id,
      title: 'Syllabus',
      body: '<p>Read <b>chapter 1</b> &amp; 2</p>',
      parent: 0,
      published: 1,
      inline: 0,
      created: Math.floor(stored.createdAt.getTime() / 1000),
      children: [],
      available: 1,
      completed: 0,
      completion_status: '',
      num_assignees: 0,
      assignees: [],
      grading_group_ids: [],
      links: { self: url(`${base()}/${id}`) },
    };
    expect(created.json).toEqual(page);
    expect(await events()).toEqual([
      ['page.create', realm.type, realm.id(), id, w.teacher.id, w.district.id, w.school.id],
    ]);

    const student = await as(w.student);
    expect((await student.get(`/${realm.prefix}/${realm.id()}/page/${id}`)).json).toEqual(page);
    expect((await student.get(`${base()}/${id}`)).json).toEqual(page);
    const xml = await student.get(`/${realm.prefix}/${realm.id()}/page/${id}`, { accept: 'xml' });
    expect(xml.text).toBe(
      `${xmlHead}<result><id>${id}</id><title>Syllabus</title><body>&lt;p&gt;Read &lt;b&gt;chapter 1&lt;/b&gt; &amp;amp; 2&lt;/p&gt;</body>` +
        `<parent>0</parent><published>1</published><inline>0</inline><created>${page.created}</created><children />` +
        '<available>1</available><completed>0</completed><completion_status /><num_assignees>0</num_assignees><assignees />' +
        `<grading_group_ids /><links><self>${page.links.self}</self></links></result>`,
    );
  });

  it('lists oldest first, without bodies unless withcontent=1, paged with total and links', async () => {
    const fresh =
      realm.type === 'SECTION'
        ? await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }])
        : await createGroup(w.school.id, { admins: [w.teacher.id] });
    const path = `/${realm.prefix}/${fresh.id}/pages`;
    const pages = [];
    for (const title of ['One', 'Two', 'Three'])
      pages.push(await createPage({ type: realm.type, id: fresh.id }, { title, body: `<p>${title}</p>` }));
    const teacher = await as(w.teacher);
    const plain = await teacher.get(`${path}?limit=2`);
    expect([ids(plain), plain.json.total]).toEqual([[pages[0]!.id, pages[1]!.id], 3]);
    expect(plain.json.page[0]).not.toHaveProperty('body');
    expect(plain.json.links).toEqual({ self: url(`${path}?limit=2&start=0`), next: url(`${path}?limit=2&start=2`) });
    const full = await teacher.get(`${path}?withcontent=1`, { accept: 'xml' });
    expect(full.text).toContain(
      `<page><id>${pages[2]!.id}</id><title>Three</title><body>&lt;p&gt;Three&lt;/p&gt;</body><parent>0</parent>`,
    );
    expect((await teacher.get(`${path}?withcontent=0`)).json.page[0]).not.toHaveProperty('body');
  });

  it('updates (204) and deletes (204, then 404), recording page.update and page.delete', async () => {
    const teacher = await as(w.teacher);
    const created = await teacher.post(base(), { title: 'Draft', body: 'Body stays', inline: 1 });
    const path = `${base()}/${created.json.id}`;
    expect((await teacher.put(path, { title: 'Final', published: 0 })).status).toBe(204);
    expect((await teacher.get(path)).json).toMatchObject({
      title: 'Final',
      body: 'Body stays',
      published: 0,
      inline: 1,
    });
    expect((await teacher.put(path, '<body><body>New &amp; XML</body></body>')).status).toBe(204);
    expect((await teacher.get(path)).json).toMatchObject({ title: 'Final', body: 'New &amp; XML' });
    expect((await teacher.delete(path)).status).toBe(204);
    expect((await teacher.get(path)).status).toBe(404);
    await expectNothingWritten(async () => {
      expect((await teacher.put(path, { title: 'Back' })).status).toBe(404);
      expect((await teacher.delete(path)).status).toBe(404);
    });
  });

  it('hides an unpublished page from members (404, left out of lists) but not from its administrators', async () => {
    const hidden = await createPage({ type: realm.type, id: realm.id() }, { title: 'Answer key', published: false });
    const [student, teacher] = [await as(w.student), await as(w.teacher)];
    expect((await student.get(`${base()}/${hidden.id}`)).status).toBe(404);
    expect(ids(await student.get(`${base()}?limit=200`))).not.toContain(hidden.id);
    expect((await teacher.get(`${base()}/${hidden.id}`)).json).toMatchObject({ title: 'Answer key', published: 0 });
    expect(ids(await teacher.get(`${base()}?limit=200`))).toContain(hidden.id);
  });

  it("refuses members' writes with 403 and hides everything from outsiders with 404, writing nothing", async () => {
    const page = await createPage({ type: realm.type, id: realm.id() });
    const [student, outsider] = [await as(w.student), await as(w.outsider)];
    await expectNothingWritten(async () => {
      const one = `${base()}/${page.id}`;
      expect([
        (await student.post(base(), { title: 'x' })).status,
        (await student.put(one, { title: 'x' })).status,
        (await student.delete(one)).status,
      ]).toEqual([403, 403, 403]);
      const answers = [
        await outsider.get(base()),
        await outsider.get(one),
        await outsider.post(base(), { title: 'x' }),
        await outsider.put(one, { title: 'x' }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    });
  });

  it('nests pages: parent on create and update, children listed, and refuses a parent elsewhere or a loop (400 parent)', async () => {
    const teacher = await as(w.teacher);
    const top = (await teacher.post(base(), { title: 'Unit 1' })).json;
    const child = (await teacher.post(base(), { title: 'Lesson 1', parent: top.id })).json;
    const grandchild = (await teacher.post(base(), { title: 'Worksheet', parent: String(child.id) })).json;
    const hiddenChild = await createPage({ type: realm.type, id: realm.id() }, { parentId: top.id, published: false });
    expect([child.parent, grandchild.parent]).toEqual([top.id, child.id]);
    expect((await teacher.get(`${base()}/${top.id}`)).json.children).toEqual([child.id, hiddenChild.id]);
    expect((await (await as(w.student)).get(`${base()}/${top.id}`)).json.children).toEqual([child.id]);

    const elsewhere = await createPage({
      type: realm.type === 'GROUP' ? 'SECTION' : 'GROUP',
      id: realm.type === 'GROUP' ? section.id : group.id,
    });
    await expectNothingWritten(async () => {
      for (const [body, message] of [
        [{ parent: elsewhere.id }, 'must be a page of the same realm'],
        [{ parent: 999999 }, 'must be a page of the same realm'],
        [{ parent: grandchild.id }, 'must not be the page itself or a page nested under it'],
        [{ parent: top.id }, 'must not be the page itself or a page nested under it'],
      ] as const) {
        const refused = await teacher.put(`${base()}/${top.id}`, body);
        expect([refused.status, refused.json.issues]).toEqual([400, [{ field: 'parent', message }]]);
      }
    });
    // Moved to the top, and deleting a parent moves what was under it up to the top.
    expect((await teacher.put(`${base()}/${grandchild.id}`, { parent: 0 })).status).toBe(204);
    expect((await teacher.delete(`${base()}/${top.id}`)).status).toBe(204);
    expect((await teacher.get(`${base()}/${child.id}`)).json.parent).toBe(0);
  });
});

describe('tags', () => {
  it('are set on create and update, and shown only with with_tags=1, in JSON and XML', async () => {
    const teacher = await as(w.teacher);
    const base = `/sections/${section.id}/pages`;
    const created = await teacher.post(base, { title: 'Fractions', tags: ['math', 'grade 5'] });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('tags');
    const path = `${base}/${created.json.id}`;
    const student = await as(w.student);
    expect((await student.get(`${path}?with_tags=1`)).json.tags).toEqual(['math', 'grade 5']);
    expect((await student.get(`/sections/${section.id}/page/${created.json.id}`)).json).not.toHaveProperty('tags');
    const listed = await student.get(`${base}?with_tags=1&limit=200`);
    expect(listed.json.page.find((page: { id: number }) => page.id === created.json.id).tags).toEqual([
      'math',
      'grade 5',
    ]);
    expect((await student.get(`${base}?limit=200`)).json.page.every((page: object) => !('tags' in page))).toBe(true);

    expect((await teacher.put(path, '<body><tags>geometry</tags></body>')).status).toBe(204);
    const xml = await student.get(`${path}?with_tags=1`, { accept: 'xml' });
    expect(xml.text).toContain('<tags>geometry</tags><links>');
    expect((await teacher.put(path, { tags: [] })).status).toBe(204);
    expect((await student.get(`${path}?with_tags=1`)).json.tags).toEqual([]);
    await expectNothingWritten(async () => {
      const refused = await teacher.put(path, { tags: ['ok', '  '] });
      expect([refused.status, refused.json.issues]).toEqual([400, [{ field: 'tags.1', message: 'is required' }]]);
      const broken = await teacher.put(path, { tags: ['\udfffut'] });
      expect([broken.status, broken.json.issues]).toEqual([
        400,
        [{ field: 'tags.0', message: 'must be well-formed Unicode text' }],
      ]);
    });
  });
});

describe('assigning section pages to enrollments and grading groups', () => {
  const base = () => `/sections/${section.id}/pages`;

  it('shows an assigned page only to its assignees and grading groups (and administrators); num_assignees counts', async () => {
    const teacher = await as(w.teacher);
    const created = await teacher.post(base(), { title: 'Extra practice', assignees: [enrollment.student] });
    expect(created.json).toMatchObject({ num_assignees: 1, assignees: [enrollment.student], grading_group_ids: [] });
    const path = `${base()}/${created.json.id}`;
    expect((await (await as(w.student)).get(path)).status).toBe(200);
    expect((await (await as(classmate)).get(path)).status).toBe(404);
    expect(ids(await (await as(classmate)).get(`${base()}?limit=200`))).not.toContain(created.json.id);

    const grading = await createGradingGroup(section.id, [enrollment.classmate]);
    expect((await teacher.put(path, { grading_group_ids: [grading.id] })).status).toBe(204);
    expect((await (await as(classmate)).get(path)).json).toMatchObject({
      assignees: [enrollment.student],
      grading_group_ids: [grading.id],
    });
  });

  it('reads lists from repeated XML elements, and clears them with [] or an empty element', async () => {
    const teacher = await as(w.teacher);
    const body = `<body><title>Lab</title><assignees>${enrollment.student}</assignees><assignees>${enrollment.classmate}</assignees></body>`;
    const created = await teacher.post(base(), body, { accept: 'xml' });
    expect(created.status).toBe(201);
    expect(created.text).toContain(
      `<num_assignees>2</num_assignees><assignees>${enrollment.student}</assignees><assignees>${enrollment.classmate}</assignees>`,
    );
    const id = /<id>(\d+)<\/id>/.exec(created.text)![1];
    expect(
      (await teacher.put(`${base()}/${id}`, `<body><assignees>${enrollment.student}</assignees></body>`)).status,
    ).toBe(204);
    expect((await teacher.get(`${base()}/${id}`)).json.assignees).toEqual([enrollment.student]);
    expect((await teacher.put(`${base()}/${id}`, '<body><assignees /></body>')).status).toBe(204);
    expect((await teacher.get(`${base()}/${id}`)).json).toMatchObject({ num_assignees: 0, assignees: [] });
    expect((await teacher.put(`${base()}/${id}`, { assignees: [enrollment.student] })).status).toBe(204);
    expect((await teacher.put(`${base()}/${id}`, { assignees: [] })).status).toBe(204);
    expect((await teacher.get(`${base()}/${id}`)).json.assignees).toEqual([]);
  });

  it('refuses an enrollment or grading group of another section with 400 naming the member, writing nothing', async () => {
    const other = await createSection(w.school.id, [{ userId: w.student.id }]);
    const [foreign] = await db().enrollment.findMany({ where: { sectionId: other.id } });
    const foreignGroup = await createGradingGroup(other.id);
    const teacher = await as(w.teacher);
    await expectNothingWritten(async () => {
      const assignees = await teacher.post(base(), { title: 'x', assignees: [enrollment.student, foreign!.id] });
      expect([assignees.status, assignees.json.issues]).toEqual([
        400,
        [{ field: 'assignees', message: `must be enrollments of this section; not: ${foreign!.id}` }],
      ]);
      const groups = await teacher.post(base(), { title: 'x', grading_group_ids: [foreignGroup.id] });
      expect(groups.json.issues).toEqual([
        { field: 'grading_group_ids', message: `must be grading groups of this section; not: ${foreignGroup.id}` },
      ]);
      const malformed = await teacher.post(base(), { title: 'x', assignees: 'all' });
      expect([malformed.status, malformed.json.issues]).toEqual([
        400,
        [{ field: 'assignees', message: 'must be a list' }],
      ]);
      const onGroup = await teacher.post(`/groups/${group.id}/pages`, { title: 'x', assignees: [enrollment.student] });
      expect([onGroup.status, onGroup.json.issues]).toEqual([
        400,
        [{ field: 'assignees', message: "must be empty: a group's pages are for all of its members" }],
      ]);
    });
  });
});

describe('page bodies are sanitized on write', () => {
  it.each([
    ['<p>Hi</p><script>alert(1)</script>', '<p>Hi</p>'],
    ['<p onclick="steal()">Click</p>', '<p>Click</p>'],
    ['<img src="https://cdn.test/a.png" onerror="alert(1)" alt="A">', '<img src="https://cdn.test/a.png" alt="A" />'],
    ['<a href="javascript:alert(1)">x</a>', '<a rel="noopener noreferrer">x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a rel="noopener noreferrer">x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a rel="noopener noreferrer">x</a>'],
    [
      '<a href="https://example.test/reading" target="_blank">Reading</a>',
      '<a href="https://example.test/reading" target="_blank" rel="noopener noreferrer">Reading</a>',
    ],
    ['<iframe src="https://evil.test"></iframe><p>after</p>', '<p>after</p>'],
    ['<svg onload="alert(1)"><circle /></svg>', ''],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=">', '<img />'],
    ['<style>body{display:none}</style><p style="position:fixed">Styled</p>', '<p>Styled</p>'],
    ['<form action="https://evil.test"><input name="password"></form>', ''],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', '<table></table>'],
    ['Line one<br>Line two &amp; <i>three</i>', 'Line one<br />Line two &amp; <i>three</i>'],
  ])('%s is stored as %s', async (body, stored) => {
    const created = await (await as(w.teacher)).post(`/sections/${section.id}/pages`, { title: 'XSS', body });
    expect(created.json.body).toBe(stored);
    expect((await db().page.findUniqueOrThrow({ where: { id: created.json.id } })).body).toBe(stored);
  });

  it('sanitizes updates too', async () => {
    const teacher = await as(w.teacher);
    const created = await teacher.post(`/groups/${group.id}/pages`, { title: 'Later' });
    await teacher.put(`/groups/${group.id}/pages/${created.json.id}`, {
      body: '<b onmouseover="x()">bold</b><script>x()</script>',
    });
    expect((await db().page.findUniqueOrThrow({ where: { id: created.json.id } })).body).toBe('<b>bold</b>');
  });
});

describe('GraphQL', () => {
  it('has twins of the REST operations that return the same data, in payloads', async () => {
    const graphql = await clients.graphql(w.teacher);
    const realm = { type: 'SECTION', id: String(section.id) };
    const created = await graphql(
      `mutation($input: CreatePageInput!) {
        createPage(input: $input) {
          page { id: databaseId title body published inline parentId childIds assigneeIds gradingGroupIds realmType realmId }
          userErrors { field code message }
        }
      }`,
      {
        input: {
          realm,
          title: 'From GraphQL',
          body: '<p onclick="x()">Hello</p>',
          assigneeIds: [String(enrollment.student)],
        },
      },
    );
    const page = created.data.createPage.page;
    expect(created.data.createPage).toEqual({
      page: {
        id: page.id,
        title: 'From GraphQL',
        body: '<p>Hello</p>',
        published: true,
        inline: false,
        parentId: null,
        childIds: [],
        assigneeIds: [String(enrollment.student)],
        gradingGroupIds: [],
        realmType: 'SECTION',
        realmId: String(section.id),
      },
      userErrors: [],
    });
    const rest = await (await as(w.teacher)).get(`/sections/${section.id}/pages/${page.id}`);
    expect(rest.json).toMatchObject({
      id: Number(page.id),
      title: 'From GraphQL',
      body: '<p>Hello</p>',
      assignees: [enrollment.student],
    });
    const listed = await graphql(
      `query($realm: RealmInput!) { pages(realm: $realm, limit: 200) { total items { id: databaseId } } }`,
      { realm },
    );
    expect(listed.data.pages.items.map((item: { id: string }) => Number(item.id))).toEqual(
      ids(await (await as(w.teacher)).get(`/sections/${section.id}/pages?limit=200`)),
    );
    const update = `mutation($input: UpdatePageInput!) { updatePage(input: $input) {
      page { title inline } userErrors { field code message } } }`;
    const refused = await graphql(update, { input: { realm, id: page.id, parentId: page.id } });
    expect(refused.data.updatePage).toEqual({
      page: null,
      userErrors: [
        {
          field: ['input', 'parentId'],
          code: 'INVALID',
          message: 'must not be the page itself or a page nested under it',
        },
      ],
    });
    const changed = await graphql(update, { input: { realm, id: page.id, inline: true } });
    expect(changed.data.updatePage).toEqual({ page: { title: 'From GraphQL', inline: true }, userErrors: [] });
    const deleted = await graphql(
      `mutation($input: DeletePageInput!) { deletePage(input: $input) { deletedPageId userErrors { code } } }`,
      { input: { realm, id: page.id } },
    );
    expect(deleted.data.deletePage).toEqual({
      deletedPageId: encodeGlobalId('Page', Number(page.id)),
      userErrors: [],
    });
  });
});

describe('deleting a realm', () => {
  it('deletes its pages with it', async () => {
    const doomed = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const page = await createPage({ type: 'GROUP', id: doomed.id });
    expect((await (await as(w.teacher)).delete(`/groups/${doomed.id}`)).status).toBe(204);
    expect(await db().page.findUnique({ where: { id: page.id } })).toBeNull();
  });
});
