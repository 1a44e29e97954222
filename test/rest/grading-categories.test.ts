import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld, unique, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let otherSection: { id: number };
let otherTeacher: { id: number };
let scale: { id: number };
let foreignScale: { id: number };

const base = () => `/sections/${section.id}/grading_categories`;

beforeAll(async () => {
  w = await createWorld();
  otherTeacher = await createUser(w.school.id, 'TEACHER');
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  // The other teacher teaches a section of the same school: they see this one, but do not keep its gradebook.
  otherSection = await createSection(w.school.id, [
    { userId: otherTeacher.id, admin: true },
    { userId: w.teacher.id, admin: true },
  ]);
  await db().parentLink.create({ data: { parentId: w.parent.id, childId: w.student.id } });
  const levels = [
    { grade: 'A', minimum: 90 },
    { grade: 'B', minimum: 0 },
  ];
  scale = await db().gradingScale.create({ data: { schoolId: w.school.id, title: 'Letters', levels } });
  foreignScale = await db().gradingScale.create({ data: { schoolId: w.otherSchool.id, title: 'Elsewhere', levels } });
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin', 'otherSchoolStudent'], w);
  await clients.rest(otherTeacher);
});

/** Categories made straight in the database, for tests about reading and changing them. */
const createCategory = (
  fields: { title?: string; delta?: number; weight?: number; sectionId?: number; defaultGradingScaleId?: number } = {},
) => db().gradingCategory.create({ data: { sectionId: section.id, title: unique('Category'), ...fields } });

/** The direct text children of each `<element>` of an XML answer. */
const xmlItems = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}>(.*?)</${element}>`, 'g'))].map(([, inner]) =>
    Object.fromEntries(
      [...inner!.matchAll(/<(\w+)>([^<]*)<\/\1>|<(\w+) \/>/g)].map((m) => (m[1] ? [m[1], m[2]] : [m[3], ''])),
    ),
  );

describe('bulk create (POST /sections/{id}/grading_categories)', () => {
  it('answers each item with response_code 200, its id as a string and default_grading_scale, with an event each', async () => {
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    const response = await teacher.post(base(), {
      grading_categories: {
        grading_category: [
          { title: 'Homework', calculation_type: 1, default_max_points: 10, drop_lowest: 2, weight: 40, delta: 1 },
          {
            title: 'Tests',
            calculation_type: '2',
            default_grading_scale_id: String(scale.id),
            weight: '60',
            delta: '2',
          },
        ],
      },
    });
    expect(response.status).toBe(200);
    const [homework, tests] = response.json.grading_category;
    expect(homework).toEqual({
      id: expect.stringMatching(/^\d+$/),
      response_code: 200,
      title: 'Homework',
      delta: 1,
      calculation_type: 1,
      default_max_points: 10,
      default_grading_scale: 0,
      drop_lowest: 2,
      weight: 40,
    });
    expect(tests).toEqual({
      id: expect.stringMatching(/^\d+$/),
      response_code: 200,
      title: 'Tests',
      delta: 2,
      calculation_type: 2,
      default_max_points: 100,
      default_grading_scale: scale.id,
      drop_lowest: 0,
      weight: 60,
    });
    const stored = await db().gradingCategory.findUnique({ where: { id: Number(tests.id) } });
    expect(stored).toMatchObject({
      sectionId: section.id,
      calculation: 'TOTAL_POINTS',
      defaultGradingScaleId: scale.id,
      weight: 60,
    });
    expect(await events()).toEqual(
      [homework.id, tests.id].map((id) => [
        'grading_category.create',
        'SECTION',
        section.id,
        Number(id),
        w.teacher.id,
        w.district.id,
        w.school.id,
      ]),
    );
  });

  it('answers 207 when items differ: the good ones before and after a bad one are committed, the bad one is not', async () => {
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    const titles = [unique('Good'), unique('Bad'), unique('Unreadable'), unique('Also good')];
    const response = await teacher.post(base(), {
      grading_categories: {
        grading_category: [
          { title: titles[0] },
          { title: titles[1], drop_lowest: 11 },
          { title: titles[2], weight: 'heavy' },
          { title: titles[3], calculation_type: 2 },
        ],
      },
    });
    expect(response.status).toBe(207);
    expect(response.json.grading_category.map((item: { response_code: number }) => item.response_code)).toEqual([
      200, 400, 400, 200,
    ]);
    expect(response.json.grading_category[1]).toEqual({ response_code: 400, message: 'drop_lowest: must be 0 to 10' });
    expect(response.json.grading_category[2]).toEqual({ response_code: 400, message: 'weight: must be an integer' });
    const stored = await db().gradingCategory.findMany({ where: { title: { in: titles } }, orderBy: { id: 'asc' } });
    expect(stored.map((category) => category.title)).toEqual([titles[0], titles[3]]);
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual(
      stored.map((c) => ['grading_category.create', c.id]),
    );
  });

  it('accepts a flat category and one wrapped in grading_category', async () => {
    const teacher = await clients.rest(w.teacher);
    const flat = await teacher.post(base(), { title: 'Flat', weight: 5 });
    expect(flat.status).toBe(200);
    expect(flat.json.grading_category).toEqual([
      expect.objectContaining({ response_code: 200, title: 'Flat', weight: 5 }),
    ]);
    const wrapped = await teacher.post(base(), { grading_category: { title: 'Wrapped' } });
    expect(wrapped.json.grading_category).toEqual([expect.objectContaining({ response_code: 200, title: 'Wrapped' })]);
    const listed = await teacher.post(base(), { grading_categories: [{ title: 'Listed' }, 'not a category'] });
    expect(listed.status).toBe(207);
    expect(listed.json.grading_category).toEqual([
      expect.objectContaining({ response_code: 200, title: 'Listed' }),
      { response_code: 400, message: 'grading_category: must be an object' },
    ]);
  });

  it('takes at most 200 items (400 for the whole request), writing nothing', async () => {
    const teacher = await clients.rest(w.teacher);
    await expectNothingWritten(async () => {
      const response = await teacher.post(base(), {
        grading_categories: { grading_category: Array.from({ length: 201 }, () => ({ title: 'x' })) },
      });
      expect([response.status, response.json.error]).toEqual([
        400,
        'grading_categories/grading_category: must list at most 200 categories',
      ]);
    });
  });

  it('reads XML, one item or many, and answers in XML', async () => {
    const teacher = await clients.rest(w.teacher);
    const one = await teacher.post(
      base(),
      '<body><grading_categories><grading_category><title>Quizzes &amp; labs</title><drop_lowest>1</drop_lowest></grading_category></grading_categories></body>',
      { accept: 'xml' },
    );
    expect(one.status).toBe(200);
    const [item] = xmlItems(one.text, 'grading_category');
    expect(one.text).toBe(
      `${xmlHead}<result><grading_category><id>${item!.id}</id><response_code>200</response_code><title>Quizzes &amp; labs</title>` +
        '<delta>0</delta><calculation_type>1</calculation_type><default_max_points>100</default_max_points>' +
        '<default_grading_scale>0</default_grading_scale><drop_lowest>1</drop_lowest><weight>0</weight></grading_category></result>',
    );
    const many = await teacher.post(
      base(),
      '<body><grading_categories><grading_category><title>X1</title></grading_category>' +
        '<grading_category><title>X2</title><calculation_type>3</calculation_type></grading_category></grading_categories></body>',
      { accept: 'xml' },
    );
    expect(many.status).toBe(207);
    expect(
      xmlItems(many.text, 'grading_category').map((fields) => [fields.response_code, fields.title ?? fields.message]),
    ).toEqual([
      ['200', 'X1'],
      ['400', 'calculation_type: must be one of 1, 2'],
    ]);
  });

  it('checks each bound, item by item', async () => {
    const teacher = await clients.rest(w.teacher);
    const cases: [Record<string, unknown>, number, string?][] = [
      [{ drop_lowest: 0 }, 200],
      [{ drop_lowest: 10 }, 200],
      [{ drop_lowest: -1 }, 400, 'drop_lowest: must be 0 to 10'],
      [{ calculation_type: 1 }, 200],
      [{ calculation_type: 2 }, 200],
      [{ calculation_type: 0 }, 400, 'calculation_type: must be one of 1, 2'],
      [{ weight: 0 }, 200],
      [{ weight: 1000 }, 200],
      [{ weight: 1001 }, 400, 'weight: must be 0 to 1000'],
      [{ weight: -1 }, 400, 'weight: must be 0 to 1000'],
      [{ title: 'x'.repeat(255) }, 200],
      [{ title: 'x'.repeat(256) }, 400, 'title: must be at most 255 characters'],
      [{ default_grading_scale_id: 0 }, 200],
      [
        { default_grading_scale_id: foreignScale.id },
        400,
        "default_grading_scale_id: must be a grading scale of the section's school",
      ],
      [
        { default_grading_scale_id: 99999999 },
        400,
        "default_grading_scale_id: must be a grading scale of the section's school",
      ],
      [{ default_max_points: -1 }, 400, 'default_max_points: must be 0 or more'],
    ];
    const response = await teacher.post(base(), {
      grading_categories: { grading_category: cases.map(([fields]) => fields) },
    });
    expect(response.status).toBe(207);
    expect(
      response.json.grading_category.map((item: { response_code: number; message?: string }) => [
        item.response_code,
        item.message,
      ]),
    ).toEqual(cases.map(([, code, message]) => [code, message]));
  });

  it('refuses students and teachers of other sections (403) and hides the section from outsiders (404), writing nothing', async () => {
    const body = { grading_categories: { grading_category: [{ title: 'Nope' }] } };
    await expectNothingWritten(async () => {
      for (const user of [w.student, w.parent, otherTeacher]) {
        const refused = await (await clients.rest(user)).post(base(), body);
        expect([refused.status, refused.json]).toEqual([403, { error: 'You may not change this section' }]);
      }
      for (const user of [w.outsider, w.otherSchoolStudent])
        expect((await (await clients.rest(user)).post(base(), body)).status).toBe(404);
      expect((await (await clients.rest(w.teacher)).post('/sections/999999999/grading_categories', body)).status).toBe(
        404,
      );
    });
  });

  it('is refused in other realms (403)', async () => {
    const response = await (await clients.rest(w.schoolAdmin)).post(`/schools/${w.school.id}/grading_categories`, {
      title: 'x',
    });
    expect(response.status).toBe(403);
  });
});

describe('list and view', () => {
  let listSection: { id: number };
  beforeAll(async () => {
    listSection = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  });

  it("lists by delta then id in the paging envelope, in JSON and XML, to the gradebook's readers", async () => {
    const make = (title: string, delta: number, defaultGradingScaleId?: number) =>
      db().gradingCategory.create({ data: { sectionId: listSection.id, title, delta, defaultGradingScaleId } });
    const late = await make('Late', 5);
    const first = await make('First', 1, scale.id);
    const second = await make('Second', 5);
    const path = `/sections/${listSection.id}/grading_categories`;
    for (const user of [w.teacher, w.student, w.parent, w.schoolAdmin]) {
      const response = await (await clients.rest(user)).get(path);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        grading_category: [
          {
            id: first.id,
            title: 'First',
            delta: 1,
            calculation_type: 1,
            default_max_points: 100,
            default_grading_scale_id: scale.id,
            drop_lowest: 0,
          },
          {
            id: late.id,
            title: 'Late',
            delta: 5,
            calculation_type: 1,
            default_max_points: 100,
            default_grading_scale_id: 0,
            drop_lowest: 0,
          },
          {
            id: second.id,
            title: 'Second',
            delta: 5,
            calculation_type: 1,
            default_max_points: 100,
            default_grading_scale_id: 0,
            drop_lowest: 0,
          },
        ],
        total: 3,
        links: { self: `${v1}${path}?start=0&limit=20` },
      });
    }
    const page = await (await clients.rest(w.teacher)).get(`${path}?start=1&limit=1`, { accept: 'xml' });
    expect(page.text).toBe(
      `${xmlHead}<result><grading_category><id>${late.id}</id><title>Late</title><delta>5</delta><calculation_type>1</calculation_type>` +
        '<default_max_points>100</default_max_points><default_grading_scale_id>0</default_grading_scale_id><drop_lowest>0</drop_lowest>' +
        `</grading_category><total>3</total><links><self>${v1}${path}?start=1&amp;limit=1</self>` +
        `<next>${v1}${path}?start=2&amp;limit=1</next></links></result>`,
    );
  });

  it('lists a page of categories with their scales in as many SQL statements for 12 as for 2', async () => {
    const big = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    for (let i = 0; i < 12; i++)
      await db().gradingCategory.create({
        data: { sectionId: big.id, title: `C${i}`, defaultGradingScaleId: scale.id },
      });
    const teacher = await clients.rest(w.teacher);
    const statementsFor = async (limit: number) => {
      const before = server.database.statementCount;
      const response = await teacher.get(`/sections/${big.id}/grading_categories?limit=${limit}`);
      expect(response.json.grading_category).toHaveLength(limit);
      return server.database.statementCount - before;
    };
    await statementsFor(1);
    expect(await statementsFor(12)).toBe(await statementsFor(2));
  });

  it('views one with realm, realm_id and weight, in JSON and XML', async () => {
    const category = await createCategory({ title: 'Essays', weight: 30, delta: 2, defaultGradingScaleId: scale.id });
    const student = await clients.rest(w.student);
    const json = await student.get(`${base()}/${category.id}`);
    expect(json.json).toEqual({
      id: category.id,
      title: 'Essays',
      delta: 2,
      calculation_type: 1,
      default_max_points: 100,
      default_grading_scale_id: scale.id,
      drop_lowest: 0,
      weight: 30,
      realm: 'section',
      realm_id: String(section.id),
    });
    const xml = await student.get(`${base()}/${category.id}`, { accept: 'xml' });
    expect(xml.text).toBe(
      `${xmlHead}<result><id>${category.id}</id><title>Essays</title><delta>2</delta><calculation_type>1</calculation_type>` +
        `<default_max_points>100</default_max_points><default_grading_scale_id>${scale.id}</default_grading_scale_id><drop_lowest>0</drop_lowest>` +
        `<weight>30</weight><realm>section</realm><realm_id>${section.id}</realm_id></result>`,
    );
  });

  it('is 404 for a category of another section, an unknown one, or a hidden section; 403 for a school member outside the gradebook', async () => {
    const elsewhere = await createCategory({ sectionId: otherSection.id });
    const teacher = await clients.rest(w.teacher);
    expect((await teacher.get(`${base()}/${elsewhere.id}`)).status).toBe(404);
    expect((await teacher.get(`${base()}/999999999`)).status).toBe(404);
    expect((await (await clients.rest(w.outsider)).get(base())).status).toBe(404);
    expect((await (await clients.rest(w.otherSchoolStudent)).get(base())).status).toBe(404);
    const refused = await (await clients.rest(otherTeacher)).get(base());
    expect([refused.status, refused.json.error]).toEqual([
      403,
      "Only the section's teachers, its students and their parents read its gradebook",
    ]);
  });
});

describe('update', () => {
  it('answers a single update with the category, its realm, realm_id and uid (JSON)', async () => {
    const category = await createCategory({ title: 'Old' });
    const events = await watchDomainEvents();
    const response = await (await clients.rest(w.teacher)).put(`${base()}/${category.id}`, {
      id: category.id,
      title: 'New',
      calculation_type: 2,
      default_grading_scale: scale.id,
      weight: 15,
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      id: category.id,
      title: 'New',
      delta: 0,
      calculation_type: 2,
      default_max_points: 100,
      drop_lowest: 0,
      default_grading_scale: scale.id,
      weight: 15,
      realm: 'section',
      realm_id: String(section.id),
      uid: String(category.id),
    });
    expect(await events()).toEqual([
      ['grading_category.update', 'SECTION', section.id, category.id, w.teacher.id, w.district.id, w.school.id],
    ]);
  });

  it('reads an XML update, wrapped or flat, and answers in XML; 0 clears the scale', async () => {
    const category = await createCategory({ title: 'Scaled', defaultGradingScaleId: scale.id });
    const teacher = await clients.rest(w.teacher);
    const xml = await teacher.put(
      `${base()}/${category.id}`,
      '<body><grading_category><title>Numeric</title><default_grading_scale_id>0</default_grading_scale_id></grading_category></body>',
      { accept: 'xml' },
    );
    expect(xml.status).toBe(200);
    expect(xml.text).toBe(
      `${xmlHead}<result><id>${category.id}</id><title>Numeric</title><delta>0</delta><calculation_type>1</calculation_type>` +
        '<default_max_points>100</default_max_points><default_grading_scale>0</default_grading_scale><drop_lowest>0</drop_lowest>' +
        `<weight>0</weight><realm>section</realm><realm_id>${section.id}</realm_id><uid>${category.id}</uid></result>`,
    );
    const flat = await teacher.put(`${base()}/${category.id}`, '<body><drop_lowest>3</drop_lowest></body>');
    expect([flat.status, flat.json.drop_lowest, flat.json.title]).toEqual([200, 3, 'Numeric']);
  });

  it("refuses bad values (400 naming the member), others' sections (403) and strangers' ids (404), writing nothing", async () => {
    const category = await createCategory();
    const elsewhere = await createCategory({ sectionId: otherSection.id });
    const teacher = await clients.rest(w.teacher);
    await expectNothingWritten(async () => {
      const bad = await teacher.put(`${base()}/${category.id}`, { drop_lowest: 11 });
      expect([bad.status, bad.json]).toEqual([
        400,
        { error: 'drop_lowest: must be 0 to 10', issues: [{ field: 'drop_lowest', message: 'must be 0 to 10' }] },
      ]);
      const unreadable = await teacher.put(`${base()}/${category.id}`, { calculation_type: 'percent' });
      expect(unreadable.status).toBe(400);
      expect((await teacher.put(`${base()}/${elsewhere.id}`, { title: 'x' })).status).toBe(404);
      expect((await (await clients.rest(w.student)).put(`${base()}/${category.id}`, { title: 'x' })).status).toBe(403);
      expect((await (await clients.rest(otherTeacher)).put(`${base()}/${category.id}`, { title: 'x' })).status).toBe(
        403,
      );
      expect((await (await clients.rest(w.outsider)).put(`${base()}/${category.id}`, { title: 'x' })).status).toBe(404);
    });
  });

  it('changes many at once: 204 per changed item, 400 and 404 items alone (207), in JSON and XML', async () => {
    const [a, b] = [await createCategory({ title: 'A' }), await createCategory({ title: 'B' })];
    const elsewhere = await createCategory({ sectionId: otherSection.id, title: 'Elsewhere' });
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    const response = await teacher.put(base(), {
      grading_categories: {
        grading_category: [
          { id: a.id, weight: 20 },
          { id: b.id, drop_lowest: 12 },
          { id: String(elsewhere.id), title: 'Stolen' },
          { title: 'No id' },
        ],
      },
    });
    expect(response.status).toBe(207);
    expect(response.json.grading_category).toEqual([
      {
        id: a.id,
        response_code: 204,
        title: 'A',
        delta: 0,
        calculation_type: 1,
        default_max_points: 100,
        drop_lowest: 0,
        default_grading_scale: 0,
        weight: 20,
      },
      { id: b.id, response_code: 400, message: 'drop_lowest: must be 0 to 10' },
      { id: String(elsewhere.id), response_code: 404, message: `GradingCategory ${elsewhere.id} was not found` },
      { response_code: 400, message: 'id: is required' },
    ]);
    expect((await db().gradingCategory.findUnique({ where: { id: b.id } }))!.dropLowest).toBe(0);
    expect((await db().gradingCategory.findUnique({ where: { id: elsewhere.id } }))!.title).toBe('Elsewhere');
    expect(await events()).toEqual([
      ['grading_category.update', 'SECTION', section.id, a.id, w.teacher.id, w.district.id, w.school.id],
    ]);

    const xml = await teacher.put(
      base(),
      `<body><grading_categories><grading_category><id>${b.id}</id><title>B2</title></grading_category></grading_categories></body>`,
      { accept: 'xml' },
    );
    expect(xml.status).toBe(200);
    expect(xml.text).toBe(
      `${xmlHead}<result><grading_category><id>${b.id}</id><response_code>204</response_code><title>B2</title><delta>0</delta>` +
        '<calculation_type>1</calculation_type><default_max_points>100</default_max_points><default_grading_scale>0</default_grading_scale>' +
        '<drop_lowest>0</drop_lowest><weight>0</weight></grading_category></result>',
    );
  });

  it('refuses a bulk update to students (403), writing nothing', async () => {
    const category = await createCategory();
    await expectNothingWritten(async () => {
      const refused = await (await clients.rest(w.student)).put(base(), {
        grading_categories: { grading_category: [{ id: category.id, title: 'x' }] },
      });
      expect(refused.status).toBe(403);
    });
  });
});

describe('delete', () => {
  it("answers 204, records the event, and leaves the category's assignments ungraded", async () => {
    const category = await createCategory();
    const assignment = await db().assignment.create({
      data: { sectionId: section.id, title: 'Essay 1', categoryId: category.id },
    });
    const events = await watchDomainEvents();
    const response = await (await clients.rest(w.teacher)).delete(`${base()}/${category.id}`);
    expect([response.status, response.text]).toEqual([204, '']);
    expect(await db().gradingCategory.findUnique({ where: { id: category.id } })).toBeNull();
    expect(await db().assignment.findUnique({ where: { id: assignment.id } })).toMatchObject({
      id: assignment.id,
      categoryId: null,
    });
    expect(await events()).toEqual([
      ['grading_category.delete', 'SECTION', section.id, category.id, w.teacher.id, w.district.id, w.school.id],
    ]);
    expect((await (await clients.rest(w.teacher)).delete(`${base()}/${category.id}`)).status).toBe(404);
  });

  it('is refused to students (403), and 404 for a category of another section or a hidden section (XML too)', async () => {
    const category = await createCategory();
    const elsewhere = await createCategory({ sectionId: otherSection.id });
    await expectNothingWritten(async () => {
      const refused = await (await clients.rest(w.student)).delete(`${base()}/${category.id}`, { accept: 'xml' });
      expect([refused.status, refused.text]).toEqual([
        403,
        `${xmlHead}<result><error>You may not change this section</error></result>`,
      ]);
      expect((await (await clients.rest(w.teacher)).delete(`${base()}/${elsewhere.id}`)).status).toBe(404);
      expect((await (await clients.rest(w.outsider)).delete(`${base()}/${category.id}`)).status).toBe(404);
    });
  });
});
