import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';

builder.prismaObject('GradingGroup', {
  fields: (t) => ({
    ...exposeColumns(t, 'GradingGroup', ['id', 'sectionId', 'title', 'createdAt']),
    members: t.relation('members', { description: 'The enrollments in the group.' }),
    section: t.relation('section', { description: 'The course section of the group (`sectionId`).' }),
  }),
});

builder.prismaObject('GradingGroupMember', {
  fields: (t) => ({
    enrollment: t.relation('enrollment'),
  }),
});
