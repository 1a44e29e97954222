import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type LinkBuilder, htmlWire, selfLink } from '../../rest/route';

/** Wire shapes of albums, their content and comments (spec 2.1-2.3), shared by the album, content and comment routes. */

export const RestAlbumContent = graphql(`
  fragment RestAlbumContent on AlbumContent @_unmask {
    id: databaseId albumId kind caption displayOrder createdAt albumCover contentUrl filesize md5Checksum thumbnailUrl
    thumbnailDimensions contentDimensions
  }
`);

export const RestAlbum = graphql(`
  fragment RestAlbum on Album @_unmask {
    id: databaseId title description settingComments settingMemberPost published photoCount videoCount audioCount coverImageUrl createdAt
  }
`);

export const RestAlbumComment = graphql(
  `fragment RestAlbumComment on AlbumComment @_unmask { id: databaseId albumId contentId authorId comment createdAt }`,
);

const bit = z.union([z.literal(0), z.literal(1)]);
const unixTime = (date: string) => Math.floor(Date.parse(date) / 1000);

export const albumContentWire = z
  .object({
    id: z.int(),
    album_id: z.int(),
    type: z.enum(['image', 'video', 'audio', 'file']),
    caption: htmlWire,
    display_order: z.int(),
    created: z.int().describe('Unix time'),
    album_cover: bit,
    converted_url: z.null().describe('Null: no converted version exists'),
    converted_filesize: z.null(),
    converted_md5_checksum: z.null(),
    content_url: z.url().describe('Serves the file, with the same credential'),
    content_filesize: z.string().describe('Size in bytes, as a string'),
    content_md5_checksum: z.string(),
    thumbnail_url: z.string().describe('Serves the thumbnail; empty for a file without one'),
    thumbnail_dimensions: z.string().describe('WIDTHxHEIGHT; empty without a thumbnail'),
    content_dimensions: z.string().describe('WIDTHxHEIGHT of an image; empty otherwise'),
  })
  .meta({ id: 'AlbumContent', description: 'An item of a media album (spec 2.2).' });

export function contentToWire(item: ResultOf<typeof RestAlbumContent>): z.input<typeof albumContentWire> {
  return {
    id: Number(item.id),
    album_id: Number(item.albumId),
    type: item.kind.toLowerCase() as 'image' | 'video' | 'audio' | 'file',
    caption: item.caption ?? '',
    display_order: item.displayOrder,
    created: unixTime(item.createdAt),
    album_cover: item.albumCover ? 1 : 0,
    converted_url: null,
    converted_filesize: null,
    converted_md5_checksum: null,
    content_url: item.contentUrl,
    content_filesize: String(item.filesize),
    content_md5_checksum: item.md5Checksum,
    thumbnail_url: item.thumbnailUrl ?? '',
    thumbnail_dimensions: item.thumbnailDimensions ?? '',
    content_dimensions: item.contentDimensions ?? '',
  };
}

export const albumWire = z
  .object({
    id: z.int(),
    title: z.string(),
    description: htmlWire,
    setting_comments: bit,
    setting_member_post: bit,
    published: bit,
    photo_count: z.int(),
    video_count: z.int(),
    audio_count: z.int(),
    cover_image_url: z.string().describe('Full URL of the cover image; empty without images'),
    created: z.int().describe('Unix time'),
    available: z.int().describe('1: albums have no completion rules, so every album is available'),
    completed: z.int().describe('0: albums have no completion rules'),
    completion_status: z.string().describe('Empty'),
    content: z.array(albumContentWire).optional().describe('The items, with `withcontent=1`'),
    links: selfLink,
  })
  .meta({
    id: 'Album',
    description: "A media album of a section or group (spec 2.1); links.self is the platform's /album/{id}.",
  });

type AlbumResult = ResultOf<typeof RestAlbum> & { contents?: ResultOf<typeof RestAlbumContent>[] };

export function albumToWire(album: AlbumResult, link: LinkBuilder): z.input<typeof albumWire> {
  return {
    id: Number(album.id),
    title: album.title,
    description: album.description ?? '',
    setting_comments: album.settingComments ? 1 : 0,
    setting_member_post: album.settingMemberPost ? 1 : 0,
    published: album.published ? 1 : 0,
    photo_count: album.photoCount,
    video_count: album.videoCount,
    audio_count: album.audioCount,
    cover_image_url: album.coverImageUrl ?? '',
    created: unixTime(album.createdAt),
    available: 1,
    completed: 0,
    completion_status: '',
    ...(album.contents ? { content: album.contents.map(contentToWire) } : {}),
    links: { self: link(`/album/${album.id}`) },
  };
}

/** View content answers in the album envelope: the item, with its album's cover image (spec 4.1). */
export const viewedContentWire = albumContentWire.extend({ cover_image_url: z.string() }).meta({
  id: 'ViewedAlbumContent',
  description: "An album item as view content answers it: the item with its album's cover_image_url.",
});

export const commentWire = z
  .object({
    id: z.int(),
    content_id: z.int(),
    uid: z.int().describe('Id of the user who wrote it'),
    comment: htmlWire,
    created: z.int().describe('Unix time'),
    status: z.int().describe('1: published'),
    links: selfLink,
  })
  .meta({ id: 'AlbumComment', description: 'A comment on an album item (spec 2.3).' });

export function commentToWire(
  comment: ResultOf<typeof RestAlbumComment>,
  link: LinkBuilder,
): z.input<typeof commentWire> {
  return {
    id: Number(comment.id),
    content_id: Number(comment.contentId),
    uid: Number(comment.authorId),
    comment: comment.comment,
    created: unixTime(comment.createdAt),
    status: 1,
    links: { self: link(`/album/${comment.albumId}/content/${comment.contentId}/comment/${comment.id}`) },
  };
}
