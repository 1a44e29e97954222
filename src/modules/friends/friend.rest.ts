import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import { listRoute, updateRoute } from '../../rest/route';
import { WireInputError, oneOf, text, wireBody } from '../../rest/wire-body';

const RestFriendRequest = graphql(`
  fragment RestFriendRequest on FriendRequest @_unmask {
    id: databaseId
    createdAt
    requester { id: databaseId nameDisplay pictureUrl school { id: databaseId title } }
  }
`);

/**
 * Every member is a string, as the platform's example and spec 4.11 show them (its field table, like spec 2.15, types
 * `requester_id` as an integer); the requester's id is spelled `requester_id`, as in the example.
 */
export const friendRequestWire = z
  .object({
    id: z.string(),
    requester_id: z.string(),
    created: z.string().describe('Unix time, as a string'),
    requester_name: z.string(),
    picture_url: z.string(),
    school_name: z.string(),
    school_id: z.string(),
  })
  .meta({ id: 'FriendRequest', description: 'A pending friend request (spec 2.15).' });

function requestToWire(request: ResultOf<typeof RestFriendRequest>): z.input<typeof friendRequestWire> {
  const { requester } = request;
  return {
    id: request.id,
    requester_id: requester.id,
    created: String(Math.floor(Date.parse(request.createdAt) / 1000)),
    requester_name: requester.nameDisplay,
    picture_url: requester.pictureUrl ?? '',
    school_name: requester.school.title,
    school_id: requester.school.id,
  };
}

const action = oneOf({ accept: 'ACCEPT', deny: 'DENY' });

export const friendRequestRoutes = [
  listRoute({
    path: '/users/{userId}/requests/friends',
    summary: 'List the friend requests a user has not answered',
    item: 'request',
    filters: wireBody({ created_offset: text('createdAfterText') }),
    wire: friendRequestWire,
    document: graphql(
      `query($userId: ID!, $createdAfterText: String, $start: Int!, $limit: Int!) {
        friendRequests(userId: $userId, createdAfterText: $createdAfterText, start: $start, limit: $limit) {
          total items { ...RestFriendRequest }
        }
      }`,
      [RestFriendRequest],
    ),
    variables: (request) => ({
      userId: request.params.userId,
      createdAfterText: request.filters.createdAfterText || null,
    }),
    shape: requestToWire,
  }),
  updateRoute({
    path: '/users/{userId}/requests/friends/{id}',
    summary: 'Accept or deny a friend request (no body returned)',
    // Documented flat (`request_action`); the nested form mirrors the invite's `invite.invite_action`.
    body: wireBody({ request_action: action('action'), request: { request_action: action('nestedAction') } }),
    document: graphql(
      `mutation($input: AnswerFriendRequestInput!) {
        answerFriendRequest(input: $input) { userErrors { ...UserErrors } }
      }`,
      [UserErrors],
    ),
    variables: (request) => {
      const chosen = request.input.action ?? request.input.nestedAction;
      if (!chosen) throw new WireInputError('request_action', 'is required: accept or deny');
      return { input: { userId: request.params.userId, id: request.params.id, action: chosen } };
    },
  }),
];
