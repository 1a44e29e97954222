import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { findIfVisible } from '../../graphql/visible';
import type { RealmType } from '../../generated/prisma/enums';
import { albumReadable, readableAlbumsWhere } from './album.service';
import {
  type RealmArgument,
  connectionOf,
  connectionOptions,
  keysetWindow,
  hiddenUnless,
} from '../../graphql/connections';
import { registerNodeVisibility, visibleByEach, visibleThrough } from '../../graphql/nodes';

/** What names the item whose comments `albumComments` and `albumCommentsConnection` list. */
type CommentListArguments = { albumId: string | number; contentId: string | number; realm?: RealmArgument | null };

const AlbumPage = pageOf('Album', 'A page of media albums.');
const AlbumCommentPage = pageOf('AlbumComment', 'A page of comments on an album item.');

/** The realm a legacy `/album/{id}` request leaves out; when given, the album must be in it. */
export const realmOf = (realm: { type: RealmType; id: string | number } | null | undefined) =>
  realm ? realmRef(realm) : null;

/** Whether the item exists in an album the viewer sees. */
async function contentVisible(viewer: Viewer, albumId: number, id: number, realm: RealmRef | null) {
  if (!(await albumReadable(viewer, albumId, realm))) return false;
  return (await findByStorableId(id, (id) => db().albumContent.count({ where: { id, albumId } }))) === 1;
}

builder.queryFields((t) => ({
  album: t.withAuth({ authenticated: true }).prismaField({
    type: 'Album',
    nullable: true,
    description:
      "A media album; null when it does not exist, is not in the given realm, or is hidden from the viewer (unpublished albums are seen by their realm's administrators only).",
    args: {
      id: t.arg.id({ required: true, description: 'Album id.' }),
      realm: t.arg({
        type: RealmInput,
        description: 'The section or group the album must be in (legacy clients leave it out).',
      }),
    },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id, 'Album');
      return findIfVisible(query, albumReadable(viewer, id, realmOf(args.realm)), (selection) =>
        db().album.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
  albums: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('albumsConnection'),
    type: AlbumPage,
    nullable: true,
    description:
      'The media albums of a section or group, oldest first; null when the realm does not exist or is hidden.',
    args: {
      realm: t.arg({
        type: RealmInput,
        required: true,
        description: 'The realm (district, school, user, section or group) whose albums to list.',
      }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const where = await readableAlbumsWhere(viewer, realmRef(args.realm));
      if (!where) return null;
      return paged(args, {
        findMany: (query) => db().album.findMany({ ...query, where }),
        count: () => db().album.count({ where }),
      });
    },
  }),
  albumsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Album',
      ...connectionOptions,
      ...hiddenUnless(
        async (args: { realm: RealmArgument }, { viewer }) =>
          (await readableAlbumsWhere(viewer, realmRef(args.realm))) !== null,
      ),
      description:
        'The albums `albums` lists, as a Relay connection in the same order; null when the realm does not exist or is hidden.',
      args: {
        realm: t.arg({
          type: RealmInput,
          required: true,
          description: 'The realm (district, school, user, section or group) whose albums to list.',
        }),
      },
      resolve: async (query, _root, args, { viewer }) =>
        db().album.findMany(keysetWindow(query, (await readableAlbumsWhere(viewer, realmRef(args.realm)))!)),
      totalCount: async (_root, args, { viewer }) =>
        db().album.count({ where: (await readableAlbumsWhere(viewer, realmRef(args.realm)))! }),
    },
    connectionOf('Album'),
  ),
  albumContent: t.withAuth({ authenticated: true }).prismaField({
    type: 'AlbumContent',
    nullable: true,
    description: 'An item of a media album; null when it or its album does not exist or is hidden from the viewer.',
    args: {
      albumId: t.arg.id({ required: true, description: 'Album id.' }),
      id: t.arg.id({ required: true, description: 'Content id.' }),
      realm: t.arg({
        type: RealmInput,
        description: 'The section or group the album must be in (legacy clients leave it out).',
      }),
    },
    resolve: (query, _root, args, { viewer }) => {
      const [albumId, id] = [parseId(args.albumId, 'Album', 'albumId'), parseId(args.id, 'AlbumContent')];
      return findIfVisible(query, contentVisible(viewer, albumId, id, realmOf(args.realm)), (selection) =>
        db().albumContent.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
  albumComments: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('albumCommentsConnection'),
    type: AlbumCommentPage,
    nullable: true,
    description:
      'The comments on an album item, oldest first; null when the item or its album does not exist or is hidden.',
    args: {
      albumId: t.arg.id({ required: true, description: 'Album id.' }),
      contentId: t.arg.id({ required: true, description: 'Content id.' }),
      realm: t.arg({
        type: RealmInput,
        description: 'The section or group the album must be in (legacy clients leave it out).',
      }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const [albumId, contentId] = [
        parseId(args.albumId, 'Album', 'albumId'),
        parseId(args.contentId, 'AlbumContent', 'contentId'),
      ];
      if (!(await contentVisible(viewer, albumId, contentId, realmOf(args.realm)))) return null;
      const where = { contentId };
      return paged(args, {
        findMany: (query) => db().albumComment.findMany({ ...query, where }),
        count: () => db().albumComment.count({ where }),
      });
    },
  }),
  albumCommentsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'AlbumComment',
      ...connectionOptions,
      ...hiddenUnless((args: CommentListArguments, { viewer }) =>
        contentVisible(
          viewer,
          parseId(args.albumId, 'Album', 'albumId'),
          parseId(args.contentId, 'AlbumContent', 'contentId'),
          realmOf(args.realm),
        ),
      ),
      description:
        'The comments `albumComments` lists, as a Relay connection in the same order; null when the item or its album does not exist or is hidden.',
      args: {
        albumId: t.arg.id({ required: true, description: 'Album id.' }),
        contentId: t.arg.id({ required: true, description: 'Content id.' }),
        realm: t.arg({
          type: RealmInput,
          description: 'The section or group the album must be in (legacy clients leave it out).',
        }),
      },
      resolve: (query, _root, args) =>
        db().albumComment.findMany(
          keysetWindow(query, { contentId: parseId(args.contentId, 'AlbumContent', 'contentId') }),
        ),
      totalCount: (_root, args) =>
        db().albumComment.count({ where: { contentId: parseId(args.contentId, 'AlbumContent', 'contentId') } }),
    },
    connectionOf('AlbumComment'),
  ),
  albumComment: t.withAuth({ authenticated: true }).prismaField({
    type: 'AlbumComment',
    nullable: true,
    description: 'A comment on an album item; null when it, the item or the album does not exist or is hidden.',
    args: {
      albumId: t.arg.id({ required: true, description: 'Album id.' }),
      contentId: t.arg.id({ required: true, description: 'Content id.' }),
      id: t.arg.id({ required: true, description: 'Comment id.' }),
      realm: t.arg({
        type: RealmInput,
        description: 'The section or group the album must be in (legacy clients leave it out).',
      }),
    },
    resolve: (query, _root, args, { viewer }) => {
      const [albumId, contentId, id] = [
        parseId(args.albumId, 'Album', 'albumId'),
        parseId(args.contentId, 'AlbumContent', 'contentId'),
        parseId(args.id, 'AlbumComment'),
      ];
      return findIfVisible(query, contentVisible(viewer, albumId, contentId, realmOf(args.realm)), (selection) =>
        findByStorableId(id, (id) => db().albumComment.findFirst({ ...selection, where: { id, contentId } })),
      );
    },
  }),
}));

// `node` shows what `album`, `albumContent` and `albumComment` show when no realm is given: what the album's rule allows.
registerNodeVisibility(
  'Album',
  visibleByEach((viewer, id) => albumReadable(viewer, id, null)),
);
registerNodeVisibility(
  'AlbumContent',
  visibleThrough(
    'AlbumContent',
    { select: { albumId: true }, of: (row: { id: number; albumId: number }) => row.albumId },
    (viewer, albumId) => albumReadable(viewer, albumId, null),
  ),
);
registerNodeVisibility(
  'AlbumComment',
  visibleThrough(
    'AlbumComment',
    {
      select: { content: { select: { albumId: true } } },
      of: (row: { id: number; content: { albumId: number } }) => row.content.albumId,
    },
    (viewer, albumId) => albumReadable(viewer, albumId, null),
  ),
);
