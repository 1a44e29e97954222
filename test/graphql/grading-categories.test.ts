import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { clientsFor, forbidden, refusal } from '../support/client';
import { type World, createSection, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let otherSection: { id: number };
let otherTeacher: { id: number };
let scale: { id: number };
let foreignScale: { id: number };

const fields =
  'id: databaseId title calculation defaultMaxPoints defaultGradingScale { id: databaseId title } dropLowest weight delta section { id: databaseId }';
const userErrors = 'userErrors { field code message }';
const results = `results { code message issues { field message } category { ${fields} } } ${userErrors}`;
const create = `mutation($sectionId: ID!, $items: [CreateGradingCategoryInput!]!) {
  createGradingCategories(input: { sectionId: $sectionId, items: $items }) { ${results} }
}`;
const change = `mutation($sectionId: ID!, $items: [GradingCategoryChangeInput!]!) {
  updateGradingCategories(input: { sectionId: $sectionId, items: $items }) { ${results} }
}`;
const update = `mutation($input: UpdateGradingCategoryInput!) {
  updateGradingCategory(input: $input) { gradingCategory { ${fields} } ${userErrors} }
}`;
/** The variables of `update`: the category (and the section it must be of), and the changes. */
const updating = ({ id, sectionId, input }: { id: string; sectionId?: string; input: object }) => ({
  input: { id, sectionId, ...input },
});
const remove = `mutation($id: ID!, $sectionId: ID) {
  deleteGradingCategory(input: { id: $id, sectionId: $sectionId }) { deletedGradingCategoryId ${userErrors} }
}`;
const list = `query($sectionId: ID!, $start: Int, $limit: Int) {
  gradingCategories(sectionId: $sectionId, start: $start, limit: $limit) { total start limit items { id: databaseId title delta } }
}`;
const one = `query($sectionId: ID!, $id: ID!) { gradingCategory(sectionId: $sectionId, id: $id) { ${fields} } }`;

beforeAll(async () => {
  w = await createWorld();
  otherTeacher = await createUser(w.school.id, 'TEACHER');
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  otherSection = await createSection(w.school.id, [{ userId: otherTeacher.id, admin: true }]);
  await db().parentLink.create({ data: { parentId: w.parent.id, childId: w.student.id } });
  const levels = [
    { grade: 'P', minimum: 50 },
    { grade: 'F', minimum: 0 },
  ];
  scale = await db().gradingScale.create({ data: { schoolId: w.school.id, title: 'Pass/fail', levels } });
  foreignScale = await db().gradingScale.create({ data: { schoolId: w.farSchool.id, title: 'Far', levels } });
  await clients.graphqlFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin'], w);
  await clients.graphql(otherTeacher);
});

const sectionId = () => String(section.id);

describe('grading categories over GraphQL', () => {
  it('are made item by item: a bad item answers code 400 with its issues, the others are committed with their events', async () => {
    const graphql = await clients.graphql(w.teacher);
    const events = await watchDomainEvents();
    const made = await graphql(create, {
      sectionId: sectionId(),
      items: [
        {
          title: 'Homework',
          calculation: 'TOTAL_POINTS',
          defaultMaxPoints: 12.5,
          defaultGradingScaleId: String(scale.id),
          dropLowest: 1,
          weight: 25,
          delta: 3,
        },
        { title: 'Broken', dropLowest: 11, weight: 1001, defaultGradingScaleId: String(foreignScale.id) },
        { title: 'Plain' },
      ],
    });
    const [homework, broken, plain] = made.data.createGradingCategories.results;
    expect(homework).toEqual({
      code: 'CREATED',
      message: null,
      issues: [],
      category: {
        id: expect.any(String),
        title: 'Homework',
        calculation: 'TOTAL_POINTS',
        defaultMaxPoints: 12.5,
        defaultGradingScale: { id: String(scale.id), title: 'Pass/fail' },
        dropLowest: 1,
        weight: 25,
        delta: 3,
        section: { id: sectionId() },
      },
    });
    expect(broken).toEqual({
      code: 'INVALID',
      message: 'dropLowest: must be 0 to 10; weight: must be 0 to 1000',
      issues: [
        { field: 'dropLowest', message: 'must be 0 to 10' },
        { field: 'weight', message: 'must be 0 to 1000' },
      ],
      category: null,
    });
    expect(plain.category).toMatchObject({
      title: 'Plain',
      calculation: 'PERCENT',
      defaultMaxPoints: 100,
      defaultGradingScale: null,
      weight: 0,
    });
    expect(await db().gradingCategory.count({ where: { sectionId: section.id, title: 'Broken' } })).toBe(0);
    expect(await events()).toEqual(
      [homework, plain].map((result) => [
        'grading_category.create',
        'SECTION',
        section.id,
        Number(result.category.id),
        w.teacher.id,
        w.district.id,
        w.school.id,
      ]),
    );
  });

  it('refuse a default scale of another school (userErrors naming defaultGradingScaleId)', async () => {
    const graphql = await clients.graphql(w.teacher);
    const category = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'Scaled' } });
    const refused = await expectNothingWritten(() =>
      graphql(update, updating({ id: String(category.id), input: { defaultGradingScaleId: String(foreignScale.id) } })),
    );
    expect(refused.data.updateGradingCategory).toEqual({
      gradingCategory: null,
      userErrors: [
        {
          field: ['input', 'defaultGradingScaleId'],
          code: 'INVALID',
          message: "must be a grading scale of the section's school",
        },
      ],
    });
    const cleared = await graphql(
      update,
      updating({ id: String(category.id), input: { title: null, defaultGradingScaleId: '0' } }),
    );
    expect(cleared.data.updateGradingCategory.gradingCategory).toMatchObject({
      title: null,
      defaultGradingScale: null,
    });
  });

  it("are listed by delta then id and paged, read by the gradebook's readers, and looked up one by one", async () => {
    const listed = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const made = [];
    for (const [title, delta] of [
      ['C', 2],
      ['A', 1],
      ['B', 2],
    ] as const)
      made.push(await db().gradingCategory.create({ data: { sectionId: listed.id, title, delta } }));
    for (const user of [w.teacher, w.student, w.parent, w.schoolAdmin]) {
      const page = await (await clients.graphql(user))(list, { sectionId: String(listed.id), start: 1, limit: 5 });
      expect(page.data.gradingCategories).toEqual({
        total: 3,
        start: 1,
        limit: 5,
        items: [
          { id: String(made[0]!.id), title: 'C', delta: 2 },
          { id: String(made[2]!.id), title: 'B', delta: 2 },
        ],
      });
    }
    const student = await clients.graphql(w.student);
    expect(
      (await student(one, { sectionId: String(listed.id), id: String(made[1]!.id) })).data.gradingCategory,
    ).toMatchObject({ title: 'A' });
    // Unknown, of another section, or asked in a hidden section: null.
    expect((await student(one, { sectionId: String(listed.id), id: '999999999' })).data.gradingCategory).toBeNull();
    expect((await student(one, { sectionId: sectionId(), id: String(made[1]!.id) })).data.gradingCategory).toBeNull();
    const outsider = await clients.graphql(w.outsider);
    expect(
      (await outsider(one, { sectionId: String(listed.id), id: String(made[1]!.id) })).data.gradingCategory,
    ).toBeNull();
    expect((await outsider(list, { sectionId: String(listed.id) })).data.gradingCategories).toBeNull();
    // A teacher of another section knows the section but not its gradebook.
    const refused = await (await clients.graphql(otherTeacher))(list, { sectionId: String(listed.id) });
    expect(refusal(refused)).toEqual({
      ...forbidden("Only the section's teachers, its students and their parents read its gradebook"),
      data: { gradingCategories: null },
    });
  });

  it("are changed in bulk (204 each; 404 for another section's) and one at a time, and deleted", async () => {
    const graphql = await clients.graphql(w.teacher);
    const mine = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'Mine' } });
    const theirs = await db().gradingCategory.create({ data: { sectionId: otherSection.id, title: 'Theirs' } });
    const events = await watchDomainEvents();
    const changed = await graphql(change, {
      sectionId: sectionId(),
      items: [
        { id: String(mine.id), weight: 50, calculation: 'TOTAL_POINTS' },
        { id: String(theirs.id), title: 'Taken' },
        { id: '99999999999' },
      ],
    });
    expect(
      changed.data.updateGradingCategories.results.map((result: { code: string; message: string | null }) => [
        result.code,
        result.message,
      ]),
    ).toEqual([
      ['UPDATED', null],
      ['NOT_FOUND', `GradingCategory ${theirs.id} was not found`],
      ['NOT_FOUND', 'GradingCategory 99999999999 was not found'],
    ]);
    expect(changed.data.updateGradingCategories.results[0].category).toMatchObject({
      weight: 50,
      calculation: 'TOTAL_POINTS',
    });
    // With a section named, the category must be of it; without one, its own section is asked.
    const elsewhere = updating({ id: String(mine.id), sectionId: String(otherSection.id), input: { title: 'x' } });
    expect((await graphql(update, elsewhere)).data.updateGradingCategory.userErrors).toEqual([
      { field: ['input', 'id'], code: 'NOT_FOUND', message: `GradingCategory ${mine.id} was not found` },
    ]);
    expect(
      (await graphql(update, updating({ id: String(mine.id), input: { title: 'Renamed' } }))).data.updateGradingCategory
        .gradingCategory,
    ).toMatchObject({ title: 'Renamed' });
    expect((await graphql(remove, { id: String(mine.id), sectionId: sectionId() })).data.deleteGradingCategory).toEqual(
      { deletedGradingCategoryId: encodeGlobalId('GradingCategory', mine.id), userErrors: [] },
    );
    expect((await graphql(remove, { id: String(mine.id) })).data.deleteGradingCategory.userErrors[0].code).toBe(
      'NOT_FOUND',
    );
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['grading_category.update', mine.id],
      ['grading_category.update', mine.id],
      ['grading_category.delete', mine.id],
    ]);
  });

  it("are kept by the section's teachers only: students and other teachers are refused (FORBIDDEN), outsiders find nothing", async () => {
    const category = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'Kept' } });
    await expectNothingWritten(async () => {
      for (const user of [w.student, w.parent, otherTeacher]) {
        const graphql = await clients.graphql(user);
        // The refused field alone is null: a document's other fields would still answer.
        const refused = (field: string) => ({
          ...forbidden('You may not change this section'),
          data: { [field]: null },
        });
        expect(refusal(await graphql(create, { sectionId: sectionId(), items: [{ title: 'x' }] }))).toEqual(
          refused('createGradingCategories'),
        );
        expect(
          refusal(await graphql(change, { sectionId: sectionId(), items: [{ id: String(category.id) }] })),
        ).toEqual(refused('updateGradingCategories'));
        expect(refusal(await graphql(update, updating({ id: String(category.id), input: { title: 'x' } })))).toEqual(
          refused('updateGradingCategory'),
        );
        expect(refusal(await graphql(remove, { id: String(category.id) }))).toEqual(refused('deleteGradingCategory'));
      }
      const outsider = await clients.graphql(w.outsider);
      expect(
        (await outsider(create, { sectionId: sectionId(), items: [{ title: 'x' }] })).data.createGradingCategories,
      ).toEqual({
        results: null,
        userErrors: [
          { field: ['input', 'sectionId'], code: 'NOT_FOUND', message: `Section ${section.id} was not found` },
        ],
      });
      expect(
        (await outsider(update, updating({ id: String(category.id), input: { title: 'x' } }))).data
          .updateGradingCategory.userErrors[0].code,
      ).toBe('NOT_FOUND');
      expect((await outsider(remove, { id: String(category.id) })).data.deleteGradingCategory.userErrors[0].code).toBe(
        'NOT_FOUND',
      );
    });
  });

  it('take at most 200 items at once (userErrors naming items), writing nothing', async () => {
    const graphql = await clients.graphql(w.teacher);
    const refused = await expectNothingWritten(() =>
      graphql(create, { sectionId: sectionId(), items: Array.from({ length: 201 }, () => ({ title: 'x' })) }),
    );
    expect(refused.data.createGradingCategories).toEqual({
      results: null,
      userErrors: [{ field: ['input', 'items'], code: 'INVALID', message: 'must list at most 200 categories' }],
    });
  });
});
