import { beforeAll, describe, expect, it } from 'vitest';
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

const create = `mutation($sectionId: ID!, $input: CreateGradingGroupInput!) {
  createGradingGroup(sectionId: $sectionId, input: $input) {
    __typename ... on GradingGroup { id: databaseId title sectionId members { enrollment { id: databaseId } } } ... on ValidationError { issues { field message } }
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
      sectionId: String(section.id),
      input: { title: 'Group A', enrollmentIds: enrollments.map(String) },
    });
    const group = made.data.createGradingGroup;
    expect(group).toMatchObject({ __typename: 'GradingGroup', title: 'Group A', sectionId: String(section.id) });
    expect(memberIds(group)).toEqual(enrollments.map(String).sort());

    const renamed = await graphql(
      `mutation($id: ID!, $input: UpdateGradingGroupInput!) { updateGradingGroup(id: $id, input: $input) { __typename ... on GradingGroup { title members { enrollment { id: databaseId } } } } }`,
      { id: group.id, input: { title: 'Group B', enrollmentIds: [String(enrollments[0])] } },
    );
    expect(renamed.data.updateGradingGroup).toEqual({
      __typename: 'GradingGroup',
      title: 'Group B',
      members: [{ enrollment: { id: String(enrollments[0]) } }],
    });
    expect((await graphql(list, { sectionId: String(section.id) })).data.gradingGroups).toEqual([
      { id: group.id, title: 'Group B', members: [{ enrollment: { id: String(enrollments[0]) } }] },
    ]);
    const deleted = await graphql(`mutation($id: ID!) { deleteGradingGroup(id: $id) { __typename } }`, {
      id: group.id,
    });
    expect(deleted.data.deleteGradingGroup.__typename).toBe('Deleted');
    expect((await events()).map(([type]) => type)).toEqual([
      'grading_group.create',
      'grading_group.update',
      'grading_group.delete',
    ]);
  });

  it('take only enrollments of their own section (ValidationError naming enrollmentIds), writing nothing', async () => {
    const other = await createSection(w.school.id, [{ userId: w.student.id }]);
    const [foreign] = await db().enrollment.findMany({ where: { sectionId: other.id } });
    const graphql = await clients.graphql(w.teacher);
    const refused = await expectNothingWritten(() =>
      graphql(create, {
        sectionId: String(section.id),
        input: { title: 'Mixed', enrollmentIds: [String(enrollments[0]), String(foreign!.id)] },
      }),
    );
    expect(refused.data.createGradingGroup).toEqual({
      __typename: 'ValidationError',
      issues: [{ field: 'enrollmentIds', message: `must be enrollments of this section; not: ${foreign!.id}` }],
    });
  });

  it("are the teachers' tool: a student is refused (403), an outsider finds no section", async () => {
    const [student, outsider] = [await clients.graphql(w.student), await clients.graphql(w.outsider)];
    await expectNothingWritten(async () => {
      expect(refusal(await student(list, { sectionId: String(section.id) }))).toEqual({
        ...forbidden('You may not change this section'),
        // The field is nullable: data is not null, so the answer is 200 (partial data), its error FORBIDDEN.
        status: 200,
        data: { gradingGroups: null },
      });
      expect(refusal(await student(create, { sectionId: String(section.id), input: { title: 'x' } }))).toEqual(
        forbidden('You may not change this section'),
      );
      expect((await outsider(list, { sectionId: String(section.id) })).data.gradingGroups).toBeNull();
    });
  });
});
