import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { clientsFor, forbidden, refusal } from '../support/client';
import { type World, createSection, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let enrollments: number[];

const create = `mutation($input: CreateGradingGroupInput!) {
  createGradingGroup(input: $input) {
    gradingGroup { id: databaseId title sectionId members { enrollment { id: databaseId } } } userErrors { field code message }
  }
}`;
const list = `query($sectionId: ID!) { gradingGroups(sectionId: $sectionId) { id: databaseId title members { enrollment { id: databaseId } } } }`;
const memberIds = (group: { members: { enrollment: { id: string } }[] }) =>
  group.members.map((member) => member.enrollment.id).sort();

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [
    { userId: w.teacher.id, admin: true },
    { userId: w.student.id },
    { userId: w.parent.id },
  ]);
  enrollments = (
    await db().enrollment.findMany({ where: { sectionId: section.id, admin: false }, orderBy: { id: 'asc' } })
  ).map((row) => row.id);
  await clients.graphqlFor(['teacher', 'student', 'outsider'], w);
});

describe('grading groups', () => {
  it("are made, renamed, refilled and deleted by the section's teachers, each with its event", async () => {
    const graphql = await clients.graphql(w.teacher);
    const events = await watchDomainEvents();
    const made = await graphql(create, {
      input: { sectionId: String(section.id), title: 'Group A', enrollmentIds: enrollments.map(String) },
    });
    const group = made.data.createGradingGroup.gradingGroup;
    expect(group).toMatchObject({ title: 'Group A', sectionId: String(section.id) });
    expect(memberIds(group)).toEqual(enrollments.map(String).sort());

    const renamed = await graphql(
      `mutation($input: UpdateGradingGroupInput!) { updateGradingGroup(input: $input) { gradingGroup { title members { enrollment { id: databaseId } } } } }`,
      { input: { id: group.id, title: 'Group B', enrollmentIds: [String(enrollments[0])] } },
    );
    expect(renamed.data.updateGradingGroup.gradingGroup).toEqual({
      title: 'Group B',
      members: [{ enrollment: { id: String(enrollments[0]) } }],
    });
    expect((await graphql(list, { sectionId: String(section.id) })).data.gradingGroups).toEqual([
      { id: group.id, title: 'Group B', members: [{ enrollment: { id: String(enrollments[0]) } }] },
    ]);
    const deleted = await graphql(
      `mutation($id: ID!) { deleteGradingGroup(input: { id: $id }) { deletedGradingGroupId userErrors { code } } }`,
      { id: group.id },
    );
    expect(deleted.data.deleteGradingGroup).toEqual({
      deletedGradingGroupId: encodeGlobalId('GradingGroup', Number(group.id)),
      userErrors: [],
    });
    expect((await events()).map(([type]) => type)).toEqual([
      'grading_group.create',
      'grading_group.update',
      'grading_group.delete',
    ]);
  });

  it('take only enrollments of their own section (userErrors naming enrollmentIds), writing nothing', async () => {
    const other = await createSection(w.school.id, [{ userId: w.student.id }]);
    const [foreign] = await db().enrollment.findMany({ where: { sectionId: other.id } });
    const graphql = await clients.graphql(w.teacher);
    const refused = await expectNothingWritten(() =>
      graphql(create, {
        input: {
          sectionId: String(section.id),
          title: 'Mixed',
          enrollmentIds: [String(enrollments[0]), String(foreign!.id)],
        },
      }),
    );
    expect(refused.data.createGradingGroup).toEqual({
      gradingGroup: null,
      userErrors: [
        {
          field: ['input', 'enrollmentIds'],
          code: 'INVALID',
          message: `must be enrollments of this section; not: ${foreign!.id}`,
        },
      ],
    });
  });

  it("are the teachers' tool: a student is refused (FORBIDDEN), an outsider finds no section", async () => {
    const [student, outsider] = [await clients.graphql(w.student), await clients.graphql(w.outsider)];
    await expectNothingWritten(async () => {
      expect(refusal(await student(list, { sectionId: String(section.id) }))).toEqual({
        ...forbidden('You may not change this section'),
        data: { gradingGroups: null },
      });
      expect(refusal(await student(create, { input: { sectionId: String(section.id), title: 'x' } }))).toEqual({
        ...forbidden('You may not change this section'),
        data: { createGradingGroup: null },
      });
      expect((await outsider(list, { sectionId: String(section.id) })).data.gradingGroups).toBeNull();
    });
  });
});
