import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';

export const DistrictType = builder.prismaNode('District', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'District', ['title', 'timeZone', 'attendanceApp', 'incompleteCountsAsZero']),
  }),
});

/** `createdAfter` of the lists of pending invites and requests. */
export const createdAfterArgument = { description: 'Only those created after this instant.' };

/** `createdAfterText` of the offset lists of pending invites and requests: the platform's `created_offset`. */
export const createdAfterTextArgument = {
  description:
    'The `/v1` form of `createdAfter` (its `created_offset`): a date and time ("2010-05-14 23:44:32"), a date, or ' +
    'English such as "yesterday", "3 days ago" or "last monday 9am", read in the district\'s time zone; ' +
    '"@1389715233" is a unix time. Not with `createdAfter`.',
};
