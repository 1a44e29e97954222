import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import {
  type World,
  createBlogPosts,
  createGroup,
  createSchool,
  createSection,
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

const cast = [
  'districtAdmin',
  'schoolAdmin',
  'teacher',
  'student',
  'parent',
  'otherSchoolStudent',
  'outsider',
  'otherSchoolAdmin',
] as const;
type Person = (typeof cast)[number];
let world: World & { otherSchoolAdmin: { id: number } };
let as: Record<Person, RestClient>;
let gqlDistrictAdmin: GraphQLClient;
let gqlSchoolAdmin: GraphQLClient;

/** Every client is issued up front: issuing one records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  const created = await createWorld();
  world = { ...created, otherSchoolAdmin: await createUser(created.otherSchool.id, 'SCHOOL_ADMIN') };
  as = await clients.restFor(cast, world);
  gqlDistrictAdmin = await clients.graphql(world.districtAdmin);
  gqlSchoolAdmin = await clients.graphql(world.schoolAdmin);
});

/** Test tables name the world's school and its building by placeholder. */
const resolve = placeholders(() => ({ SCHOOL: world.school, BUILDING: world.building }));

const fieldNames = [
  'address1',
  'address2',
  'city',
  'state',
  'postal_code',
  'country',
  'website',
  'phone',
  'fax',
  'picture_url',
  'building_code',
];
const full = {
  address1: '1 Main St',
  address2: 'Suite <2>',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
  website: 'https://school.test',
  phone: '555-0100',
  fax: '555-0101',
  picture_url: 'https://img.test/s.png',
  building_code: 'B-7',
};

/** The wire school of spec 2.9: every field a string, `building_code` and `links.self` included. */
const wire = (school: { id: number | string; title: string }, fields: Partial<typeof full> = {}) => ({
  id: String(school.id),
  title: school.title,
  ...Object.fromEntries(fieldNames.map((name) => [name, ''])),
  ...fields,
  links: { self: `${v1}/schools/${school.id}` },
});
type Wire = ReturnType<typeof wire>;
/** The XML elements of a wire school in the platform's order, written out independently of the renderer. */
const schoolXml = (s: Wire, root: string) =>
  `<${root}>${el('id', s.id)}${el('title', s.title)}${fieldNames.map((name) => el(name, (s as Record<string, unknown>)[name])).join('')}` +
  `<links>${el('self', s.links.self)}</links></${root}>`;
const read = async (id: number | string) => (await as.districtAdmin.get(`/schools/${id}`)).json;

/** Bad bodies for create and update, with the wire field they name (undefined when the body cannot be read). */
type BadBody = readonly [name: string, body: unknown, field: string | undefined, message: string | RegExp];
const badBodies: BadBody[] = [
  ['a blank title', { title: '  ' }, 'title', 'is required'],
  ['too long a title', { title: 'x'.repeat(256) }, 'title', 'must be at most 255 characters'],
  [
    'too long a postal_code',
    { title: 'T', postal_code: '9'.repeat(256) },
    'postal_code',
    'must be at most 255 characters',
  ],
  [
    'too long a picture_url',
    { title: 'T', picture_url: 'x'.repeat(2049) },
    'picture_url',
    'must be at most 2048 characters',
  ],
  ['an object as phone', { title: 'T', phone: { number: 5 } }, 'phone', 'must be a string'],
  ['malformed JSON', '{"title": "T"', undefined, /^Malformed JSON body: /],
  ['malformed XML', '<body><title>T</title>', undefined, /^Malformed XML body: /],
];
const expectRefusal = (
  response: { status: number; json: unknown },
  field: string | undefined,
  message: string | RegExp,
) =>
  expect([response.status, response.json]).toEqual(
    typeof message === 'string'
      ? [400, { error: `${field}: ${message}`, issues: [{ field, message }] }]
      : [400, { error: expect.stringMatching(message) }],
  );

describe('GET /schools/{id}', () => {
  it('shows any school or building of the district to its users, in JSON and XML, as the GraphQL twin does', async () => {
    await db().school.update({
      where: { id: world.school.id },
      data: { city: 'Springfield', buildingCode: 'MAIN & 1' },
    });
    const expected = wire(world.school, { city: 'Springfield', building_code: 'MAIN & 1' });
    for (const person of ['student', 'parent', 'otherSchoolStudent', 'districtAdmin'] as const) {
      expect([person, (await as[person].get(`/schools/${world.school.id}`)).json]).toEqual([person, expected]);
    }
    expect((await as.otherSchoolStudent.get(`/schools/${world.building.id}`)).json).toEqual(wire(world.building));
    const xml = await as.student.get(`/schools/${world.school.id}`, { accept: 'xml' });
    expect([xml.headers.get('content-type'), xml.text]).toEqual([
      'text/xml; charset=utf-8',
      `${xmlHead}${schoolXml(expected, 'result')}`,
    ]);
    const twin = await gqlSchoolAdmin(
      `{ school(id: "${world.building.id}") { id: databaseId title city buildingCode isBuilding parent { id: databaseId } } }`,
    );
    expect(twin.data.school).toEqual({
      id: String(world.building.id),
      title: world.building.title,
      city: null,
      buildingCode: null,
      isBuilding: true,
      parent: { id: String(world.school.id) },
    });
  });

  it('answers 404 for schools of other districts and unknown ids, in JSON and XML', async () => {
    for (const path of [
      `/schools/${world.school.id}`,
      '/schools/999999',
      '/schools/99999999999',
      `/schools/${world.school.id}/buildings`,
    ]) {
      expect([path, await as.outsider.get(path)]).toMatchObject([path, { status: 404, json: { error: 'Not found' } }]);
    }
    const xml = await as.outsider.get(`/schools/${world.school.id}`, { accept: 'xml' });
    expect([xml.status, xml.text]).toEqual([404, `${xmlHead}<result><error>Not found</error></result>`]);
    expect(
      (await gqlDistrictAdmin(`{ school(id: "${world.farSchool.id}") { id: databaseId parent { id: databaseId } } }`))
        .data,
    ).toEqual({ school: null });
  });
});

describe('GET /schools and GET /schools/{id}/buildings (paged)', () => {
  let w: World;
  let client: RestClient;
  let buildings: { id: number; title: string }[];
  beforeAll(async () => {
    w = await createWorld();
    client = await clients.rest(w.student);
    buildings = [w.building];
    for (let i = 0; i < 2; i++) buildings.push(await createSchool(w.district.id, { parentId: w.school.id }));
  });

  it("lists the district's schools, not buildings, with total and links", async () => {
    expect((await client.get('/schools')).json).toEqual({
      school: [wire(w.school), wire(w.otherSchool)],
      total: 2,
      links: { self: `${v1}/schools?start=0&limit=20` },
    });
    expect((await client.get('/schools?limit=1')).json).toEqual({
      school: [wire(w.school)],
      total: 2,
      links: { self: `${v1}/schools?limit=1&start=0`, next: `${v1}/schools?limit=1&start=1` },
    });
    const outsider = await (await clients.rest(w.outsider)).get('/schools', { accept: 'xml' });
    expect(outsider.text).toBe(
      `${xmlHead}<result>${schoolXml(wire(w.farSchool), 'school')}<total>1</total>` +
        `<links><self>${v1}/schools?start=0&amp;limit=20</self></links></result>`,
    );
  });

  it("lists a school's buildings as repeated <building> elements, paged, limit capped at 200", async () => {
    const path = `/schools/${w.school.id}/buildings`;
    expect((await client.get(`${path}?start=1&limit=1`)).json).toEqual({
      building: [wire(buildings[1]!)],
      total: 3,
      links: { self: `${v1}${path}?start=1&limit=1`, next: `${v1}${path}?start=2&limit=1` },
    });
    const xml = await client.get(`${path}?limit=999`, { accept: 'xml' });
    expect(xml.text).toBe(
      `${xmlHead}<result>${buildings.map((b) => schoolXml(wire(b), 'building')).join('')}<total>3</total>` +
        `<links><self>${v1}${path}?limit=200&amp;start=0</self></links></result>`,
    );
    expect((await client.get(`/schools/${w.building.id}/buildings`)).json).toEqual({
      building: [],
      total: 0,
      links: { self: `${v1}/schools/${w.building.id}/buildings?start=0&limit=20` },
    });
    expect((await client.get(`${path}?start=x`)).status).toBe(400);
    const twin = await (await clients.graphql(w.student))(
      `{ buildings(schoolId: "${w.school.id}", start: 1) { total items { id: databaseId } } }`,
    );
    expect(twin.data.buildings).toEqual({ total: 3, items: buildings.slice(1).map((b) => ({ id: String(b.id) })) });
  });
});

describe('POST /schools', () => {
  it('creates a school (district administrators): 201 with every field and links.self, one school.create event', async () => {
    const events = await watchDomainEvents();
    const created = await as.districtAdmin.post('/schools', { title: ' North High ', ...full, id: '12345' });
    expect(created.status).toBe(201);
    const id = Number(created.json.id);
    expect(id).not.toBe(12345);
    expect(created.json).toEqual(wire({ id, title: 'North High' }, full));
    expect(await read(id)).toEqual(created.json);
    expect(await events()).toEqual([
      ['school.create', 'SCHOOL', id, id, world.districtAdmin.id, world.district.id, id],
    ]);
    expect(
      await db().school.findUniqueOrThrow({ where: { id }, select: { districtId: true, parentId: true } }),
    ).toEqual({ districtId: world.district.id, parentId: null });
  });

  it('reads an XML <body> and answers in XML', async () => {
    const body = '<body><title>South &amp; Co</title><city>Shelbyville</city></body>';
    const created = await as.districtAdmin.post('/schools', body, { accept: 'xml' });
    const id = /<id>(\d+)<\/id>/.exec(created.text)![1]!;
    const expected = wire({ id, title: 'South & Co' }, { city: 'Shelbyville' });
    expect([created.status, created.text]).toEqual([201, `${xmlHead}${schoolXml(expected, 'result')}`]);
  });

  it.each([
    ['a school administrator', 'schoolAdmin'],
    ['a teacher', 'teacher'],
  ] as const)('refuses %s with 403 and writes nothing', async (_name, person) => {
    const response = await expectNothingWritten(() => as[person].post('/schools', { title: 'Mine' }));
    expect([response.status, response.json]).toEqual([403, { error: 'Only district administrators create schools' }]);
  });

  it.each<BadBody>([['a missing title', { city: 'X' }, 'title', 'is required'], ...badBodies])(
    'refuses %s with 400 and writes nothing',
    async (_name, body, field, message) => {
      expectRefusal(
        await expectNothingWritten(() => as.districtAdmin.post('/schools', body, asJson(body))),
        field,
        message,
      );
    },
  );

  it('twin: createSchool answers with the School or userErrors', async () => {
    const mutation = `mutation($input: CreateSchoolInput!) { createSchool(input: $input) {
      school { title postalCode isBuilding } userErrors { field code message } } }`;
    expect((await gqlDistrictAdmin(mutation, { input: { title: 'West', postalCode: '1' } })).data.createSchool).toEqual(
      { school: { title: 'West', postalCode: '1', isBuilding: false }, userErrors: [] },
    );
    const refused = await expectNothingWritten(() =>
      gqlDistrictAdmin(mutation, { input: { title: '', fax: 'f'.repeat(300) } }),
    );
    expect(refused.data.createSchool).toEqual({
      school: null,
      userErrors: [
        { field: ['input', 'title'], code: 'REQUIRED', message: 'is required' },
        { field: ['input', 'fax'], code: 'TOO_LONG', message: 'must be at most 255 characters' },
      ],
    });
  });
});

describe('POST /schools/{id}/buildings', () => {
  it('creates a building of the school (its administrators): 201 with links.self, one building.create event', async () => {
    const events = await watchDomainEvents();
    const created = await as.schoolAdmin.post(`/schools/${world.school.id}/buildings`, { title: 'Annex', ...full });
    const id = Number(created.json.id);
    expect([created.status, created.json]).toEqual([201, wire({ id, title: 'Annex' }, full)]);
    expect(await events()).toEqual([
      ['building.create', 'SCHOOL', id, id, world.schoolAdmin.id, world.district.id, world.school.id],
    ]);
    expect((await as.student.get(`/schools/${world.school.id}/buildings?limit=200`)).json.building).toContainEqual(
      created.json,
    );
    expect((await db().school.findUniqueOrThrow({ where: { id } })).parentId).toBe(world.school.id);
  });

  it('reads an XML <body>; district administrators create buildings in any school; the twin agrees', async () => {
    const path = `/schools/${world.otherSchool.id}/buildings`;
    const created = await as.districtAdmin.post(path, '<body><title>Gym</title></body>', { accept: 'xml' });
    const id = /<id>(\d+)<\/id>/.exec(created.text)![1]!;
    expect([created.status, created.text]).toEqual([
      201,
      `${xmlHead}${schoolXml(wire({ id, title: 'Gym' }), 'result')}`,
    ]);
    const twin = await gqlDistrictAdmin(
      `mutation($school: ID!) { createBuilding(input: { schoolId: $school, title: "Lab" }) {
        building { title parent { id: databaseId } } } }`,
      { school: encodeGlobalId('School', world.otherSchool.id) },
    );
    expect(twin.data.createBuilding).toEqual({
      building: { title: 'Lab', parent: { id: String(world.otherSchool.id) } },
    });
  });

  it.each([
    ['a teacher of the school', 'teacher', 'SCHOOL', 403, 'You may not change this school'],
    ['an administrator of another school', 'otherSchoolAdmin', 'SCHOOL', 403, 'You may not change this school'],
    ['an outsider', 'outsider', 'SCHOOL', 404, 'School SCHOOL was not found'],
    ['anyone, under an unknown school', 'districtAdmin', '999999', 404, 'School 999999 was not found'],
    [
      'anyone, under a building',
      'districtAdmin',
      'BUILDING',
      400,
      'school_id: is a building; buildings belong to a school, not to a building',
    ],
    ['anyone, without a title', 'districtAdmin', 'SCHOOL', 400, 'title: is required'],
  ] as const)('refuses %s (%s) and writes nothing', async (_name, person, parent, status, error) => {
    const body = error.startsWith('title') ? { city: 'x' } : { title: 'Shed' };
    const response = await expectNothingWritten(() => as[person].post(`/schools/${resolve(parent)}/buildings`, body));
    expect([response.status, response.json.error]).toEqual([status, resolve(error)]);
  });
});

describe('PUT /schools/{id}', () => {
  it('changes what is sent: 204 with no body, the change visible, one school.update or building.update event', async () => {
    const school = await createSchool(world.district.id);
    const events = await watchDomainEvents();
    const response = await as.districtAdmin.put(`/schools/${school.id}`, {
      title: 'Renamed',
      city: 'Ogdenville',
      address1: null,
    });
    expect([response.status, response.text, response.headers.get('content-type')]).toEqual([204, '', null]);
    expect(await read(school.id)).toEqual(wire({ id: school.id, title: 'Renamed' }, { city: 'Ogdenville' }));
    const building = await createSchool(world.district.id, { parentId: world.school.id });
    expect((await as.schoolAdmin.put(`/schools/${building.id}`, { fax: '1' })).status).toBe(204);
    expect(await events()).toEqual([
      ['school.update', 'SCHOOL', school.id, school.id, world.districtAdmin.id, world.district.id, school.id],
      ['building.update', 'SCHOOL', building.id, building.id, world.schoolAdmin.id, world.district.id, world.school.id],
    ]);
  });

  it('reads an XML body; school administrators edit their own school', async () => {
    const before = await read(world.school.id);
    const response = await as.schoolAdmin.put(
      `/schools/${world.school.id}`,
      '<body><phone>555-0199</phone><state>OR</state></body>',
    );
    expect(response.status).toBe(204);
    expect(await read(world.school.id)).toEqual({ ...before, phone: '555-0199', state: 'OR' });
  });

  it.each([
    ['a teacher', 'teacher', 'SCHOOL', 403, 'You may not change this school'],
    ['an administrator of another school', 'otherSchoolAdmin', 'SCHOOL', 403, 'You may not change this school'],
    ['an outsider', 'outsider', 'SCHOOL', 404, 'School SCHOOL was not found'],
    ['anyone, for an unknown school', 'districtAdmin', '999999', 404, 'School 999999 was not found'],
  ] as const)('refuses %s (%s) and changes nothing', async (_name, person, id, status, error) => {
    const response = await expectNothingWritten(() => as[person].put(`/schools/${resolve(id)}`, { title: 'Hijacked' }));
    expect([response.status, response.json]).toEqual([status, { error: resolve(error) }]);
  });

  it.each<BadBody>([['an empty title', { title: '' }, 'title', 'is required'], ...badBodies])(
    'refuses %s with 400 and changes nothing',
    async (_name, body, field, message) => {
      expectRefusal(
        await expectNothingWritten(() => as.districtAdmin.put(`/schools/${world.school.id}`, body, asJson(body))),
        field,
        message,
      );
    },
  );

  it('twin: updateSchool answers with the School or userErrors', async () => {
    const update = async (id: number | string, input: object) =>
      (
        await gqlSchoolAdmin(
          `mutation($input: UpdateSchoolInput!) {
      updateSchool(input: $input) { school { id: databaseId country } userErrors { field code message } } }`,
          { input: { id: String(id), ...input } },
        )
      ).data?.updateSchool;
    expect(await update(world.building.id, { country: 'NZ' })).toEqual({
      school: { id: String(world.building.id), country: 'NZ' },
      userErrors: [],
    });
    expect(await update(999999, { country: 'NZ' })).toEqual({
      school: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: 'School 999999 was not found' }],
    });
    expect((await read(world.building.id)).country).toBe('NZ');
  });
});

describe('DELETE /schools/{id}', () => {
  it('deletes a school with everything in it, the blog posts of every realm inside included; 204, then 404', async () => {
    const school = await createSchool(world.district.id);
    const building = await createSchool(world.district.id, { parentId: school.id });
    const user = await createUser(school.id, 'TEACHER', { buildingId: building.id });
    const group = await createGroup(school.id, { admins: [user.id], buildingId: building.id });
    const section = await createSection(school.id, [{ userId: user.id, admin: true }]);
    const realms = [
      { type: 'SCHOOL', id: school.id },
      { type: 'SCHOOL', id: building.id },
      { type: 'USER', id: user.id },
      { type: 'GROUP', id: group.id },
      { type: 'SECTION', id: section.id },
    ] as const;
    for (const realm of realms) await createBlogPosts(realm, 1);
    const elsewhere = await createBlogPosts({ type: 'SCHOOL', id: world.school.id }, 1);
    const events = await watchDomainEvents();

    const response = await as.districtAdmin.delete(`/schools/${school.id}`);
    expect([response.status, response.text]).toEqual([204, '']);
    for (const id of [school.id, building.id]) expect((await as.districtAdmin.get(`/schools/${id}`)).status).toBe(404);
    expect(
      await Promise.all([
        db().user.count({ where: { id: user.id } }),
        db().group.count({ where: { id: group.id } }),
        db().section.count({ where: { id: section.id } }),
      ]),
    ).toEqual([0, 0, 0]);
    const posts = await db().blogPost.findMany({
      where: { OR: realms.map((r) => ({ realmType: r.type, realmId: r.id })) },
    });
    expect(posts).toEqual([]);
    expect(await db().blogPost.count({ where: { id: elsewhere[0]!.id } })).toBe(1);
    expect(await events()).toEqual([
      ['school.delete', 'SCHOOL', school.id, school.id, world.districtAdmin.id, world.district.id, school.id],
    ]);
  });

  it('lets school administrators delete a building of their school: its groups and users stay in the school', async () => {
    const building = await createSchool(world.district.id, { parentId: world.school.id });
    const group = await createGroup(world.school.id, { buildingId: building.id });
    await createBlogPosts({ type: 'SCHOOL', id: building.id }, 2);
    const events = await watchDomainEvents();
    expect((await as.schoolAdmin.delete(`/schools/${building.id}`)).status).toBe(204);
    expect((await as.schoolAdmin.get(`/groups/${group.id}`)).json).toMatchObject({
      school_id: String(world.school.id),
      building_id: '',
    });
    expect(await db().blogPost.count({ where: { realmType: 'SCHOOL', realmId: building.id } })).toBe(0);
    expect(await events()).toEqual([
      ['building.delete', 'SCHOOL', building.id, building.id, world.schoolAdmin.id, world.district.id, world.school.id],
    ]);
  });

  it.each([
    ['a school administrator, a school', 'schoolAdmin', 'SCHOOL', 403, 'Only district administrators delete schools'],
    ['a teacher, a building', 'teacher', 'BUILDING', 403, 'You may not change this school'],
    [
      'a district administrator, their own school',
      'districtAdmin',
      'SCHOOL',
      400,
      'id: is your own school; deleting it would delete your account',
    ],
    ['an outsider, a school of another district', 'outsider', 'SCHOOL', 404, 'School SCHOOL was not found'],
    ['anyone, an unknown school', 'districtAdmin', '999999', 404, 'School 999999 was not found'],
  ] as const)('refuses %s (%s) and deletes nothing', async (_name, person, id, status, error) => {
    const response = await expectNothingWritten(() => as[person].delete(`/schools/${resolve(id)}`));
    expect([response.status, response.json.error]).toEqual([status, resolve(error)]);
  });

  it('twin: deleteSchool answers with the deleted global id, then school(id) is null', async () => {
    const school = await createSchool(world.district.id);
    const deleted = await gqlDistrictAdmin(
      `mutation { deleteSchool(input: { id: "${school.id}" }) { deletedSchoolId userErrors { code } } }`,
    );
    expect(deleted.data.deleteSchool).toEqual({ deletedSchoolId: encodeGlobalId('School', school.id), userErrors: [] });
    expect((await gqlDistrictAdmin(`{ school(id: "${school.id}") { id: databaseId } }`)).data.school).toBeNull();
    expect((await as.districtAdmin.request('OPTIONS', `/schools/${school.id}`)).headers.get('allow')).toBe(
      'GET, PUT, DELETE, OPTIONS',
    );
  });
});
