import { encodeGlobalId } from '../../core/global-id';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { pageOf } from '../../graphql/paging';

export const InviteRealmEnum = builder.enumType('InviteRealm', {
  description: 'What an invite is to: a group or a course section.',
  values: {
    GROUP: { description: 'A group (`/v1/users/{id}/invites/groups`).' },
    SECTION: { description: 'A course section (`/v1/users/{id}/invites/sections`).' },
  },
});

export const RequestActionEnum = builder.enumType('RequestAction', {
  description: 'An answer to an invite or a friend request.',
  values: {
    ACCEPT: { description: 'Join the group or section; become friends.' },
    DENY: { description: 'Decline; nothing else changes.' },
  },
});

builder.prismaNode('Invite', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Invite', ['createdAt']),
    realm: t.field({
      type: InviteRealmEnum,
      description: 'Whether the invite is to a group or a course section.',
      select: { groupId: true },
      resolve: (invite) => (invite.groupId === null ? 'SECTION' : 'GROUP'),
    }),
    user: t.relation('user'),
    inviter: t.relation('inviter', { nullable: true }),
    group: t.relation('group', { nullable: true }),
    section: t.relation('section', { nullable: true }),
  }),
});

export const InvitePage = pageOf('Invite', 'A page of pending invites.');

/** What answering an invite did; the invite itself is gone. */
export const AnsweredInviteType = builder
  .objectRef<{ id: number; action: 'ACCEPT' | 'DENY'; realm: 'GROUP' | 'SECTION'; realmId: number }>('AnsweredInvite')
  .implement({
    description: 'An invite that was accepted (the user joined) or denied. Answered invites are no longer listed.',
    fields: (t) => ({
      id: t.id({ description: 'Global id of the invite.', resolve: (invite) => encodeGlobalId('Invite', invite.id) }),
      action: t.expose('action', { type: RequestActionEnum, description: 'The answer.' }),
      realm: t.expose('realm', {
        type: InviteRealmEnum,
        description: 'Whether it was to a group or a course section.',
      }),
      realmId: t.id({
        description: 'Global id of the group or section.',
        resolve: (invite) => encodeGlobalId(invite.realm === 'GROUP' ? 'Group' : 'Section', invite.realmId),
      }),
    }),
  });
