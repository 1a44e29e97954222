import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, clientsFor } from '../support/client';
import {
  type World,
  createAlbum,
  createAlbumItem,
  createPage,
  createSection,
  createUser,
  createWorld,
} from '../support/factories';
import { useTestServer } from '../support/harness';

// Beside each `...Id` a client reads is the object it names, with its global id, as the viewer may see it.

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let teacher: GraphQLClient;
let student: GraphQLClient;

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  teacher = await clients.graphql(w.teacher);
  student = await clients.graphql(w.student);
});

const node = (client: GraphQLClient, id: string, selection: string) =>
  client(`query($id: ID!) { node(id: $id) { ${selection} } }`, { id }).then((answer) => {
    expect(answer.errors).toBeUndefined();
    return answer.data.node;
  });

describe('Page.parent', () => {
  it('is the page it is nested under, null for a top page and for a parent hidden from the viewer', async () => {
    const realm = { type: 'SECTION' as const, id: section.id };
    const top = await createPage(realm, { title: 'Unit 1' });
    const child = await createPage(realm, { title: 'Lesson 1', parentId: top.id });
    const draft = await createPage(realm, { title: 'Unit 2 (draft)', published: false });
    const underDraft = await createPage(realm, { title: 'Lesson 2', parentId: draft.id });
    const selection = '... on Page { parentId parent { id title parent { id } } }';

    expect(await node(student, encodeGlobalId('Page', child.id), selection)).toEqual({
      parentId: String(top.id),
      parent: { id: encodeGlobalId('Page', top.id), title: 'Unit 1', parent: null },
    });
    expect(await node(student, encodeGlobalId('Page', underDraft.id), selection)).toEqual({
      parentId: String(draft.id),
      parent: null,
    });
    expect((await node(teacher, encodeGlobalId('Page', underDraft.id), selection)).parent).toEqual({
      id: encodeGlobalId('Page', draft.id),
      title: 'Unit 2 (draft)',
      parent: null,
    });
  });
});

describe('AlbumComment.content and album', () => {
  it('are the item commented on and its album', async () => {
    const album = await createAlbum({ type: 'SECTION', id: section.id }, { creatorId: w.teacher.id });
    const item = await createAlbumItem(album.id, w.teacher.id);
    const comment = await db().albumComment.create({
      data: { contentId: item.id, authorId: w.student.id, comment: 'Nice' },
    });
    expect(
      await node(
        student,
        encodeGlobalId('AlbumComment', comment.id),
        '... on AlbumComment { content { id } album { id title } }',
      ),
    ).toEqual({
      content: { id: encodeGlobalId('AlbumContent', item.id) },
      album: { id: encodeGlobalId('Album', album.id), title: album.title },
    });
  });
});

describe('the objects beside the ids of section grades', () => {
  const query = `query($id: ID!) { sectionGrades(sectionId: $id) {
    section { id }
    grades { enrollmentId enrollment { id } assignment { id title } category { id title } scale { id } period { id } }
    enrollments {
      enrollment { id } user { id nameDisplay }
      periods { periodId period { id title } categories { categoryId category { id } } }
    }
  } }`;

  /** A section with `students` graded on two items of a period and a category; its grades as the teacher reads them. */
  async function gradedSection(students: number) {
    const people = await Promise.all(Array.from({ length: students }, () => createUser(w.school.id, 'STUDENT')));
    const graded = await createSection(w.school.id, [
      { userId: w.teacher.id, admin: true },
      ...people.map((person) => ({ userId: person.id })),
    ]);
    const period = await db().gradingPeriod.create({
      data: { schoolId: w.school.id, title: 'Fall', startsOn: new Date('2026-09-01'), endsOn: new Date('2026-12-20') },
    });
    const category = await db().gradingCategory.create({ data: { sectionId: graded.id, title: 'Quizzes' } });
    const items = await Promise.all(
      ['Quiz 1', 'Quiz 2'].map((title) =>
        db().assignment.create({ data: { sectionId: graded.id, title, categoryId: category.id, periodId: period.id } }),
      ),
    );
    const enrollments = await db().enrollment.findMany({ where: { sectionId: graded.id, admin: false } });
    await db().grade.createMany({
      data: enrollments.flatMap((enrollment) =>
        items.map((item) => ({ enrollmentId: enrollment.id, assignmentId: item.id, sectionId: graded.id, grade: 8 })),
      ),
    });
    const before = server.database.statementCount;
    const answer = await teacher(query, { id: String(graded.id) });
    expect(answer.errors).toBeUndefined();
    return {
      graded,
      period,
      category,
      items,
      enrollments,
      answer: answer.data.sectionGrades,
      statements: server.database.statementCount - before,
    };
  }

  it('reads each kind of object once per request, however many grades name it', async () => {
    const one = await gradedSection(1);
    const three = await gradedSection(3);
    expect(three.statements).toBe(one.statements);

    const { graded, period, category, items, enrollments, answer } = three;
    expect(answer.section).toEqual({ id: encodeGlobalId('Section', graded.id) });
    expect(answer.grades).toHaveLength(6);
    for (const grade of answer.grades) {
      expect(grade.enrollment).toEqual({ id: encodeGlobalId('Enrollment', Number(grade.enrollmentId)) });
      expect(items.map((item) => encodeGlobalId('Assignment', item.id))).toContain(grade.assignment.id);
      expect(grade).toMatchObject({
        category: { id: encodeGlobalId('GradingCategory', category.id), title: 'Quizzes' },
        scale: null,
        period: { id: encodeGlobalId('GradingPeriod', period.id) },
      });
    }
    expect(answer.enrollments.map((row: { user: { id: string } }) => row.user.id).sort()).toEqual(
      enrollments.map((enrollment) => encodeGlobalId('User', enrollment.userId)).sort(),
    );
    const periods = answer.enrollments[0].periods;
    expect(
      periods.map((row: { periodId: string; period: { id: string } | null }) => [row.periodId, row.period?.id ?? null]),
    ).toEqual([
      [`p${period.id}`, encodeGlobalId('GradingPeriod', period.id)],
      ['final', null],
    ]);
    expect(periods[0].categories).toEqual([
      { categoryId: String(category.id), category: { id: encodeGlobalId('GradingCategory', category.id) } },
    ]);
  });
});
