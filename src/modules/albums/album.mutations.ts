import { inputFromSchema, objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { RealmInput, parseId, realmInputSchema, realmRef } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
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

const AlbumContentExtraInput = inputFromSchema(
  'AlbumContentExtraInput',
  contentExtraSchema,
  'Caption, position and cover flag of one file being added.',
  { fid: 'ID' },
);

const ownerRealm = realmInputSchema.describe('The realm (a course section or group) the album belongs to.');
const optionalRealm = realmInputSchema
  .nullish()
  .describe('The section or group the album must be in (legacy clients leave it out).');
const types = { realm: RealmInput };
const albumId = objectIdMember('The album.');
const contentId = objectIdMember('The album item commented on.');

/** The album an item change touched, read after it as the client selects it: its counts and cover change. */
const albumMember = { model: 'Album', description: 'The album, with its counts and cover as they now are.' } as const;

payloadMutation('createAlbum', {
  description: 'Creates a media album in a section or group the viewer administers.',
  input: withMembers(createAlbumSchema, { realm: ownerRealm }),
  inputDescription: 'A new media album, and the realm it belongs to.',
  types,
  payload: { album: { model: 'Album', description: 'The new album.' } },
  resolve: async (viewer, { realm, ...album }, select) => ({
    album: await createAlbum(viewer, realmRef(realm), album, select('album')),
  }),
});
payloadMutation('updateAlbum', {
  description: 'Changes an album (the administrators of its section or group).',
  input: withMembers(updateAlbumSchema, { id: objectIdMember('The album to change.'), realm: optionalRealm }),
  inputDescription: 'The album, and changes to it; members left out keep their values.',
  types,
  payload: { album: { model: 'Album', description: 'The album as changed.' } },
  resolve: async (viewer, { id, realm, ...changes }, select) => ({
    album: await updateAlbum(viewer, parseId(id, 'Album'), realmOf(realm), changes, select('album')),
  }),
});
payloadMutation('deleteAlbum', {
  description: 'Deletes an album with its content, comments and files (the administrators of its section or group).',
  input: withMembers(objectIdInput('The album to delete.'), { realm: optionalRealm }),
  inputDescription: 'The album to delete.',
  types,
  payload: { deletedAlbumId: { deleted: 'Album', description: 'Global id of the deleted album.' } },
  resolve: async (viewer, { id, realm }) => ({
    deletedAlbumId: (await deleteAlbum(viewer, parseId(id, 'Album'), realmOf(realm))).id,
  }),
});
payloadMutation('createAlbumContent', {
  description:
    "Adds the viewer's uploaded files to an album in one transaction (administrators; members too while settingMemberPost " +
    "is on). A file that is unknown, someone else's, not stored yet or attached already fails the whole request.",
  input: withMembers(createContentSchema, { albumId, realm: optionalRealm }),
  inputDescription: 'Uploaded files to add to an album, with their extras.',
  types: { ...types, files: 'ID', extras: AlbumContentExtraInput },
  payload: {
    albumContents: { type: AlbumContentType, list: true, description: 'The new items, in display order.' },
    album: albumMember,
  },
  resolve: async (viewer, { albumId, realm, ...files }, select) => {
    const id = parseId(albumId, 'Album', 'albumId');
    const { items } = await createAlbumContent(viewer, id, realmOf(realm), files);
    return { albumContents: items, album: await readById('Album', select('album'), id) };
  },
});
payloadMutation('updateAlbumContent', {
  description: "Changes an item's caption or cover flag (whoever added it, or the album's administrators).",
  input: withMembers(updateContentSchema, {
    albumId,
    id: objectIdMember('The album item to change.'),
    realm: optionalRealm,
  }),
  inputDescription: 'The album item, and changes to it; members left out keep their values.',
  types,
  payload: {
    albumContent: { model: 'AlbumContent', description: 'The item as changed.' },
    album: albumMember,
  },
  resolve: async (viewer, { albumId, id, realm, ...changes }, select) => {
    const album = parseId(albumId, 'Album', 'albumId');
    const albumContent = await updateAlbumContent(
      viewer,
      album,
      parseId(id, 'AlbumContent'),
      realmOf(realm),
      changes,
      select('albumContent'),
    );
    return { albumContent, album: await readById('Album', select('album'), album) };
  },
});
payloadMutation('deleteAlbumContent', {
  description:
    "Removes an item with its comments and file (whoever added it, or the album's administrators); a removed cover moves to the first image left.",
  input: withMembers(objectIdInput('The album item to delete.'), { albumId, realm: optionalRealm }),
  inputDescription: 'The album item to delete.',
  types,
  payload: {
    deletedAlbumContentId: { deleted: 'AlbumContent', description: 'Global id of the removed item.' },
    album: albumMember,
  },
  resolve: async (viewer, { albumId, id, realm }, select) => {
    const album = parseId(albumId, 'Album', 'albumId');
    const { id: deleted } = await deleteAlbumContent(viewer, album, parseId(id, 'AlbumContent'), realmOf(realm));
    return { deletedAlbumContentId: deleted, album: await readById('Album', select('album'), album) };
  },
});
payloadMutation('createAlbumComment', {
  description: 'Comments on an album item the viewer sees; refused (403) while the album has comments off.',
  input: withMembers(createCommentSchema, { albumId, contentId, realm: optionalRealm }),
  inputDescription: 'A comment on an album item.',
  types,
  payload: { albumComment: { model: 'AlbumComment', description: 'The new comment.' } },
  resolve: async (viewer, { albumId, contentId, realm, ...comment }, select) => ({
    albumComment: await createAlbumComment(
      viewer,
      parseId(albumId, 'Album', 'albumId'),
      parseId(contentId, 'AlbumContent', 'contentId'),
      realmOf(realm),
      comment,
      select('albumComment'),
    ),
  }),
});
payloadMutation('deleteAlbumComment', {
  description: "Deletes a comment (its author, or the album's administrators).",
  input: withMembers(objectIdInput('The album comment to delete.'), { albumId, contentId, realm: optionalRealm }),
  inputDescription: 'The album comment to delete.',
  types,
  payload: { deletedAlbumCommentId: { deleted: 'AlbumComment', description: 'Global id of the deleted comment.' } },
  resolve: async (viewer, { albumId, contentId, id, realm }) => ({
    deletedAlbumCommentId: (
      await deleteAlbumComment(
        viewer,
        parseId(albumId, 'Album', 'albumId'),
        parseId(contentId, 'AlbumContent', 'contentId'),
        parseId(id, 'AlbumComment'),
        realmOf(realm),
      )
    ).id,
  }),
});
