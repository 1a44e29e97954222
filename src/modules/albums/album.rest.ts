import { z } from 'zod';
import { graphql } from '../../graphql/typed-document';
import {
  type RestRequest,
  alsoAt,
  createRoute,
  deleteRoute,
  fileRoute,
  listRoute,
  updateRoute,
  viewInListRoute,
  viewRoute,
} from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import { type WireField, fileAttachmentIds, flag, integer, text, wireBody } from '../../rest/wire-body';
import {
  RestAlbum,
  RestAlbumComment,
  RestAlbumContent,
  albumContentWire,
  albumToWire,
  albumWire,
  commentToWire,
  commentWire,
  contentToWire,
  viewedContentWire,
} from './album.wire';

const realms = ['SECTION', 'GROUP'] as const;
/** The realm of a `[realm]` path; null on a legacy `/album/...` path, whose album names its own. */
const realmOf = (request: RestRequest) => request.realm;

const albumMembers = {
  title: text('title'),
  description: text('description'),
  setting_comments: flag('settingComments'),
  setting_member_post: flag('settingMemberPost'),
  published: flag('published'),
};

const extra = z
  .object({
    fid: integer('fid').schema,
    caption: text('caption').schema.optional(),
    display_order: integer('displayOrder').schema.optional(),
    album_cover: flag('albumCover').schema.optional(),
  })
  .transform((value) => ({
    fid: value.fid,
    caption: value.caption,
    displayOrder: value.display_order,
    albumCover: value.album_cover,
  }));
const extras: WireField = { schema: z.array(extra), input: 'extras', list: true };

export const albumRoutes = [
  listRoute({
    path: '/[realm]/albums',
    realms,
    summary: "List the media albums of a section or group; withcontent=1 includes each album's content",
    item: 'album',
    wire: albumWire,
    filters: wireBody({ withcontent: flag('withContent') }),
    document: graphql(
      `query($realm: RealmInput!, $start: Int!, $limit: Int!, $withContent: Boolean!) {
        albums(realm: $realm, start: $start, limit: $limit) {
          total items { ...RestAlbum contents @include(if: $withContent) { ...RestAlbumContent } }
        }
      }`,
      [RestAlbum, RestAlbumContent],
    ),
    variables: (request) => ({ realm: request.realm!, withContent: request.filters.withContent === true }),
    shape: albumToWire,
  }),
  createRoute({
    path: '/[realm]/albums',
    realms,
    summary: 'Create a media album in a section or group',
    body: wireBody(albumMembers, ['title']),
    wire: albumWire,
    document: graphql(
      `mutation($input: CreateAlbumInput!) {
        createAlbum(input: $input) { userErrors { ...UserErrors } album { ...RestAlbum } }
      }`,
      [UserErrors, RestAlbum],
    ),
    variables: (request) => ({ input: { ...request.input, realm: request.realm! } }),
    payload: 'album',
    shape: albumToWire,
  }),
  ...alsoAt(
    '/album/{id}',
    viewInListRoute({
      path: '/[realm]/albums/{id}',
      realms,
      summary: 'View a media album, with its content, in the list envelope',
      item: 'album',
      wire: albumWire,
      document: graphql(
        `query($id: ID!, $realm: RealmInput) { album(id: $id, realm: $realm) { ...RestAlbum contents { ...RestAlbumContent } } }`,
        [RestAlbum, RestAlbumContent],
      ),
      variables: (request) => ({ id: request.params.id, realm: realmOf(request) }),
      shape: albumToWire,
    }),
    updateRoute({
      path: '/[realm]/albums/{id}',
      realms,
      summary: 'Update a media album',
      body: wireBody(albumMembers),
      document: graphql(
        `mutation($input: UpdateAlbumInput!) { updateAlbum(input: $input) { userErrors { ...UserErrors } } }`,
        [UserErrors],
      ),
      variables: (request) => ({ input: { ...request.input, id: request.params.id, realm: realmOf(request) } }),
    }),
    deleteRoute({
      path: '/[realm]/albums/{id}',
      realms,
      summary: 'Delete a media album with its content and comments',
      document: graphql(
        `mutation($input: DeleteAlbumInput!) { deleteAlbum(input: $input) { userErrors { ...UserErrors } } }`,
        [UserErrors],
      ),
      variables: (request) => ({ input: { id: request.params.id, realm: realmOf(request) } }),
    }),
  ),
  ...alsoAt(
    '/album/{id}/content',
    createRoute({
      path: '/[realm]/albums/{id}/content',
      realms,
      summary: 'Add uploaded files to a media album (file-attachment and extras), all or none',
      body: wireBody({ 'file-attachment': { id: fileAttachmentIds('files') }, extras }, [
        'file-attachment',
        'file-attachment/id',
      ]),
      wire: z
        .object({ content: z.array(albumContentWire) })
        .meta({ id: 'CreatedAlbumContent', description: 'The items added.' }),
      document: graphql(
        `mutation($input: CreateAlbumContentInput!) {
          createAlbumContent(input: $input) { userErrors { ...UserErrors } albumContents { ...RestAlbumContent } }
        }`,
        [UserErrors, RestAlbumContent],
      ),
      variables: (request) => ({ input: { ...request.input, albumId: request.params.id, realm: realmOf(request) } }),
      payload: 'albumContents',
      shape: (items) => ({ content: items.map(contentToWire) }),
    }),
  ),
  ...alsoAt(
    '/album/{id}/content/{contentId}',
    viewInListRoute({
      path: '/[realm]/albums/{id}/content/{contentId}',
      realms,
      summary: "View an item of a media album, in the album envelope with the album's cover_image_url",
      item: 'album',
      wire: viewedContentWire,
      document: graphql(
        `query($id: ID!, $contentId: ID!, $realm: RealmInput) {
          albumContent(albumId: $id, id: $contentId, realm: $realm) { ...RestAlbumContent album { coverImageUrl } }
        }`,
        [RestAlbumContent],
      ),
      variables: (request) => ({ id: request.params.id, contentId: request.params.contentId, realm: realmOf(request) }),
      shape: (item) => ({ ...contentToWire(item), cover_image_url: item.album.coverImageUrl ?? '' }),
    }),
    updateRoute({
      path: '/[realm]/albums/{id}/content/{contentId}',
      realms,
      summary: "Update an album item's caption (or make it the cover)",
      body: wireBody({ caption: text('caption'), album_cover: flag('albumCover') }),
      document: graphql(
        `mutation($input: UpdateAlbumContentInput!) { updateAlbumContent(input: $input) { userErrors { ...UserErrors } } }`,
        [UserErrors],
      ),
      variables: (request) => ({
        input: {
          ...request.input,
          albumId: request.params.id,
          id: request.params.contentId,
          realm: realmOf(request),
        },
      }),
    }),
    deleteRoute({
      path: '/[realm]/albums/{id}/content/{contentId}',
      realms,
      summary: 'Delete an album item with its comments and file',
      document: graphql(
        `mutation($input: DeleteAlbumContentInput!) { deleteAlbumContent(input: $input) { userErrors { ...UserErrors } } }`,
        [UserErrors],
      ),
      variables: (request) => ({
        input: { albumId: request.params.id, id: request.params.contentId, realm: realmOf(request) },
      }),
    }),
  ),
  ...alsoAt(
    '/album/{id}/content/{contentId}/comments',
    listRoute({
      path: '/[realm]/albums/{id}/content/{contentId}/comments',
      realms,
      summary: 'List the comments on an album item, oldest first',
      item: 'comment',
      wire: commentWire,
      document: graphql(
        `query($id: ID!, $contentId: ID!, $realm: RealmInput, $start: Int!, $limit: Int!) {
          albumComments(albumId: $id, contentId: $contentId, realm: $realm, start: $start, limit: $limit) {
            total items { ...RestAlbumComment }
          }
        }`,
        [RestAlbumComment],
      ),
      variables: (request) => ({ id: request.params.id, contentId: request.params.contentId, realm: realmOf(request) }),
      shape: commentToWire,
    }),
    createRoute({
      path: '/[realm]/albums/{id}/content/{contentId}/comments',
      realms,
      summary: 'Comment on an album item (403 while the album has comments off)',
      body: wireBody({ comment: text('comment') }, ['comment']),
      wire: commentWire,
      document: graphql(
        `mutation($input: CreateAlbumCommentInput!) {
          createAlbumComment(input: $input) { userErrors { ...UserErrors } albumComment { ...RestAlbumComment } }
        }`,
        [UserErrors, RestAlbumComment],
      ),
      variables: (request) => ({
        input: {
          ...request.input,
          albumId: request.params.id,
          contentId: request.params.contentId,
          realm: realmOf(request),
        },
      }),
      payload: 'albumComment',
      shape: commentToWire,
    }),
  ),
  ...alsoAt(
    '/album/{id}/content/{contentId}/comment/{commentId}',
    viewRoute({
      path: '/[realm]/albums/{id}/content/{contentId}/comments/{commentId}',
      realms,
      summary: 'View a comment on an album item',
      wire: commentWire,
      document: graphql(
        `query($id: ID!, $contentId: ID!, $commentId: ID!, $realm: RealmInput) {
          albumComment(albumId: $id, contentId: $contentId, id: $commentId, realm: $realm) { ...RestAlbumComment }
        }`,
        [RestAlbumComment],
      ),
      variables: (request) => ({
        id: request.params.id,
        contentId: request.params.contentId,
        commentId: request.params.commentId,
        realm: realmOf(request),
      }),
      shape: commentToWire,
    }),
    deleteRoute({
      path: '/[realm]/albums/{id}/content/{contentId}/comments/{commentId}',
      realms,
      summary: "Delete a comment on an album item (its author, or the album's administrators)",
      document: graphql(
        `mutation($input: DeleteAlbumCommentInput!) { deleteAlbumComment(input: $input) { userErrors { ...UserErrors } } }`,
        [UserErrors],
      ),
      variables: (request) => ({
        input: {
          albumId: request.params.id,
          contentId: request.params.contentId,
          id: request.params.commentId,
          realm: realmOf(request),
        },
      }),
    }),
  ),
  ...(['ORIGINAL', 'THUMBNAIL'] as const).map((variant) =>
    fileRoute({
      path: `/album/{id}/content/{contentId}/${variant === 'ORIGINAL' ? 'file' : 'thumbnail'}`,
      summary:
        variant === 'ORIGINAL'
          ? 'The bytes of an album item (content_url), with Range support for seeking audio and video'
          : 'The JPEG thumbnail of an album image (thumbnail_url)',
      document: graphql(
        `query($id: ID!, $contentId: ID!, $variant: FileVariant!) {
          albumContent(albumId: $id, id: $contentId) { storedFile(variant: $variant) { key contentType filename inline } }
        }`,
      ),
      variables: (request) => ({ id: request.params.id, contentId: request.params.contentId, variant }),
      file: (item) => item.storedFile,
    }),
  ),
];
