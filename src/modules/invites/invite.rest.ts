import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import { type PathWords, type RestRequest, listRoute, updateRoute } from '../../rest/route';
import { WireInputError, oneOf, text, wireBody } from '../../rest/wire-body';

const RestInvite = graphql(`
  fragment RestInvite on Invite @_unmask {
    id: databaseId
    createdAt
    group { id: databaseId title pictureUrl school { id: databaseId title } }
    section { id: databaseId title course { school { id: databaseId title } } }
  }
`);

/**
 * Group invites carry the group's id and name, course invites the section's id and name. Ids and `created` are
 * integers, as the platform's example shows them (its field table, like spec 2.14, types `group_id`, `school_id` and
 * `created` as strings); `section_id`, which the example does not show, is an integer as the table types it.
 */
export const inviteWire = z
  .object({
    id: z.int(),
    group_id: z.int().optional(),
    group_name: z.string().optional(),
    section_id: z.int().optional(),
    section_name: z.string().optional(),
    picture_url: z.string(),
    school_name: z.string(),
    school_id: z.int(),
    created: z.int().describe('Unix time'),
  })
  .meta({ id: 'Invite', description: 'A pending invite to a group or a course section (spec 2.14).' });

const unixTime = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const schoolOf = (school: { id: string; title: string }) => ({
  school_name: school.title,
  school_id: Number(school.id),
});

function inviteToWire(invite: ResultOf<typeof RestInvite>): z.input<typeof inviteWire> {
  // Members in the platform's order: the realm's, then the invite's own.
  const own = { id: Number(invite.id), created: unixTime(invite.createdAt) };
  if (invite.group) {
    const { group } = invite;
    return {
      group_id: Number(group.id),
      group_name: group.title,
      picture_url: group.pictureUrl ?? '',
      ...schoolOf(group.school),
      ...own,
    };
  }
  const section = invite.section!;
  return {
    section_id: Number(section.id),
    section_name: section.title,
    picture_url: '',
    ...schoolOf(section.course.school),
    ...own,
  };
}

// The platform's own example lists `/users/{id}/invites/group`; the plural is the realm prefix. Both are read.
const realmOfSegment = { groups: 'GROUP', group: 'GROUP', sections: 'SECTION', section: 'SECTION' } as const;
const words: PathWords = {
  realm: { values: Object.keys(realmOfSegment), description: 'Invites to groups, or to course sections.' },
};
const realmOf = (request: RestRequest) => realmOfSegment[request.params.realm as keyof typeof realmOfSegment];

const action = oneOf({ accept: 'ACCEPT', deny: 'DENY' });

export const inviteRoutes = [
  listRoute({
    path: '/users/{userId}/invites/{realm:word}',
    words,
    summary: "List a user's pending invites to groups or course sections",
    item: 'invite',
    filters: wireBody({ created_offset: text('createdAfterText') }),
    wire: inviteWire,
    document: graphql(
      `query($userId: ID!, $realm: InviteRealm!, $createdAfterText: String, $start: Int!, $limit: Int!) {
        invites(userId: $userId, realm: $realm, createdAfterText: $createdAfterText, start: $start, limit: $limit) {
          total items { ...RestInvite }
        }
      }`,
      [RestInvite],
    ),
    variables: (request) => ({
      userId: request.params.userId,
      realm: realmOf(request),
      createdAfterText: request.filters.createdAfterText || null,
    }),
    shape: inviteToWire,
  }),
  updateRoute({
    path: '/users/{userId}/invites/{realm:word}/{id}',
    words,
    summary: 'Accept or deny a pending invite (no body returned)',
    // The platform documents `invite.invite_action` (XML: `<request><invite><invite_action>`); clients also send it flat.
    body: wireBody({ invite: { invite_action: action('action') }, invite_action: action('flatAction') }),
    document: graphql(
      `mutation($input: AnswerInviteInput!) { answerInvite(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => {
      const chosen = request.input.action ?? request.input.flatAction;
      if (!chosen) throw new WireInputError('invite/invite_action', 'is required: accept or deny');
      const { userId, id } = request.params;
      return { input: { userId, realm: realmOf(request), id, action: chosen } };
    },
  }),
];
