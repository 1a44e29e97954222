import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { connectionOptions, describedTotalCount } from '../../graphql/connections';

/** The order of a group's members: a connection needs one, and the enrollment is what a member is. */
const memberOrder = { enrollmentId: 'asc' } as const;

builder.prismaNode('GradingGroup', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingGroup', ['sectionId', 'title', 'createdAt']),
    members: t.relation('members', { description: 'The enrollments in the group, by enrollment id.', query: { orderBy: memberOrder } }),
    membersConnection: t.relatedConnection('members', {
      ...connectionOptions,
      cursor: 'gradingGroupId_enrollmentId',
      description: 'The members `members` lists, as a Relay connection in the same order.',
      query: { orderBy: memberOrder },
      totalCount: true,
    }, describedTotalCount),
    section: t.relation('section', { description: 'The course section of the group (`sectionId`).' }),
  }),
});

builder.prismaObject('GradingGroupMember', {
  fields: (t) => ({
    enrollment: t.relation('enrollment'),
  }),
});
