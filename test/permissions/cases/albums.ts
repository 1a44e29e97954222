import type { RealmRef } from '../../../src/auth/realms';
import { db } from '../../../src/db/database';
import {
  createAlbum,
  createAlbumItem,
  createGroup,
  createSection,
  createStoredUpload,
  unique,
} from '../../support/factories';
import { type Caller, type Fixture, outcome, permissionCases } from '../../support/permissions';

type Album = { id: number };
interface Shared {
  group: RealmRef;
  section: RealmRef;
  /** Published albums of the group: comments on, members may post; comments off, members may not post. */
  open: Album;
  closed: Album;
  unpublished: Album;
  sectionAlbum: Album;
  /** An image by the teacher in `open` (with a thumbnail), and one in the section's album. */
  item: { id: number };
  sectionItem: { id: number };
  /** A comment by the student on `item`. */
  comment: { id: number };
}
type F = Fixture<Shared>;

const id = (object: { id: number }) => String(object.id);
const input = (realm: RealmRef) => ({ type: realm.type, id: String(realm.id) });
const hasId = (items: { id: number | string }[], object: { id: number }) =>
  items.some((item) => String(item.id) === id(object));
/** A fresh stored upload of the caller's, attachable once. */
const callersFile = async (caller: Caller) => (await createStoredUpload(caller.user.id)).id;
const freshAlbum = (f: F) => createAlbum(f.group, { creatorId: f.teacher.id });
const freshItem = (f: F, ownerId = f.teacher.id) => createAlbumItem(f.open.id, ownerId);
const freshComment = async (f: F) =>
  db().albumComment.create({ data: { contentId: f.item.id, authorId: f.student.id, comment: 'mine' } });

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// The teacher administers the group and the section; the student is a member of both; the parent reads the group
// (a school group) but not the section (not enrolled: 403).
export default permissionCases<Shared>(
  'albums',
  async (world) => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const groupRealm: RealmRef = { type: 'GROUP', id: group.id };
    const sectionRealm: RealmRef = { type: 'SECTION', id: section.id };
    const open = await createAlbum(groupRealm, { settingMemberPost: true });
    const closed = await createAlbum(groupRealm, { settingComments: false });
    const unpublished = await createAlbum(groupRealm, { published: false });
    const sectionAlbum = await createAlbum(sectionRealm);
    const item = await createAlbumItem(open.id, world.teacher.id, { kind: 'IMAGE', thumbnail: Buffer.from('thumb') });
    const sectionItem = await createAlbumItem(sectionAlbum.id, world.teacher.id);
    const comment = await db().albumComment.create({
      data: { contentId: item.id, authorId: world.student.id, comment: 'hello' },
    });
    return {
      group: groupRealm,
      section: sectionRealm,
      open,
      closed,
      unpublished,
      sectionAlbum,
      item,
      sectionItem,
      comment,
    };
  },
  [
    {
      route: 'GET /[realm]/albums',
      name: "a school group's",
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group }),
      finds: (answer, f) => hasId(answer.album, f.open),
    },
    {
      route: 'GET /[realm]/albums',
      name: "a group's unpublished one",
      expect: 'h h h o h o o',
      request: (f) => ({ realm: f.group, query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.album, f.unpublished),
    },
    {
      route: 'GET /[realm]/albums',
      name: "a section's (closed to those not enrolled)",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.section }),
      finds: (answer, f) => hasId(answer.album, f.sectionAlbum),
    },
    {
      route: 'POST /[realm]/albums',
      name: 'in a group',
      expect: 'h h f o f o o',
      request: (f) => ({ realm: f.group, body: { title: unique('Album') } }),
    },
    {
      route: 'GET /[realm]/albums/{id}',
      name: 'published, in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group, params: { id: f.open.id } }),
    },
    {
      route: 'GET /[realm]/albums/{id}',
      name: 'unpublished',
      expect: 'h h h o h o o',
      request: (f) => ({ realm: f.group, params: { id: f.unpublished.id } }),
    },
    {
      route: 'GET /album/{id}',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ params: { id: f.sectionAlbum.id } }),
    },
    {
      route: 'PUT /[realm]/albums/{id}',
      name: 'in a group',
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: f.group,
        params: { id: f.open.id },
        body: { description: `by ${caller.person}` },
      }),
    },
    {
      route: 'PUT /album/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({ params: { id: f.sectionAlbum.id }, body: { description: `by ${caller.person}` } }),
    },
    {
      route: 'DELETE /[realm]/albums/{id}',
      name: 'in a group',
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: f.group, params: { id: (await freshAlbum(f)).id } }),
    },
    {
      route: 'DELETE /album/{id}',
      name: 'in a group',
      expect: 'h h f o f o o',
      request: async (f) => ({ params: { id: (await freshAlbum(f)).id } }),
    },

    {
      route: 'POST /[realm]/albums/{id}/content',
      name: 'members may post',
      expect: 'h h o o f o o',
      request: async (f, caller) => ({
        realm: f.group,
        params: { id: f.open.id },
        body: { 'file-attachment': { id: [await callersFile(caller)] } },
      }),
    },
    {
      route: 'POST /album/{id}/content',
      name: 'members may not post',
      expect: 'h h f o f o o',
      request: async (f, caller) => ({
        params: { id: f.closed.id },
        body: { 'file-attachment': { id: [await callersFile(caller)] } },
      }),
    },
    {
      route: 'GET /[realm]/albums/{id}/content/{contentId}',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group, params: { id: f.open.id, contentId: f.item.id } }),
    },
    {
      route: 'GET /album/{id}/content/{contentId}',
      name: 'in a section',
      expect: 'h h o o f o o',
      request: (f) => ({ params: { id: f.sectionAlbum.id, contentId: f.sectionItem.id } }),
    },
    {
      route: 'PUT /[realm]/albums/{id}/content/{contentId}',
      name: "the teacher's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: f.group,
        params: { id: f.open.id, contentId: f.item.id },
        body: { caption: `by ${caller.person}` },
      }),
    },
    {
      route: 'PUT /album/{id}/content/{contentId}',
      name: "the teacher's, in a section",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        params: { id: f.sectionAlbum.id, contentId: f.sectionItem.id },
        body: { caption: `by ${caller.person}` },
      }),
    },
    {
      route: 'DELETE /[realm]/albums/{id}/content/{contentId}',
      name: "the teacher's",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: f.group, params: { id: f.open.id, contentId: (await freshItem(f)).id } }),
    },
    {
      route: 'DELETE /album/{id}/content/{contentId}',
      name: "the student's",
      expect: 'h h o o f o o',
      request: async (f) => ({ params: { id: f.open.id, contentId: (await freshItem(f, f.student.id)).id } }),
    },
    {
      route: 'GET /album/{id}/content/{contentId}/file',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ params: { id: f.open.id, contentId: f.item.id } }),
    },
    {
      route: 'GET /album/{id}/content/{contentId}/thumbnail',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ params: { id: f.open.id, contentId: f.item.id } }),
    },
    {
      route: 'GET /album/{id}/content/{contentId}/file',
      name: 'in a section',
      expect: 'h h o o f o o',
      request: (f) => ({ params: { id: f.sectionAlbum.id, contentId: f.sectionItem.id } }),
    },

    {
      route: 'GET /[realm]/albums/{id}/content/{contentId}/comments',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group, params: { id: f.open.id, contentId: f.item.id } }),
      finds: (answer, f) => hasId(answer.comment, f.comment),
    },
    {
      route: 'GET /album/{id}/content/{contentId}/comments',
      name: 'in a section',
      expect: 'h h o o f o o',
      request: (f) => ({ params: { id: f.sectionAlbum.id, contentId: f.sectionItem.id } }),
    },
    {
      route: 'POST /[realm]/albums/{id}/content/{contentId}/comments',
      name: 'comments on',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group, params: { id: f.open.id, contentId: f.item.id }, body: { comment: 'Nice' } }),
    },
    {
      route: 'POST /album/{id}/content/{contentId}/comments',
      name: 'comments off',
      expect: 'h h f f f f f',
      request: async (f) => ({
        params: { id: f.closed.id, contentId: (await createAlbumItem(f.closed.id, f.teacher.id)).id },
        body: { comment: 'Nice' },
      }),
    },
    {
      route: 'GET /[realm]/albums/{id}/content/{contentId}/comments/{commentId}',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.group, params: { id: f.open.id, contentId: f.item.id, commentId: f.comment.id } }),
    },
    {
      route: 'GET /album/{id}/content/{contentId}/comment/{commentId}',
      name: 'in a group',
      expect: 'h h o o o o o',
      request: (f) => ({ params: { id: f.open.id, contentId: f.item.id, commentId: f.comment.id } }),
    },
    {
      route: 'DELETE /[realm]/albums/{id}/content/{contentId}/comments/{commentId}',
      name: "the student's",
      expect: 'h h o o f o o',
      request: async (f) => ({
        realm: f.group,
        params: { id: f.open.id, contentId: f.item.id, commentId: (await freshComment(f)).id },
      }),
    },
    {
      route: 'DELETE /album/{id}/content/{contentId}/comment/{commentId}',
      name: "the student's",
      expect: 'h h o o f o o',
      request: async (f) => ({
        params: { id: f.open.id, contentId: f.item.id, commentId: (await freshComment(f)).id },
      }),
    },

    {
      graphql: 'query($realm: RealmInput!) { albums(realm: $realm) { items { id: databaseId } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ realm: input(f.section) }),
      finds: (answer, f) => hasId(answer.items, f.sectionAlbum),
    },
    {
      graphql: 'query($realm: RealmInput!) { albumsConnection(realm: $realm) { edges { node { id: databaseId } } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ realm: input(f.section) }),
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.sectionAlbum,
        ),
    },
    {
      graphql: 'query($id: ID!) { album(id: $id) { id: databaseId } }',
      name: 'unpublished',
      expect: 'h h h o h o o',
      variables: (f) => ({ id: id(f.unpublished) }),
    },
    {
      graphql: 'query($albumId: ID!, $id: ID!) { albumContent(albumId: $albumId, id: $id) { id: databaseId } }',
      name: 'in a group',
      expect: 'h h o o o o o',
      variables: (f) => ({ albumId: id(f.open), id: id(f.item) }),
    },
    {
      graphql:
        'query($albumId: ID!, $contentId: ID!) { albumComments(albumId: $albumId, contentId: $contentId) { items { id: databaseId } } }',
      name: 'in a section',
      expect: 'h h o o f o o',
      variables: (f) => ({ albumId: id(f.sectionAlbum), contentId: id(f.sectionItem) }),
    },
    {
      graphql:
        'query($albumId: ID!, $contentId: ID!) { albumCommentsConnection(albumId: $albumId, contentId: $contentId) { edges { node { id: databaseId } } } }',
      name: 'in a section',
      expect: 'h h o o f o o',
      variables: (f) => ({ albumId: id(f.sectionAlbum), contentId: id(f.sectionItem) }),
    },
    {
      graphql:
        'query($albumId: ID!, $contentId: ID!, $id: ID!) { albumComment(albumId: $albumId, contentId: $contentId, id: $id) { id: databaseId } }',
      name: 'in a group',
      expect: 'h h o o o o o',
      variables: (f) => ({ albumId: id(f.open), contentId: id(f.item), id: id(f.comment) }),
    },
    {
      graphql: `mutation($input: CreateAlbumInput!) { createAlbum(input: $input) { ${outcome} } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { realm: input(f.section), title: unique('Album') } }),
    },
    {
      graphql: `mutation($input: UpdateAlbumInput!) { updateAlbum(input: $input) { ${outcome} } }`,
      name: 'in a group',
      expect: 'h h f o f o o',
      variables: (f, caller) => ({ input: { id: id(f.open), description: caller.person } }),
    },
    {
      graphql: `mutation($input: DeleteAlbumInput!) { deleteAlbum(input: $input) { ${outcome} } }`,
      name: 'in a group',
      expect: 'h h f o f o o',
      variables: async (f) => ({ input: { id: id(await freshAlbum(f)) } }),
    },
    {
      graphql: `mutation($input: CreateAlbumContentInput!) { createAlbumContent(input: $input) { ${outcome} } }`,
      name: 'members may post',
      expect: 'h h o o f o o',
      variables: async (f, caller) => ({
        input: { albumId: id(f.open), files: [String(await callersFile(caller))] },
      }),
    },
    {
      graphql: `mutation($input: UpdateAlbumContentInput!) { updateAlbumContent(input: $input) { ${outcome} } }`,
      name: "the teacher's",
      expect: 'h h f o f o o',
      variables: (f, caller) => ({ input: { albumId: id(f.open), id: id(f.item), caption: caller.person } }),
    },
    {
      graphql: `mutation($input: DeleteAlbumContentInput!) { deleteAlbumContent(input: $input) { ${outcome} } }`,
      name: "the teacher's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ input: { albumId: id(f.open), id: id(await freshItem(f)) } }),
    },
    {
      graphql: `mutation($input: CreateAlbumCommentInput!) { createAlbumComment(input: $input) { ${outcome} } }`,
      name: 'comments on',
      expect: 'h h o o o o o',
      variables: (f) => ({ input: { albumId: id(f.open), contentId: id(f.item), comment: 'Nice' } }),
    },
    {
      graphql: `mutation($input: DeleteAlbumCommentInput!) { deleteAlbumComment(input: $input) { ${outcome} } }`,
      name: "the student's",
      expect: 'h h o o f o o',
      variables: async (f) => ({
        input: { albumId: id(f.open), contentId: id(f.item), id: id(await freshComment(f)) },
      }),
    },
  ],
);
