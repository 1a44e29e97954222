import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, exposeLongText, nodeId } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';
import { keysetRelatedConnection } from '../../graphql/connections';
import { realmField, userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import { writePendingThumbnail } from '../uploads/upload.service';
import { htmlFields } from '../../core/html';
import {
  FileKindEnum,
  FileVariantEnum,
  StoredFileType,
  storedFileOf,
  storedFileSelection,
} from '../uploads/upload.type';

/** Where an item's bytes and thumbnail are served, to callers who may see its album. */
export const contentFileUrl = (origin: string, albumId: number, contentId: number) =>
  `${origin}/v1/album/${albumId}/content/${contentId}/file`;
export const contentThumbnailUrl = (origin: string, albumId: number, contentId: number) =>
  `${origin}/v1/album/${albumId}/content/${contentId}/thumbnail`;

/** The cover: the image flagged `albumCover`, else the first image in display order. */
export const coverSelection = {
  where: { upload: { kind: 'IMAGE' as const } },
  orderBy: [{ albumCover: 'desc' as const }, { displayOrder: 'asc' as const }, { id: 'asc' as const }],
  take: 1,
  select: { id: true },
};

/** Display order: `displayOrder`, then the order items were added. */
export const contentOrder = [{ displayOrder: 'asc' as const }, { id: 'asc' as const }];

const dimensions = (width: number | null, height: number | null) => (width && height ? `${width}x${height}` : null);

export const AlbumType = builder.prismaNode('Album', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Album', [
      'title',
      'settingComments',
      'settingMemberPost',
      'published',
      'realmId',
      'creatorId',
      'createdAt',
      'updatedAt',
    ]),
    ...exposeLongText(t, 'Album', 'description', htmlFields['Album.description'].maxLength),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
    realm: t.field(realmField),
    creator: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who made the album (`creatorId`); null when they are gone or hidden from the viewer.',
      select: { creatorId: true },
      resolve: (album, _args, context) => userReference(album.creatorId, context),
    }),
    photoCount: t.relationCount('contents', { where: { upload: { kind: 'IMAGE' } }, description: 'Number of images.' }),
    videoCount: t.relationCount('contents', {
      where: { upload: { kind: 'VIDEO' } },
      description: 'Number of video files.',
    }),
    audioCount: t.relationCount('contents', {
      where: { upload: { kind: 'AUDIO' } },
      description: 'Number of audio files.',
    }),
    coverImageUrl: t.string({
      nullable: true,
      description:
        'Full URL of the cover image (the item flagged albumCover, else the first image); null without images.',
      select: { contents: coverSelection },
      resolve: (album, _args, { origin }) => {
        const [cover] = album.contents;
        return cover ? contentFileUrl(origin, album.id, cover.id) : null;
      },
    }),
    contents: t.relation('contents', { query: { orderBy: contentOrder }, description: 'The items, in display order.' }),
    contentsConnection: keysetRelatedConnection(t, 'contents', {
      type: AlbumContentType,
      description: 'The items `contents` lists, as a Relay connection in the same (display) order.',
      order: contentOrder,
    }),
  }),
});

const fileSelection = {
  upload: {
    select: {
      kind: true,
      filename: true,
      filesize: true,
      md5Checksum: true,
      mimeType: true,
      width: true,
      height: true,
      thumbnailKey: true,
      thumbnailWidth: true,
      thumbnailHeight: true,
    },
  },
};

export const AlbumContentType = builder.prismaNode('AlbumContent', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'AlbumContent', ['albumId', 'displayOrder', 'albumCover', 'creatorId', 'createdAt']),
    ...exposeLongText(t, 'AlbumContent', 'caption', htmlFields['AlbumContent.caption'].maxLength),
    kind: t.field({
      type: FileKindEnum,
      description: 'What the file is.',
      select: fileSelection,
      resolve: (item) => item.upload.kind ?? 'FILE',
    }),
    filename: t.string({
      description: "The file's name as uploaded.",
      select: fileSelection,
      resolve: (item) => item.upload.filename,
    }),
    mimeType: t.string({
      description: 'Media type of the file, read from its bytes.',
      select: fileSelection,
      resolve: (item) => item.upload.mimeType ?? 'application/octet-stream',
    }),
    filesize: t.int({
      description: 'Size of the file in bytes.',
      select: fileSelection,
      resolve: (item) => item.upload.filesize,
    }),
    md5Checksum: t.string({
      description: 'MD5 checksum of the file.',
      select: fileSelection,
      resolve: (item) => item.upload.md5Checksum,
    }),
    contentDimensions: t.string({
      nullable: true,
      description: 'WIDTHxHEIGHT of an image; null for other files.',
      select: fileSelection,
      resolve: (item) => dimensions(item.upload.width, item.upload.height),
    }),
    thumbnailDimensions: t.string({
      nullable: true,
      description: 'WIDTHxHEIGHT of the thumbnail; null without one.',
      select: fileSelection,
      resolve: (item) => dimensions(item.upload.thumbnailWidth, item.upload.thumbnailHeight),
    }),
    album: t.relation('album', { description: 'The album the item is in.' }),
    creator: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who added the item (`creatorId`); null when they are gone or hidden from the viewer.',
      select: { creatorId: true },
      resolve: (item, _args, context) => userReference(item.creatorId, context),
    }),
    storedFile: t.field({
      type: StoredFileType,
      nullable: true,
      description:
        "Where the item's bytes (or its thumbnail) are kept; null for a thumbnail the item does not have. A thumbnail the " +
        'file storage refused when the image was stored is written first (INSUFFICIENT_STORAGE while it still refuses).',
      args: {
        variant: t.arg({ type: FileVariantEnum, required: true, description: 'The original, or the thumbnail.' }),
      },
      select: { upload: { select: storedFileSelection } },
      resolve: async (item, args) => {
        // A thumbnail the storage refused when the image was stored is written on its first read (or by the sweep).
        if (args.variant === 'THUMBNAIL' && item.upload.thumbnailPending) await writePendingThumbnail(item.upload);
        return storedFileOf(item.upload, args.variant);
      },
    }),
    contentUrl: t.string({
      description: 'URL serving the file (with the same credential).',
      resolve: (item, _args, { origin }) => contentFileUrl(origin, item.albumId, item.id),
    }),
    thumbnailUrl: t.string({
      nullable: true,
      description: 'URL serving the thumbnail (with the same credential); null for a file without one.',
      select: fileSelection,
      resolve: (item, _args, { origin }) =>
        item.upload.thumbnailKey ? contentThumbnailUrl(origin, item.albumId, item.id) : null,
    }),
  }),
});

export const AlbumCommentType = builder.prismaNode('AlbumComment', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'AlbumComment', ['contentId', 'authorId', 'createdAt']),
    ...exposeLongText(t, 'AlbumComment', 'comment', htmlFields['AlbumComment.comment'].maxLength),
    author: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who wrote the comment (`authorId`); null when they are hidden from the viewer.',
      select: { authorId: true },
      resolve: (comment, _args, context) => userReference(comment.authorId, context),
    }),
    albumId: t.id({
      description:
        'The album of the item commented on. A database id, as /v1 has it; `album` is the object, with its global id.',
      select: { content: { select: { albumId: true } } },
      resolve: (comment) => comment.content.albumId,
    }),
    content: t.relation('content', { description: 'The album item commented on (`contentId`).' }),
    album: t.field({
      type: AlbumType,
      description: 'The album of the item commented on (`albumId`).',
      select: (_args, _context, nestedSelection) => ({ content: { select: { album: nestedSelection(true) } } }),
      resolve: (comment) => comment.content.album,
    }),
  }),
});
