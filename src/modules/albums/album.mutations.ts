import { builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, ownerRealm, required, resultMutation } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { createAlbumComment, deleteAlbumComment } from './album-comment.service';
import { createAlbumContent, deleteAlbumContent, updateAlbumContent } from './album-content.service';
import { realmOf } from './album.queries';
import { createAlbum, deleteAlbum, updateAlbum } from './album.service';
import { AlbumContentType } from './album.type';
import {
  contentExtraSchema,
  createAlbumSchema,
  createCommentSchema,
  createContentSchema,
  updateAlbumSchema,
  updateContentSchema,
} from './album.validation';

const CreateAlbumInput = inputFromSchema('CreateAlbumInput', createAlbumSchema, 'A new media album.');
const UpdateAlbumInput = changesInput('UpdateAlbumInput', updateAlbumSchema, 'an album');
const AlbumContentExtraInput = inputFromSchema(
  'AlbumContentExtraInput',
  contentExtraSchema,
  'Caption, position and cover flag of one file being added.',
  { fid: 'ID' },
);
const CreateAlbumContentInput = inputFromSchema(
  'CreateAlbumContentInput',
  createContentSchema,
  'Uploaded files to add to an album, with their extras.',
  { files: 'ID', extras: AlbumContentExtraInput },
);
const UpdateAlbumContentInput = inputFromSchema(
  'UpdateAlbumContentInput',
  updateContentSchema,
  'Changes to an album item.',
);
const CreateAlbumCommentInput = inputFromSchema(
  'CreateAlbumCommentInput',
  createCommentSchema,
  'A comment on an album item.',
);

const CreatedAlbumContent = builder.objectRef<{ items: unknown[] }>('CreatedAlbumContent').implement({
  description: 'The items a createAlbumContent added, in display order.',
  fields: (t) => ({
    items: t.field({
      type: [AlbumContentType],
      description: 'The new items.',
      resolve: (created) => created.items as never,
    }),
  }),
});

const optionalRealm = {
  type: RealmInput,
  description: 'The section or group the album must be in (legacy clients leave it out).',
} as const;
objectMutation('createAlbum', {
  type: 'Album',
  description: 'Creates a media album in a section or group the viewer administers.',
  args: (arg) => ({
    realm: arg(ownerRealm('album')),
    input: arg(required(CreateAlbumInput, 'The new album.')),
  }),
  resolve: (viewer, args, query) => createAlbum(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updateAlbum', {
  type: 'Album',
  description: 'Changes an album (the administrators of its section or group).',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The album to change.' }),
    realm: arg(optionalRealm),
    input: arg(required(UpdateAlbumInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) =>
    updateAlbum(viewer, parseId(args.id, 'Album'), realmOf(args.realm), args.input, query),
});
deleteMutation('deleteAlbum', {
  description: 'Deletes an album with its content, comments and files (the administrators of its section or group).',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The album to delete.' }), realm: arg(optionalRealm) }),
  resolve: (viewer, args) => deleteAlbum(viewer, parseId(args.id, 'Album'), realmOf(args.realm)),
});
resultMutation('createAlbumContent', {
  type: CreatedAlbumContent,
  description:
    "Adds the viewer's uploaded files to an album in one transaction (administrators; members too while settingMemberPost " +
    "is on). A file that is unknown, someone else's, not stored yet or attached already fails the whole request.",
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({
    albumId: arg.id({ required: true, description: 'The album.' }),
    realm: arg(optionalRealm),
    input: arg(required(CreateAlbumContentInput, 'The new album item.')),
  }),
  resolve: (viewer, args) =>
    createAlbumContent(viewer, parseId(args.albumId, 'Album', 'albumId'), realmOf(args.realm), args.input),
});
objectMutation('updateAlbumContent', {
  type: 'AlbumContent',
  description: "Changes an item's caption or cover flag (whoever added it, or the album's administrators).",
  args: (arg) => ({
    albumId: arg.id({ required: true, description: 'The album.' }),
    id: arg.id({ required: true, description: 'The album item to change.' }),
    realm: arg(optionalRealm),
    input: arg(required(UpdateAlbumContentInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) =>
    updateAlbumContent(
      viewer,
      parseId(args.albumId, 'Album', 'albumId'),
      parseId(args.id, 'AlbumContent'),
      realmOf(args.realm),
      args.input,
      query,
    ),
});
deleteMutation('deleteAlbumContent', {
  description:
    "Removes an item with its comments and file (whoever added it, or the album's administrators); a removed cover moves to the first image left.",
  errors: [NotFoundError],
  args: (arg) => ({
    albumId: arg.id({ required: true, description: 'The album.' }),
    id: arg.id({ required: true, description: 'The album item to delete.' }),
    realm: arg(optionalRealm),
  }),
  resolve: (viewer, args) =>
    deleteAlbumContent(
      viewer,
      parseId(args.albumId, 'Album', 'albumId'),
      parseId(args.id, 'AlbumContent'),
      realmOf(args.realm),
    ),
});
objectMutation('createAlbumComment', {
  type: 'AlbumComment',
  description: 'Comments on an album item the viewer sees; refused (403) while the album has comments off.',
  args: (arg) => ({
    albumId: arg.id({ required: true, description: 'The album.' }),
    contentId: arg.id({ required: true, description: 'The album item commented on.' }),
    realm: arg(optionalRealm),
    input: arg(required(CreateAlbumCommentInput, 'The new comment.')),
  }),
  resolve: (viewer, args, query) =>
    createAlbumComment(
      viewer,
      parseId(args.albumId, 'Album', 'albumId'),
      parseId(args.contentId, 'AlbumContent', 'contentId'),
      realmOf(args.realm),
      args.input,
      query,
    ),
});
deleteMutation('deleteAlbumComment', {
  description: "Deletes a comment (its author, or the album's administrators).",
  errors: [NotFoundError],
  args: (arg) => ({
    albumId: arg.id({ required: true, description: 'The album.' }),
    contentId: arg.id({ required: true, description: 'The album item commented on.' }),
    id: arg.id({ required: true, description: 'The album comment to delete.' }),
    realm: arg(optionalRealm),
  }),
  resolve: (viewer, args) =>
    deleteAlbumComment(
      viewer,
      parseId(args.albumId, 'Album', 'albumId'),
      parseId(args.contentId, 'AlbumContent', 'contentId'),
      parseId(args.id, 'AlbumComment'),
      realmOf(args.realm),
    ),
});
