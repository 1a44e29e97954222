import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type LinkBuilder, redirectRoute, selfLink, viewRoute } from '../../rest/route';

const RestUser = graphql(`
  fragment RestUser on User @_unmask {
    id: databaseId username schoolUid nameFirst nameLast nameDisplay email pictureUrl school { id: databaseId } building { id: databaseId }
  }
`);

/** User ids are integers on the wire, under `id` and `uid` alike (clients read `uid`). */
export const userWire = z
  .object({
    id: z.int(),
    uid: z.int(),
    school_id: z.int(),
    building_id: z.int().describe('0 when the user belongs to no building.'),
    school_uid: z.string(),
    name_first: z.string(),
    name_last: z.string(),
    name_display: z.string(),
    username: z.string(),
    primary_email: z.string().optional().describe('Only for the user and their administrators.'),
    picture_url: z.string(),
    links: selfLink,
  })
  .meta({ id: 'User', description: 'A user (administrator, teacher, student or parent).' });

function userToWire(user: ResultOf<typeof RestUser>, link: LinkBuilder): z.input<typeof userWire> {
  return {
    id: Number(user.id),
    uid: Number(user.id),
    school_id: Number(user.school.id),
    building_id: user.building ? Number(user.building.id) : 0,
    school_uid: user.schoolUid ?? '',
    name_first: user.nameFirst,
    name_last: user.nameLast,
    name_display: user.nameDisplay,
    username: user.username,
    ...(user.email !== null ? { primary_email: user.email } : {}),
    picture_url: user.pictureUrl ?? '',
    links: { self: link(`/users/${user.id}`) },
  };
}

export const userRoutes = [
  viewRoute({
    path: '/users/{id}',
    summary: 'View a user',
    wire: userWire,
    document: graphql(`query($id: ID!) { user(id: $id) { ...RestUser } }`, [RestUser]),
    variables: ({ params }) => ({ id: params.id }),
    shape: userToWire,
  }),
  // Clients call this first to learn who their key acts as; the platform answers with a redirect to the user.
  redirectRoute({
    path: '/users/me',
    summary: 'Redirect (303) to the user the credentials act as',
    document: graphql(`query { viewer { id: databaseId } }`),
    variables: () => ({}),
    location: (viewer) => `/users/${viewer.id}`,
  }),
];
