import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { keysetRelatedConnection } from '../../graphql/connections';

/** The order of a group's members: a connection needs one, and the enrollment is what a member is. */
const memberOrder = { enrollmentId: 'asc' } as const;

builder.prismaNode('GradingGroup', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingGroup', ['sectionId', 'title', 'createdAt']),
    members: t.relation('members', {
      description: 'The enrollments in the group, by enrollment id.',
      query: { orderBy: memberOrder },
    }),
    membersConnection: keysetRelatedConnection(t, 'members', {
      type: GradingGroupMemberType,
      description: 'The members `members` lists, as a Relay connection in the same order.',
      order: [memberOrder],
    }),
    section: t.relation('section', { description: 'The course section of the group (`sectionId`).' }),
  }),
});

const GradingGroupMemberType = builder.prismaObject('GradingGroupMember', {
  fields: (t) => ({
    enrollment: t.relation('enrollment'),
  }),
});
