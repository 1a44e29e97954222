import { authorize, realmFactsFor, verdictOf } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, forbidden } from '../../core/errors';
import { ownedByRealm } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { discardUploads } from '../uploads/upload.service';
import { type AlbumFacts, albumPolicy, albumRealms, seesUnpublished } from './album.policy';
import { createAlbumSchema, updateAlbumSchema } from './album.validation';

type AlbumQuery = { select?: Prisma.AlbumSelect };

// Deleting a section or group deletes its albums; content and comments go with them (foreign keys cascade), and
// the attached files once the realm's transaction commits.
ownedByRealm('Album', async (tx, where) => {
  await discardUploads(tx, { albumContent: { album: where } });
  await tx.album.deleteMany({ where });
});

const event = (type: `${'album' | 'album_content' | 'album_comment'}.${string}`, object: string, description: string) =>
  defineEvent(type, { object, realms: albumRealms, description });
export const albumEvents = {
  create: event('album.create', 'Album', 'A media album was created.'),
  update: event('album.update', 'Album', "A media album's title, description or settings changed."),
  delete: event('album.delete', 'Album', 'A media album was deleted, with its content and comments.'),
  createContent: event('album_content.create', 'AlbumContent', 'A file was added to a media album.'),
  updateContent: event('album_content.update', 'AlbumContent', "An album item's caption or cover flag changed."),
  deleteContent: event('album_content.delete', 'AlbumContent', 'An item was removed from a media album.'),
  createComment: event('album_comment.create', 'AlbumComment', 'A comment was written on an album item.'),
  deleteComment: event('album_comment.delete', 'AlbumComment', 'A comment on an album item was deleted.'),
};

/**
 * An album by id, with the facts its policy reads. A realm named in the request must be the album's own, or the album
 * is not found there; the legacy `/album/{id}` paths name none.
 */
export async function findAlbum(id: number, realm: RealmRef | null) {
  const album = await findByStorableId(id, (id) =>
    db().album.findUnique({
      where: { id },
      select: {
        id: true,
        realmType: true,
        realmId: true,
        published: true,
        settingComments: true,
        settingMemberPost: true,
      },
    }),
  );
  if (!album || (realm && (album.realmType !== realm.type || album.realmId !== realm.id)))
    throw new NotFoundError('Album', id);
  const facts: AlbumFacts = {
    realm: { type: album.realmType, id: album.realmId },
    published: album.published,
    settingComments: album.settingComments,
    settingMemberPost: album.settingMemberPost,
  };
  return { id: album.id, facts };
}

/** For queries: whether the viewer sees the album (false: the answer is null), a 403 when its realm is closed to them. */
export async function albumReadable(viewer: Viewer, id: number, realm: RealmRef | null): Promise<boolean> {
  let album;
  try {
    album = await findAlbum(id, realm);
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
  const verdict = await verdictOf(viewer, albumPolicy, 'read', album.facts);
  if (typeof verdict === 'object') throw forbidden(verdict.forbid);
  return verdict === 'allow';
}

/**
 * The albums of a realm the viewer reads: null when the realm is hidden, a 403 when its contents are closed; the
 * filter leaves unpublished albums to the realm's administrators.
 */
export async function readableAlbumsWhere(viewer: Viewer, realm: RealmRef): Promise<Prisma.AlbumWhereInput | null> {
  await authorize(viewer, albumPolicy, 'keepIn', realm, realm.id);
  const verdict = await verdictOf(viewer, albumPolicy, 'read', {
    realm,
    published: true,
    settingComments: true,
    settingMemberPost: true,
  });
  if (typeof verdict === 'object') throw forbidden(verdict.forbid);
  if (verdict === 'hide') return null;
  const where = { realmType: realm.type, realmId: realm.id };
  return (await seesUnpublished(viewer, realm)) ? where : { ...where, published: true };
}

/** The scope (district, school) an album event is recorded under. */
export const eventScope = (viewer: Viewer, realm: RealmRef) => realmFactsFor(viewer, realm, 'visible');

export async function createAlbum(viewer: Viewer, realm: RealmRef, input: unknown, query: AlbumQuery) {
  await authorize(viewer, albumPolicy, 'keepIn', realm, realm.id);
  const scope = await eventScope(viewer, realm);
  await authorize(viewer, albumPolicy, 'create', realm, realm.id);
  const data = validate(createAlbumSchema, input);
  return writeTransaction(async (tx) => {
    const album = await tx.album.create({
      ...query,
      data: { ...data, realmType: realm.type, realmId: realm.id, creatorId: viewer.id },
    });
    await recordEvent(tx, albumEvents.create, { realm, objectId: album.id, actorId: viewer.id, scope });
    return album;
  });
}

export async function updateAlbum(
  viewer: Viewer,
  id: number,
  realm: RealmRef | null,
  input: unknown,
  query: AlbumQuery,
) {
  const album = await findAlbum(id, realm);
  await authorize(viewer, albumPolicy, 'update', album.facts, id);
  const data = validate(updateAlbumSchema, input);
  const scope = await eventScope(viewer, album.facts.realm);
  return writeTransaction(async (tx) => {
    const updated = await tx.album.update({ ...query, where: { id }, data });
    await recordEvent(tx, albumEvents.update, { realm: album.facts.realm, objectId: id, actorId: viewer.id, scope });
    return updated;
  });
}

export async function deleteAlbum(viewer: Viewer, id: number, realm: RealmRef | null) {
  const album = await findAlbum(id, realm);
  await authorize(viewer, albumPolicy, 'delete', album.facts, id);
  const scope = await eventScope(viewer, album.facts.realm);
  await writeTransaction(async (tx) => {
    await discardUploads(tx, { albumContent: { albumId: id } });
    await tx.album.delete({ where: { id } });
    await recordEvent(tx, albumEvents.delete, { realm: album.facts.realm, objectId: id, actorId: viewer.id, scope });
  });
  return { id };
}
