import { encodeGlobalId } from '../../src/core/global-id';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/database';
import type { PrivacyLevel } from '../../src/generated/prisma/enums';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import {
  type World,
  createBlogPosts,
  createGroup,
  createGroupCategory,
  createSchool,
  createUser,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { placeholders } from '../support/placeholders';
import { asJson, el, v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const codePattern = /^[A-Z2-9]{5}-[A-Z2-9]{5}$/;

const cast = [
  'teacher',
  'student',
  'parent',
  'schoolAdmin',
  'districtAdmin',
  'otherSchoolStudent',
  'outsider',
  'member',
] as const;
type Person = (typeof cast)[number];
let world: World & { member: { id: number } };
let as: Record<Person, RestClient>;
let gqlTeacher: GraphQLClient;
let gqlDistrictAdmin: GraphQLClient;
let clubs: { id: number };
let places: Record<string, { id: number }>;

/** Every client is issued up front: issuing one records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  const created = await createWorld();
  world = { ...created, member: await createUser(created.otherSchool.id, 'STUDENT') };
  as = await clients.restFor(cast, world);
  gqlTeacher = await clients.graphql(world.teacher);
  gqlDistrictAdmin = await clients.graphql(world.districtAdmin);
  clubs = await createGroupCategory(world.district.id, 'Clubs');
  const far = await createGroupCategory(world.otherDistrict.id);
  const otherBuilding = await createSchool(world.district.id, { parentId: world.otherSchool.id });
  places = {
    SCHOOL: world.school,
    BUILDING: world.building,
    OTHER: world.otherSchool,
    OTHER_BUILDING: otherBuilding,
    FAR: far,
  };
});

/** Test tables name the world's objects by placeholder (SCHOOL, BUILDING, OTHER, OTHER_BUILDING, FAR). */
const resolve = placeholders(() => places);

/** The wire group of spec 2.7 with its defaults, then `fields` and `options` as given. */
function wire(
  group: { id: number | string; title: string },
  fields: Record<string, unknown> = {},
  options: Record<string, number> = {},
) {
  return {
    id: String(group.id),
    title: group.title,
    description: '',
    picture_url: '',
    website: '',
    privacy_level: 'school',
    category: '',
    group_code: '',
    school_id: String(world.school.id),
    building_id: '',
    ...fields,
    options: {
      invite_type: 0,
      member_post: 1,
      member_post_comment: 1,
      create_discussion: 0,
      create_files: 0,
      ...options,
    },
    links: { self: `${v1}/groups/${group.id}` },
  };
}
type Wire = ReturnType<typeof wire> & { access_code?: string };

/** The XML elements of a wire group in the platform's order, written out independently of the renderer. */
const groupXml = (g: Wire, root = 'group') =>
  `<${root}>${el('id', g.id)}${el('title', g.title)}${el('description', g.description)}${el('picture_url', g.picture_url)}` +
  `${el('website', g.website)}${g.access_code ? el('access_code', g.access_code) : ''}${el('privacy_level', g.privacy_level)}` +
  `${el('category', g.category)}${el('group_code', g.group_code)}${el('school_id', g.school_id)}${el('building_id', g.building_id)}` +
  `<options>${Object.entries(g.options)
    .map(([k, v]) => el(k, v))
    .join('')}</options><links>${el('self', g.links.self)}</links></${root}>`;

const fieldsOf = (json: { issues?: { field: string }[] }) => json.issues?.map((issue) => issue.field);

describe('POST /groups', () => {
  it('creates from JSON: 201 with every field, the creator as its administrator, one group.create event', async () => {
    const events = await watchDomainEvents();
    const created = await as.teacher.post('/groups', {
      title: '  Chess club ',
      description: 'Knights',
      picture_url: 'https://img.test/c.png',
      website: 'https://chess.test',
      privacy_level: 'building',
      category: clubs.id,
      group_code: 'EXT-7',
      building_id: String(world.building.id),
      options: { invite_type: '2', member_post: 0, member_post_comment: '0', create_discussion: true, create_files: 1 },
    });
    expect(created.status).toBe(201);
    const id = Number(created.json.id);
    const expected = wire(
      { id, title: 'Chess club' },
      {
        description: 'Knights',
        picture_url: 'https://img.test/c.png',
        website: 'https://chess.test',
        access_code: created.json.access_code,
        privacy_level: 'building',
        category: String(clubs.id),
        group_code: 'EXT-7',
        building_id: String(world.building.id),
      },
      { invite_type: 2, member_post: 0, member_post_comment: 0, create_discussion: 1, create_files: 1 },
    );
    expect(created.json).toEqual(expected);
    expect(created.json.access_code).toMatch(codePattern);
    expect(
      await db().groupMembership.findMany({ where: { groupId: id }, select: { userId: true, admin: true } }),
    ).toEqual([{ userId: world.teacher.id, admin: true }]);
    expect(await events()).toEqual([
      ['group.create', 'GROUP', id, id, world.teacher.id, world.district.id, world.school.id],
    ]);
    expect((await as.teacher.get(`/groups/${id}`)).json).toEqual(expected);

    const twin = await gqlTeacher(
      `query($id: ID!) { group(id: $id) { id: databaseId title description pictureUrl website accessCode
      privacyLevel category { id: databaseId } groupCode inviteType memberPost memberPostComment createDiscussion createFiles
      school { id: databaseId } building { id: databaseId } } }`,
      { id: String(id) },
    );
    expect(twin.data.group).toEqual({
      id: String(id),
      title: 'Chess club',
      description: 'Knights',
      pictureUrl: 'https://img.test/c.png',
      website: 'https://chess.test',
      accessCode: created.json.access_code,
      privacyLevel: 'BUILDING',
      category: { id: String(clubs.id) },
      groupCode: 'EXT-7',
      inviteType: 'ANYONE_CAN_JOIN',
      memberPost: false,
      memberPostComment: false,
      createDiscussion: true,
      createFiles: true,
      school: { id: String(world.school.id) },
      building: { id: String(world.building.id) },
    });
  });

  it('creates from an XML <body> and answers in XML with exactly the platform elements', async () => {
    const created = await as.teacher.post(
      '/groups',
      '<body><title>Drama &amp; Film</title><privacy_level>group</privacy_level><options><invite_type>1</invite_type>' +
        '<create_files>1</create_files></options><category /></body>',
      { accept: 'xml' },
    );
    expect([created.status, created.headers.get('content-type')]).toEqual([201, 'text/xml; charset=utf-8']);
    const [, id, code] = /<id>(\d+)<\/id>.*<access_code>([^<]+)<\/access_code>/.exec(created.text)!;
    expect(code).toMatch(codePattern);
    const expected = wire(
      { id: id!, title: 'Drama & Film' },
      { access_code: code, privacy_level: 'group' },
      { invite_type: 1, create_files: 1 },
    );
    expect(created.text).toBe(`${xmlHead}${groupXml(expected, 'result')}`);
    expect((await as.teacher.get(`/groups/${id}`, { accept: 'xml' })).text).toBe(created.text);
    expect((await as.teacher.get(`/groups/${id}`)).json).toEqual(expected);
  });

  it.each([
    ['defaults of spec 2.7 for a title alone', 'teacher', { title: 'Plain' }, {}],
    [
      'a building named as school_id files the group under it',
      'teacher',
      { title: 'B', school_id: 'BUILDING' },
      { building_id: 'BUILDING' },
    ],
    ["an empty school_id means the caller's school", 'teacher', { title: 'E', school_id: '' }, {}],
    [
      'a district administrator creates in any school',
      'districtAdmin',
      { title: 'O', school_id: 'OTHER' },
      { school_id: 'OTHER' },
    ],
    [
      "an empty <school_id /> in XML means the caller's school",
      'teacher',
      '<body><title>X</title><school_id /></body>',
      {},
    ],
  ] as const)('%s', async (_name, person, body, fields) => {
    const created = await as[person].post('/groups', resolve(body));
    const title = typeof body === 'string' ? 'X' : body.title;
    const expected = wire(
      { id: created.json.id, title },
      { ...resolve(fields), access_code: created.json.access_code },
    );
    expect([created.status, created.json]).toEqual([201, expected]);
  });

  const title = 'Valid';
  const notCategory = 'is not a group category of this district';
  it.each([
    ['missing title', { description: 'x' }, 'title', 'is required'],
    ['blank title', { title: '   ' }, 'title', 'is required'],
    ['too long a title', { title: 'x'.repeat(256) }, 'title', 'must be at most 255 characters'],
    [
      'privacy_level custom',
      { title, privacy_level: 'custom' },
      'privacy_level',
      'must be one of everyone, school, building, group',
    ],
    ['invite_type 5', { title, options: { invite_type: 5 } }, 'options/invite_type', 'must be one of 0, 1, 2'],
    ['a flag sent as "yes"', { title, options: { member_post: 'yes' } }, 'options/member_post', 'must be 0 or 1'],
    ['a category of another district', { title, category: 'FAR' }, 'category', notCategory],
    ['an unknown category', { title, category: '999999' }, 'category', notCategory],
    ['a category id beyond any id', { title, category: '99999999999' }, 'category', notCategory],
    [
      'a school as building_id',
      { title, building_id: 'OTHER' },
      'building_id',
      "is not a building of the group's school",
    ],
    [
      'a building of another school',
      { title, building_id: 'OTHER_BUILDING' },
      'building_id',
      "is not a building of the group's school",
    ],
    ['a non-numeric school_id', { title, school_id: 'abc' }, 'school_id', 'must be a numeric id'],
    ['malformed JSON', '{"title": ', null, /^Malformed JSON body: /],
    ['a JSON array', '[{"title": "x"}]', null, /^The JSON body must be an object$/],
    [
      'malformed XML',
      '<body><title>x</body>',
      null,
      /^Malformed XML body: The XML request body is malformed at line 1/,
    ],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_name, body, field, message) => {
    const response = await expectNothingWritten(() => as.teacher.post('/groups', resolve(body), asJson(body)));
    expect([response.status, response.json]).toEqual(
      typeof message === 'string'
        ? [400, { error: `${field}: ${message}`, issues: [{ field, message }] }]
        : [400, { error: expect.stringMatching(message) }],
    );
  });

  const staffOnly = 'Only staff of the school create groups in it';
  it.each([
    ['a student', 'student', {}, 403, staffOnly],
    ['a parent', 'parent', {}, 403, staffOnly],
    ['a teacher, in another school', 'teacher', { school_id: 'OTHER' }, 403, staffOnly],
    ['a school administrator, in another school', 'schoolAdmin', { school_id: 'OTHER' }, 403, staffOnly],
    [
      'an outsider, in a school of another district',
      'outsider',
      { school_id: 'SCHOOL' },
      404,
      'School SCHOOL was not found',
    ],
    ['anyone, in an unknown school', 'districtAdmin', { school_id: '999999' }, 404, 'School 999999 was not found'],
    [
      'anyone, in a school id beyond any id',
      'districtAdmin',
      { school_id: '99999999999' },
      404,
      'School 99999999999 was not found',
    ],
  ] as const)('refuses %s (%s)', async (_name, person, fields, status, error) => {
    const response = await expectNothingWritten(() =>
      as[person].post('/groups', { title: 'Nope', ...resolve(fields) }),
    );
    expect([response.status, response.json]).toEqual([status, { error: resolve(error) }]);
  });

  it('twin: createGroup answers userErrors naming GraphQL fields (writing nothing), or the Group', async () => {
    const mutation = `mutation($input: CreateGroupInput!) { createGroup(input: $input) {
      group { title privacyLevel accessCode } userErrors { field code message } } }`;
    const refused = await expectNothingWritten(() =>
      gqlTeacher(mutation, { input: { title: ' ', privacyLevel: 'CUSTOM' } }),
    );
    expect(refused.data.createGroup).toEqual({
      group: null,
      userErrors: [
        { field: ['input', 'title'], code: 'REQUIRED', message: 'is required' },
        { field: ['input', 'privacyLevel'], code: 'INVALID', message: 'custom is read only and cannot be set' },
      ],
    });
    // Every group a document creates shows its access code to its creator (the viewer's memberships are memoised).
    const both =
      await gqlTeacher(`mutation { a: createGroup(input: {title: "A"}) { group { id: databaseId accessCode } }
      b: createGroup(input: {title: "B"}) { group { id: databaseId accessCode } } }`);
    const stored = await db().group.findMany({
      where: { id: { in: [both.data.a.group.id, both.data.b.group.id].map(Number) } },
      orderBy: { id: 'asc' },
    });
    expect([both.data.a.group, both.data.b.group]).toEqual(
      stored.map((g) => ({ id: String(g.id), accessCode: g.accessCode })),
    );
  });

  it('reads no membership of an administrator who creates a group, and shows them the access code', async () => {
    // An administrator who created thousands of groups would otherwise read every membership on each create; the access
    // rule answers a school's administrators without them.
    const findMany = vi.spyOn(db().groupMembership, 'findMany');
    try {
      const created = await as.schoolAdmin.post('/groups', { title: 'Counted' });
      expect(created.status).toBe(201);
      expect(created.json.access_code).toMatch(codePattern);
      expect(findMany).not.toHaveBeenCalled();
      // A teacher's memberships are read before the write (nothing may fail after the commit) and show the new group.
      expect((await as.teacher.post('/groups', { title: 'Counted too' })).json.access_code).toMatch(codePattern);
      expect(findMany).toHaveBeenCalledTimes(1);
    } finally {
      findMany.mockRestore();
    }
  });
});

describe('GET /groups/{id}', () => {
  it("shows access_code to the group's, the school's and the district's administrators only", async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    for (const person of ['teacher', 'schoolAdmin', 'districtAdmin', 'student', 'parent'] as const) {
      const fields = ['teacher', 'schoolAdmin', 'districtAdmin'].includes(person)
        ? { access_code: group.accessCode }
        : {};
      expect([person, (await as[person].get(`/groups/${group.id}`)).json]).toEqual([person, wire(group, fields)]);
    }
    expect((await gqlTeacher(`{ group(id: "${group.id}") { accessCode } }`)).data.group).toEqual({
      accessCode: group.accessCode,
    });
  });

  // The group is in the building; `member` belongs to it from another school. CUSTOM is read only, and shows like GROUP.
  const seenBy: Record<PrivacyLevel, Person[]> = {
    EVERYONE: ['teacher', 'student', 'parent', 'schoolAdmin', 'districtAdmin', 'otherSchoolStudent', 'member'],
    SCHOOL: ['teacher', 'student', 'parent', 'schoolAdmin', 'districtAdmin', 'member'],
    BUILDING: ['teacher', 'student', 'schoolAdmin', 'districtAdmin', 'member'],
    GROUP: ['schoolAdmin', 'districtAdmin', 'member'],
    CUSTOM: ['schoolAdmin', 'districtAdmin', 'member'],
  };
  it.each(Object.entries(seenBy))(
    'privacy %s: view is 404 for whom it hides; lists include it for the others only',
    async (level, seers) => {
      const privacyLevel = level as PrivacyLevel;
      const group = await createGroup(world.school.id, {
        privacyLevel,
        buildingId: world.building.id,
        members: [world.member.id],
      });
      for (const person of cast) {
        const [view, list] = await Promise.all([
          as[person].get(`/groups/${group.id}`),
          as[person].get('/groups?limit=200'),
        ]);
        const listed = list.json.group.some((g: Wire) => g.id === String(group.id));
        expect([person, view.status, listed]).toEqual(
          seers.includes(person) ? [person, 200, true] : [person, 404, false],
        );
      }
    },
  );

  it('answers 404 for unknown ids, in JSON and in XML; OPTIONS names the methods', async () => {
    for (const id of ['999999', '99999999999']) {
      expect(await as.teacher.get(`/groups/${id}`)).toMatchObject({ status: 404, json: { error: 'Not found' } });
    }
    const xml = await as.teacher.get('/groups/999999', { accept: 'xml' });
    expect([xml.status, xml.text]).toEqual([404, `${xmlHead}<result><error>Not found</error></result>`]);
    expect(
      (await gqlTeacher('{ group(id: "999999") { id: databaseId title school { id: databaseId } } }')).data,
    ).toEqual({ group: null });
    expect((await as.teacher.request('OPTIONS', '/groups/1')).headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
  });
});

describe('GET /groups (paged)', () => {
  // A district of its own, so that totals are exact.
  let w: World;
  let teacher: RestClient;
  let groups: Awaited<ReturnType<typeof createGroup>>[];
  beforeAll(async () => {
    w = await createWorld();
    teacher = await clients.rest(w.teacher);
    groups = [
      await createGroup(w.school.id, { buildingId: w.building.id, admins: [w.teacher.id] }),
      await createGroup(w.school.id, { privacyLevel: 'EVERYONE' }),
      await createGroup(w.school.id, { privacyLevel: 'GROUP' }), // hidden from the teacher
      await createGroup(w.school.id, { buildingId: w.building.id }),
    ];
  });
  const shown = (index: 0 | 1 | 3) => {
    const g = groups[index]!;
    return wire(g, {
      school_id: String(w.school.id),
      building_id: g.buildingId ? String(w.building.id) : '',
      ...(index === 0 ? { access_code: g.accessCode } : {}),
      ...(index === 1 ? { privacy_level: 'everyone' } : {}),
    });
  };
  const self = (query: string) => ({ self: `${v1}/groups?${query}` });

  it('lists what the caller may see, with total and links.self showing the effective start and limit', async () => {
    const page = await teacher.get('/groups');
    expect([page.status, page.json]).toEqual([
      200,
      { group: [shown(0), shown(1), shown(3)], total: 3, links: self('start=0&limit=20') },
    ]);
    const twin = await (await clients.graphql(w.teacher))('{ groups { total start limit items { id: databaseId } } }');
    expect(twin.data.groups).toEqual({
      total: 3,
      start: 0,
      limit: 20,
      items: [0, 1, 3].map((i) => ({ id: String(groups[i]!.id) })),
    });
  });

  it('pages with start and limit: links.next only while a further page exists; limit is capped at 200', async () => {
    expect((await teacher.get('/groups?limit=2')).json).toEqual({
      group: [shown(0), shown(1)],
      total: 3,
      links: { ...self('limit=2&start=0'), next: `${v1}/groups?limit=2&start=2` },
    });
    expect((await teacher.get('/groups?start=2&limit=2')).json).toEqual({
      group: [shown(3)],
      total: 3,
      links: self('start=2&limit=2'),
    });
    expect((await teacher.get('/groups?start=10')).json).toEqual({
      group: [],
      total: 3,
      links: self('start=10&limit=20'),
    });
    expect((await teacher.get('/groups?limit=500')).json.links).toEqual(self('limit=200&start=0'));
  });

  it.each([
    ['start=-1', 'start must be an integer of at least 0', 'start'],
    ['start=abc', 'start must be an integer of at least 0', 'start'],
    ['limit=0', 'limit must be an integer of at least 1', 'limit'],
    ['start=3000000000', 'start must be at most 2147483647', 'start'],
    ['building_id=abc', 'building_id: must be a numeric id', 'building_id'],
  ])('refuses %s with 400', async (query, error, field) => {
    const response = await teacher.get(`/groups?${query}`);
    expect([response.status, response.json.error, fieldsOf(response.json)]).toEqual([400, error, [field]]);
  });

  it('filters by building_id, keeping the filter in the links, in JSON and in XML', async () => {
    const links = (start: number) => `${v1}/groups?building_id=${w.building.id}&limit=1&start=${start}`;
    expect((await teacher.get(`/groups?building_id=${w.building.id}&limit=1`)).json).toEqual({
      group: [shown(0)],
      total: 2,
      links: { self: links(0), next: links(1) },
    });
    const xml = await teacher.get(`/groups?building_id=${w.building.id}`, { accept: 'xml' });
    expect(xml.text).toBe(
      `${xmlHead}<result>${groupXml(shown(0))}${groupXml(shown(3))}<total>2</total>` +
        `<links><self>${v1}/groups?building_id=${w.building.id}&amp;start=0&amp;limit=20</self></links></result>`,
    );
    expect((await teacher.get('/groups?building_id=99999999999')).json).toMatchObject({ group: [], total: 0 });
  });

  it("shows an outsider none of the district's groups, and school administrators every access code", async () => {
    const outsider = await (await clients.rest(w.outsider)).get('/groups', { accept: 'xml' });
    expect(outsider.text).toBe(
      `${xmlHead}<result><group /><total>0</total><links><self>${v1}/groups?start=0&amp;limit=20</self></links></result>`,
    );
    const admin = await (await clients.rest(w.schoolAdmin)).get('/groups');
    expect(admin.json.group.map((g: Wire) => g.access_code)).toEqual(groups.map((g) => g.accessCode));
  });
});

describe('PUT /groups/{id}', () => {
  const read = async (id: number) => (await as.districtAdmin.get(`/groups/${id}`)).json;

  it('changes what is sent (JSON), answers 204 with no body, records group.update', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], buildingId: world.building.id });
    const events = await watchDomainEvents();
    const response = await as.teacher.put(`/groups/${group.id}`, {
      title: 'Renamed',
      privacy_level: 'everyone',
      category: String(clubs.id),
      building_id: '',
      options: { invite_type: 1, create_discussion: '1' },
    });
    expect([response.status, response.text, response.headers.get('content-type')]).toEqual([204, '', null]);
    expect(await read(group.id)).toEqual(
      wire(
        { id: group.id, title: 'Renamed' },
        { privacy_level: 'everyone', category: String(clubs.id), access_code: group.accessCode },
        { invite_type: 1, create_discussion: 1 },
      ),
    );
    expect(await events()).toEqual([
      ['group.update', 'GROUP', group.id, group.id, world.teacher.id, world.district.id, world.school.id],
    ]);
  });

  it('reads an XML body, and lets school administrators change any group of their school', async () => {
    const group = await createGroup(world.school.id, { privacyLevel: 'GROUP' });
    const response = await as.schoolAdmin.put(
      `/groups/${group.id}`,
      `<body><description>a &lt;b&gt;</description>` +
        `<building_id>${world.building.id}</building_id><options><member_post>0</member_post></options></body>`,
    );
    expect(response.status).toBe(204);
    expect(await read(group.id)).toEqual(
      wire(
        group,
        {
          description: 'a <b>',
          privacy_level: 'group',
          building_id: String(world.building.id),
          access_code: group.accessCode,
        },
        { member_post: 0 },
      ),
    );
  });

  it.each([
    ['a member', 'student', '/groups/GROUP', 403, 'You may not change this group'],
    ['a school user who sees it', 'parent', '/groups/GROUP', 403, 'You may not change this group'],
    ['an outsider', 'outsider', '/groups/GROUP', 404, 'Group GROUP was not found'],
    ['anyone, for an unknown group', 'districtAdmin', '/groups/999999', 404, 'Group 999999 was not found'],
  ] as const)('refuses %s (%s) and changes nothing', async (_name, person, path, status, error) => {
    const group = String(
      (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id,
    );
    const response = await expectNothingWritten(() =>
      as[person].put(path.replace('GROUP', group), { title: 'Hijacked' }),
    );
    expect([response.status, response.json]).toEqual([status, { error: error.replace('GROUP', group) }]);
  });

  it.each([
    ['an empty title', { title: '' }, 'title'],
    ['privacy_level custom', { privacy_level: 'custom' }, 'privacy_level'],
    ['invite_type 5', { options: { invite_type: 5 } }, 'options/invite_type'],
    ['member_post "yes"', { options: { member_post: 'yes' } }, 'options/member_post'],
    ['a category of another district', { category: 'FAR' }, 'category'],
    ['a building of another school', { building_id: 'OTHER_BUILDING' }, 'building_id'],
    ['malformed JSON', '{"title": "x"', undefined],
    ['malformed XML', '<body><title>x</titel></body>', undefined],
  ])('refuses %s with 400 and changes nothing', async (_name, body, field) => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
    const response = await expectNothingWritten(() =>
      as.teacher.put(`/groups/${group.id}`, resolve(body), asJson(body)),
    );
    expect([response.status, fieldsOf(response.json)]).toEqual([400, field && [field]]);
  });

  it('twin: updateGroup answers with the Group or userErrors', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
    const update = async (id: string, input: object) =>
      (
        await gqlTeacher(
          `mutation($input: UpdateGroupInput!) {
      updateGroup(input: $input) { group { title inviteType } userErrors { field code message } } }`,
          { input: { id, ...input } },
        )
      ).data.updateGroup;
    expect(await update(String(group.id), { title: 'G', inviteType: 'REQUEST_TO_JOIN' })).toEqual({
      group: { title: 'G', inviteType: 'REQUEST_TO_JOIN' },
      userErrors: [],
    });
    expect(await update(String(group.id), { privacyLevel: 'CUSTOM' })).toEqual({
      group: null,
      userErrors: [
        { field: ['input', 'privacyLevel'], code: 'INVALID', message: 'custom is read only and cannot be set' },
      ],
    });
    // The missing object is named by the input member that named it, in whichever form the client sent.
    expect(await update(encodeGlobalId('Group', 999999), {})).toEqual({
      group: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: 'Group 999999 was not found' }],
    });
    expect((await as.teacher.get(`/groups/${group.id}`)).json).toMatchObject({
      title: 'G',
      privacy_level: 'school',
      options: { invite_type: 1 },
    });
  });
});

describe('DELETE /groups/{id}', () => {
  it('deletes the group with its memberships and posts: 204 with no body, then 404, and one group.delete event', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    await createBlogPosts({ type: 'GROUP', id: group.id }, 2);
    const events = await watchDomainEvents();
    const response = await as.teacher.delete(`/groups/${group.id}`);
    expect([response.status, response.text]).toEqual([204, '']);
    expect((await as.teacher.get(`/groups/${group.id}`)).status).toBe(404);
    expect(await db().groupMembership.count({ where: { groupId: group.id } })).toBe(0);
    expect(await db().blogPost.count({ where: { realmType: 'GROUP', realmId: group.id } })).toBe(0);
    expect(await events()).toEqual([
      ['group.delete', 'GROUP', group.id, group.id, world.teacher.id, world.district.id, world.school.id],
    ]);
  });

  it.each([
    ['a member', 'student', 403],
    ['an outsider', 'outsider', 404],
  ] as const)('refuses %s and deletes nothing; an unknown group is 404', async (_name, person, status) => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    const response = await expectNothingWritten(() => as[person].delete(`/groups/${group.id}`, { accept: 'xml' }));
    const error = status === 403 ? 'You may not change this group' : `Group ${group.id} was not found`;
    expect([response.status, response.text]).toEqual([status, `${xmlHead}<result><error>${error}</error></result>`]);
    expect((await expectNothingWritten(() => as.teacher.delete('/groups/999999'))).status).toBe(404);
  });

  it('twin: deleteGroup answers with the deleted global id, then group(id) is null', async () => {
    const group = await createGroup(world.school.id, { admins: [world.districtAdmin.id] });
    const deleted = await gqlDistrictAdmin(
      `mutation { deleteGroup(input: { id: "${group.id}" }) { deletedGroupId userErrors { code } } }`,
    );
    expect(deleted.data.deleteGroup).toEqual({ deletedGroupId: encodeGlobalId('Group', group.id), userErrors: [] });
    expect((await gqlDistrictAdmin(`{ group(id: "${group.id}") { id: databaseId } }`)).data.group).toBeNull();
  });
});

describe('GET /groups/categories', () => {
  let w: World;
  let client: RestClient;
  const titles = ['Sports', 'Arts & Crafts', 'Science'];
  beforeAll(async () => {
    w = await createWorld();
    client = await clients.rest(w.student);
    for (const title of titles) await createGroupCategory(w.district.id, title);
    await createGroupCategory(w.otherDistrict.id, 'Elsewhere');
  });
  const listXml = (items: { id: number | string; title: string }[], total: number, query: string) =>
    `${xmlHead}<result>${items.map((c) => `<category>${el('id', c.id)}${el('title', c.title)}</category>`).join('')}` +
    `<total>${total}</total><links><self>${v1}/groups/categories?${query}</self></links></result>`;

  it("lists the district's categories (id, title), paged, in JSON and in XML", async () => {
    const all = (
      await db().groupCategory.findMany({ where: { districtId: w.district.id }, orderBy: { id: 'asc' } })
    ).map((c) => ({ id: String(c.id), title: c.title }));
    expect(all.map((c) => c.title)).toEqual(titles);
    expect((await client.get('/groups/categories')).json).toEqual({
      category: all,
      total: 3,
      links: { self: `${v1}/groups/categories?start=0&limit=20` },
    });
    expect((await client.get('/groups/categories?limit=2')).json).toEqual({
      category: all.slice(0, 2),
      total: 3,
      links: { self: `${v1}/groups/categories?limit=2&start=0`, next: `${v1}/groups/categories?limit=2&start=2` },
    });
    expect((await client.get('/groups/categories?start=1', { accept: 'xml' })).text).toBe(
      listXml(all.slice(1), 3, 'start=1&amp;limit=20'),
    );
    const elsewhere = await db().groupCategory.findFirstOrThrow({ where: { districtId: w.otherDistrict.id } });
    expect((await (await clients.rest(w.outsider)).get('/groups/categories', { accept: 'xml' })).text).toBe(
      listXml([elsewhere], 1, 'start=0&amp;limit=20'),
    );
  });

  it('is read only over REST: other methods answer 405 with Allow', async () => {
    const response = await client.post('/groups/categories', { title: 'New' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
  });

  it('twin: createGroupCategory is for district administrators, records group_category.create, refuses duplicates', async () => {
    const mutation = `mutation($title: String!) { createGroupCategory(input: {title: $title}) {
      groupCategory { id: databaseId title } userErrors { field code message } } }`;
    const refused = await expectNothingWritten(() => gqlTeacher(mutation, { title: 'Mine' }));
    // Partial data (the field is null beside its error) is 200, as GraphQL over HTTP asks.
    expect([refused.status, refused.data, refused.errors?.[0]?.extensions?.code]).toEqual([
      200,
      { createGroupCategory: null },
      'FORBIDDEN',
    ]);
    const events = await watchDomainEvents();
    const created = (await gqlDistrictAdmin(mutation, { title: 'Debate' })).data.createGroupCategory.groupCategory;
    expect(created).toEqual({ id: expect.any(String), title: 'Debate' });
    expect(await events()).toEqual([
      [
        'group_category.create',
        'DISTRICT',
        world.district.id,
        Number(created.id),
        world.districtAdmin.id,
        world.district.id,
        null,
      ],
    ]);
    expect((await as.teacher.get('/groups/categories')).json.category).toContainEqual({
      id: created.id,
      title: 'Debate',
    });
    expect(
      (await expectNothingWritten(() => gqlDistrictAdmin(mutation, { title: 'Debate' }))).data.createGroupCategory,
    ).toEqual({
      groupCategory: null,
      userErrors: [
        { field: ['input', 'title'], code: 'CONFLICT', message: 'A category with this title exists in the district' },
      ],
    });
  });
});
