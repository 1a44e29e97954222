import { authorize } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { findContent } from './album-content.service';
import { albumPolicy } from './album.policy';
import { albumEvents, eventScope, findAlbum } from './album.service';
import { createCommentSchema } from './album.validation';

type CommentQuery = { select?: Prisma.AlbumCommentSelect };

export async function createAlbumComment(
  viewer: Viewer,
  albumId: number,
  contentId: number,
  realm: RealmRef | null,
  input: unknown,
  query: CommentQuery,
) {
  const album = await findAlbum(albumId, realm);
  await authorize(viewer, albumPolicy, 'read', album.facts, albumId);
  await findContent(albumId, contentId);
  await authorize(viewer, albumPolicy, 'comment', album.facts, albumId);
  const data = validate(createCommentSchema, input);
  const scope = await eventScope(viewer, album.facts.realm);
  return writeTransaction(async (tx) => {
    const comment = await tx.albumComment.create({ ...query, data: { ...data, contentId, authorId: viewer.id } });
    await recordEvent(tx, albumEvents.createComment, {
      realm: album.facts.realm,
      objectId: comment.id,
      actorId: viewer.id,
      scope,
    });
    return comment;
  });
}

export async function deleteAlbumComment(
  viewer: Viewer,
  albumId: number,
  contentId: number,
  id: number,
  realm: RealmRef | null,
) {
  const album = await findAlbum(albumId, realm);
  await authorize(viewer, albumPolicy, 'read', album.facts, albumId);
  await findContent(albumId, contentId);
  const comment = await findByStorableId(id, (id) =>
    db().albumComment.findFirst({ where: { id, contentId }, select: { authorId: true } }),
  );
  if (!comment) throw new NotFoundError('AlbumComment', id);
  await authorize(
    viewer,
    albumPolicy,
    'deleteComment',
    { album: album.facts, authorId: comment.authorId },
    id,
    'AlbumComment',
  );
  const scope = await eventScope(viewer, album.facts.realm);
  await writeTransaction(async (tx) => {
    await tx.albumComment.delete({ where: { id } });
    await recordEvent(tx, albumEvents.deleteComment, {
      realm: album.facts.realm,
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}
