import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';

builder.prismaNode('GradingGroup', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingGroup', ['sectionId', 'title', 'createdAt']),
    members: t.relation('members', { description: 'The enrollments in the group.' }),
    section: t.relation('section', { description: 'The course section of the group (`sectionId`).' }),
  }),
});

builder.prismaObject('GradingGroupMember', {
  fields: (t) => ({
    enrollment: t.relation('enrollment'),
  }),
});
