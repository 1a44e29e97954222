import { verdictOf } from '../../auth/policy';
import { forbidden } from '../../core/errors';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { offsetListBeside, pageArgs, paged } from '../../graphql/paging';
import { readableGroupsWhere } from '../groups/group.policy';
import { GroupPage } from '../groups/group.queries';
import { rosterEnrollmentsWhere } from '../roster/roster.policy';
import { SectionPage } from '../roster/roster.queries';
import { userPolicy } from './user.policy';

/**
 * A user's roster is for the user, one of their parents, or one of their administrators; anyone else who sees the
 * user is refused (403), as the /v1 lists answer.
 */
async function assertRosterReadable(viewer: Parameters<typeof verdictOf>[0], id: number) {
  const verdict = await verdictOf(viewer, userPolicy, 'readRoster', id);
  if (verdict !== 'allow') throw forbidden(typeof verdict === 'object' ? verdict.forbid : undefined);
}

// The offset lists beside the `sections` and `groups` connections (src/modules/roster/roster.type.ts), which /v1 pages.
builder.prismaObjectFields('User', (t) => ({
  sectionList: t.field({
    ...offsetListBeside('sections'),
    type: SectionPage,
    description:
      'The sections the user is an active member of (teaching or taking), by id, that the viewer reads; refused (403) ' +
      'unless the viewer is the user, one of their parents, or one of their administrators.',
    args: pageArgs,
    select: { id: true },
    resolve: async (user, args, { viewer }) => {
      await assertRosterReadable(viewer!, user.id);
      const where = {
        enrollments: { some: { userId: user.id, status: 'ACTIVE' as const, ...rosterEnrollmentsWhere(viewer!) } },
      };
      return paged(args, {
        findMany: (query) => db().section.findMany({ ...query, where }),
        count: () => db().section.count({ where }),
      });
    },
  }),
  groupList: t.field({
    ...offsetListBeside('groups'),
    type: GroupPage,
    description:
      'The groups the user belongs to that the viewer may see, by id; refused (403) unless the viewer is the user, one ' +
      'of their parents, or one of their administrators.',
    args: pageArgs,
    select: { id: true },
    resolve: async (user, args, { viewer }) => {
      await assertRosterReadable(viewer!, user.id);
      const where = { AND: [{ memberships: { some: { userId: user.id } } }, readableGroupsWhere(viewer!)] };
      return paged(args, {
        findMany: (query) => db().group.findMany({ ...query, where }),
        count: () => db().group.count({ where }),
      });
    },
  }),
}));
