import { type LinkBuilder, type RestRoute, viewRoute } from '../../rest/route';

const userFields = /* GraphQL */ `
  fragment RestUser on User {
    id username schoolUid nameFirst nameLast nameDisplay email pictureUrl school { id } building { id }
  }
`;

interface RestUser {
  id: string;
  username: string;
  schoolUid: string | null;
  nameFirst: string;
  nameLast: string;
  nameDisplay: string;
  email: string | null;
  pictureUrl: string;
  school: { id: string };
  building: { id: string } | null;
}

/** User ids are integers on the wire; `primary_email` appears only for the user and their administrators. */
function userToWire(user: RestUser, link: LinkBuilder) {
  return {
    id: Number(user.id),
    school_id: Number(user.school.id),
    building_id: user.building ? Number(user.building.id) : 0,
    school_uid: user.schoolUid ?? '',
    name_first: user.nameFirst,
    name_last: user.nameLast,
    name_display: user.nameDisplay,
    username: user.username,
    ...(user.email !== null ? { primary_email: user.email } : {}),
    picture_url: user.pictureUrl,
    links: { self: link(`/users/${user.id}`) },
  };
}

export const userRoutes: RestRoute[] = [
  viewRoute<RestUser>({
    path: '/users/{id}',
    document: `query($id: ID!) { user(id: $id) { ...RestUser } } ${userFields}`,
    variables: ({ params }) => ({ id: params.id }),
    shape: userToWire,
  }),
  {
    // Clients call this first to learn who their key acts as; the platform answers with a redirect to the user.
    method: 'GET',
    path: '/users/me',
    document: 'query { viewer { id } }',
    variables: () => ({}),
    respond: (result, _request, link) => ({
      status: 303,
      headers: { location: link(`/users/${(result as { id: string }).id}`) },
    }),
  },
];
