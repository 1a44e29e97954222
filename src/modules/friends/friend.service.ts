import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, NotFoundError } from '../../core/errors';
import { conflictOnUnique } from '../../db/unique';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { type ListSource, paged } from '../../graphql/paging';
import { addressedListWhere, type CreatedAfter } from '../users/addressed';
import { readableUsersWhere } from '../users/user.policy';
import { friendRequestPolicy } from './friend.policy';
import { friendRequestSchema } from './friend.validation';

type RequestQuery = { select?: Prisma.FriendRequestSelect; include?: Prisma.FriendRequestInclude };
type Action = 'ACCEPT' | 'DENY';

// Recorded in the realm of the user asked, whose requests they are.
const requestEvent = (type: `friend_request.${string}`, description: string) =>
  defineEvent(type, { object: 'FriendRequest', realms: ['USER'], description, audience: 'administrators' });
export const friendRequestEvents = {
  create: requestEvent('friend_request.create', 'A user asked another to be friends.'),
  accept: requestEvent('friend_request.accept', 'A friend request was accepted: the two users are friends.'),
  deny: requestEvent('friend_request.deny', 'A friend request was denied.'),
};

/** The user's friends whom the viewer may see as users. */
export const friendsWhere = (viewer: Viewer | null, userId: number): Prisma.UserWhereInput => ({
  friendOf: { some: { userId } },
  AND: [readableUsersWhere(viewer)],
});

/** The user's friends whom the viewer may see as users, as a list to page. */
export function friendsOf(viewer: Viewer | null, userId: number): ListSource<Prisma.UserGetPayload<object>> {
  const where = friendsWhere(viewer, userId);
  return { findMany: (query) => db().user.findMany({ ...query, where }), count: () => db().user.count({ where }) };
}

export async function sendFriendRequest(viewer: Viewer, userId: number, query: RequestQuery) {
  await authorize(viewer, friendRequestPolicy, 'send', userId, userId, 'User');
  validate(friendRequestSchema, { requesterId: viewer.id, userId });
  const pair = {
    OR: [
      { requesterId: viewer.id, userId },
      { requesterId: userId, userId: viewer.id },
    ],
  };
  const [friends, pending] = await Promise.all([
    db().friendship.findUnique({
      where: { userId_friendId: { userId: viewer.id, friendId: userId } },
      select: { userId: true },
    }),
    db().friendRequest.findFirst({ where: pair, select: { requesterId: true } }),
  ]);
  if (friends) throw new ConflictError('You are already friends', 'userId');
  if (pending?.requesterId === userId)
    throw new ConflictError('That user has already asked you: answer their request', 'userId');
  if (pending) throw new ConflictError('A request to that user is already pending', 'userId');
  const scope = await realmFacts(viewer, { type: 'USER', id: userId });
  return writeTransaction(async (tx) => {
    const request = await tx.friendRequest.create({ ...query, data: { requesterId: viewer.id, userId } });
    await recordEvent(tx, friendRequestEvents.create, {
      realm: { type: 'USER', id: userId },
      objectId: request.id,
      actorId: viewer.id,
      scope,
    });
    return request;
  }).catch(conflictOnUnique('A request to that user is already pending', 'userId'));
}

/** The pending requests to a user: null when the user is hidden, a 403 for others who may not read them. */
export const pendingFriendRequestsWhere = (viewer: Viewer, userId: number, since: CreatedAfter) =>
  addressedListWhere(viewer, friendRequestPolicy, userId, since);

/** Pending requests to a user, oldest first: null when the user is hidden, a 403 for others who may not read them. */
export async function pendingFriendRequests(
  viewer: Viewer,
  userId: number,
  since: CreatedAfter,
  page: { start?: number | null; limit?: number | null },
) {
  const where = await pendingFriendRequestsWhere(viewer, userId, since);
  if (!where) return null;
  return paged(page, {
    findMany: (query) => db().friendRequest.findMany({ ...query, where }),
    count: () => db().friendRequest.count({ where }),
  });
}

export async function answerFriendRequest(viewer: Viewer, userId: number, id: number, action: Action) {
  await authorize(viewer, friendRequestPolicy, 'answer', userId, userId, 'User');
  const notFound = () => new NotFoundError('FriendRequest', id);
  const request = await findByStorableId(id, (id) =>
    db().friendRequest.findFirst({ where: { id, userId }, select: { requesterId: true } }),
  );
  if (!request) throw notFound();
  const { requesterId } = request;
  const realm = { type: 'USER' as const, id: userId };
  const scope = await realmFacts(viewer, realm);
  return writeTransaction(async (tx) => {
    // Answering removes the request; a second answer racing this one finds nothing and is a NotFoundError.
    const { count } = await tx.friendRequest.deleteMany({ where: { id } });
    if (count === 0) throw notFound();
    if (action === 'ACCEPT') {
      // Both directions, so that either user's friends are one indexed lookup; friends already stay friends.
      const rows = [
        { userId, friendId: requesterId },
        { userId: requesterId, friendId: userId },
      ];
      await tx.friendship.createMany({ data: rows, skipDuplicates: true });
    }
    const kind = action === 'ACCEPT' ? friendRequestEvents.accept : friendRequestEvents.deny;
    await recordEvent(tx, kind, { realm, objectId: id, actorId: viewer.id, scope });
    return { id, action, requesterId };
  });
}
