import { isStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { forbidden, invalidArgument } from '../../core/errors';
import { db } from '../../db/database';
import type { Prisma, User } from '../../generated/prisma/client';
import type { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { objectQuery } from '../../graphql/operations';
import { connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { type IdListSource, maxPageSize, offsetListBeside, pagedById } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { inactiveUsersWhere, readableUsersWhere, userFacts, userFactsSelection, userPolicy } from './user.policy';
import { RoleEnum, UserPage } from './user.type';
import { maxUserItems } from './user.validation';

objectQuery('user', 'User', userPolicy, {
  type: 'USER',
  selection: userFactsSelection,
  facts: userFacts,
});

builder.queryFields((t) => ({
  viewer: t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    description: 'The authenticated user.',
    resolve: (query, _root, _args, { viewer }) => db().user.findUniqueOrThrow({ ...query, where: { id: viewer.id } }),
  }),
}));

interface UserFilters {
  roles?: readonly Role[] | null;
  schoolIds?: readonly string[] | null;
  buildingId?: string | null;
  schoolUids?: readonly string[] | null;
  active?: boolean | null;
}

/** Active users are those the viewer reads; inactive ones are listed to those who administer them only. */
function stateWhere(viewer: Viewer, active: boolean): Prisma.UserWhereInput {
  if (active) return readableUsersWhere(viewer);
  const inactive = inactiveUsersWhere(viewer);
  if (!inactive) throw forbidden('Only administrators list inactive users');
  return inactive;
}

/** A School id filter (buildings are School rows); an id beyond the database's integer range matches nothing. */
const schoolIdOf = (value: string, name: string) => {
  const id = parseId(value, 'School', name);
  return isStorableId(id) ? id : -1;
};

/** The users `users` lists: those the viewer may read, narrowed by the filters given. */
function usersWhere(viewer: Viewer, args: UserFilters): Prisma.UserWhereInput {
  if (args.schoolUids && args.schoolUids.length > maxUserItems)
    throw invalidArgument('schoolUids', `must list at most ${maxUserItems} school user ids`);
  return {
    AND: [
      stateWhere(viewer, args.active ?? true),
      args.roles ? { role: { in: [...args.roles] } } : {},
      args.schoolIds ? { schoolId: { in: args.schoolIds.map((id) => schoolIdOf(id, 'schoolIds')) } } : {},
      args.buildingId ? { buildingId: schoolIdOf(args.buildingId, 'buildingId') } : {},
      args.schoolUids ? { schoolUid: { in: [...args.schoolUids] } } : {},
    ],
  };
}

/** The list `users` pages, by id: a district's users run to tens of thousands, so its far pages are read by id. */
function usersSource(viewer: Viewer, args: UserFilters): IdListSource<User> {
  const where = usersWhere(viewer, args);
  return {
    findMany: (query) => db().user.findMany({ ...query, where: { AND: [where, query.where] } }),
    findIds: (window) => db().user.findMany({ ...window, where: { AND: [where, window.where] }, select: { id: true } }),
    count: () => db().user.count({ where }),
  };
}

/**
 * The page a list of users answers when no `limit` or `first` is given: each user nests pages of groups and sections
 * and those their members, so a page of 20 at default sizes is over the cost limit (test/graphql/default-pages.test.ts).
 * The /v1 route always passes its own limit.
 */
const defaultUserPage = 4;
const userPageArgs = builder.args((t) => ({
  start: t.int({ defaultValue: 0, description: 'Offset of the first item (0-based).' }),
  limit: t.int({ defaultValue: defaultUserPage, description: `Page size; at most ${maxPageSize}.` }),
}));

const filterArgs = builder.args((t) => ({
  roles: t.field({ type: [RoleEnum], description: 'Only users of these roles.' }),
  schoolIds: t.idList({ description: 'Only users of these schools (for district administrators).' }),
  buildingId: t.id({ description: 'Only users of this building.' }),
  schoolUids: t.stringList({ description: `Only the users with these school user ids (at most ${maxUserItems}).` }),
  active: t.boolean({
    defaultValue: true,
    description: 'Active users (true), or the inactive users the viewer administers (false: administrators only).',
  }),
}));

builder.queryFields((t) => ({
  users: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('usersConnection'),
    type: UserPage,
    description:
      "Users the viewer may see (their school's; every school's of the district for a district administrator), by id. " +
      `The default page is ${defaultUserPage}: each user's lists of groups and sections nest pages of their own.`,
    args: { ...userPageArgs, ...filterArgs },
    resolve: (_root, args, { viewer }) => pagedById(args, usersSource(viewer, args)),
  }),
  usersConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'User',
      ...connectionOptions,
      defaultSize: defaultUserPage,
      extensions: { defaultPageSize: defaultUserPage },
      description: `The users \`users\` lists, as a Relay connection in the same order (ascending ids); without \`first\` or \`last\` a page of ${defaultUserPage}.`,
      args: filterArgs,
      resolve: (query, _root, args, { viewer }) => db().user.findMany(keysetWindow(query, usersWhere(viewer, args))),
      totalCount: (_root, args, { viewer }) => db().user.count({ where: usersWhere(viewer, args) }),
    },
    connectionOf('User'),
  ),
}));
