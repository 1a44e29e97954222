import { authorize } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { type FieldIssue, NotFoundError, ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { attachUploads, discardUploads } from '../uploads/upload.service';
import { albumPolicy } from './album.policy';
import { albumEvents, eventScope, findAlbum } from './album.service';
import { contentOrder, coverSelection } from './album.type';
import { createContentSchema, updateContentSchema } from './album.validation';

type ContentQuery = { select?: Prisma.AlbumContentSelect };

/** What the type's fields read of an item, loaded inside the write's transaction so the answer needs no read after it. */
const contentAnswerInclude = { upload: true } satisfies Prisma.AlbumContentInclude;

/** An item of the album, or not found there. */
export async function findContent(albumId: number, id: number) {
  const item = await findByStorableId(id, (id) =>
    db().albumContent.findFirst({
      where: { id, albumId },
      select: { id: true, creatorId: true, uploadId: true, albumCover: true },
    }),
  );
  if (!item) throw new NotFoundError('AlbumContent', id);
  return item;
}

/** Extras must name files of the request, once each. */
function checkExtras(files: number[], extras: { fid: number }[]): void {
  const issues: FieldIssue[] = [];
  extras.forEach((extra, index) => {
    if (!files.includes(extra.fid))
      issues.push({ field: `extras.${index}.fid`, message: `file ${extra.fid} is not among the files sent` });
    else if (extras.findIndex((other) => other.fid === extra.fid) !== index)
      issues.push({ field: `extras.${index}.fid`, message: `file ${extra.fid} has extras already` });
  });
  if (issues.length) throw new ValidationError(issues);
}

/**
 * Adds uploaded files to an album in one transaction: any file that is unknown, someone else's, not stored yet or
 * attached already fails them all. The first image of an album without a cover becomes its cover.
 */
export async function createAlbumContent(viewer: Viewer, albumId: number, realm: RealmRef | null, input: unknown) {
  const album = await findAlbum(albumId, realm);
  await authorize(viewer, albumPolicy, 'addContent', album.facts, albumId);
  const data = validate(createContentSchema, input);
  checkExtras(data.files, data.extras);
  const scope = await eventScope(viewer, album.facts.realm);
  return writeTransaction(async (tx) => {
    const uploads = await attachUploads(tx, viewer, data.files, 'files');
    const last = await tx.albumContent.aggregate({ where: { albumId }, _max: { displayOrder: true } });
    let hasCover = (await tx.albumContent.count({ where: { albumId, albumCover: true } })) > 0;
    const created: number[] = [];
    for (const [index, upload] of uploads.entries()) {
      const extra = data.extras.find((candidate) => candidate.fid === upload.id);
      const isImage = upload.kind === 'IMAGE';
      const makeCover = isImage && (extra?.albumCover === true || !hasCover);
      if (makeCover && hasCover)
        await tx.albumContent.updateMany({ where: { albumId, albumCover: true }, data: { albumCover: false } });
      const item = await tx.albumContent.create({
        data: {
          albumId,
          uploadId: upload.id,
          creatorId: viewer.id,
          caption: extra?.caption ?? '',
          displayOrder: extra?.displayOrder ?? (last._max.displayOrder ?? 0) + 1 + index,
          albumCover: makeCover,
        },
        select: { id: true },
      });
      hasCover ||= makeCover;
      created.push(item.id);
      await recordEvent(tx, albumEvents.createContent, {
        realm: album.facts.realm,
        objectId: item.id,
        actorId: viewer.id,
        scope,
      });
    }
    const items = await tx.albumContent.findMany({
      where: { id: { in: created } },
      include: contentAnswerInclude,
      orderBy: contentOrder,
    });
    return { items };
  });
}

export async function updateAlbumContent(
  viewer: Viewer,
  albumId: number,
  id: number,
  realm: RealmRef | null,
  input: unknown,
  query: ContentQuery,
) {
  const { album, item } = await contentToChange(viewer, albumId, id, realm);
  const data = validate(updateContentSchema, input);
  const scope = await eventScope(viewer, album.facts.realm);
  return writeTransaction(async (tx) => {
    if (data.albumCover === true) {
      const file = await tx.upload.findUniqueOrThrow({ where: { id: item.uploadId }, select: { kind: true } });
      if (file.kind !== 'IMAGE')
        throw new ValidationError([{ field: 'albumCover', message: 'only an image can be the album cover' }]);
      await tx.albumContent.updateMany({
        where: { albumId, albumCover: true, id: { not: id } },
        data: { albumCover: false },
      });
    }
    const updated = await tx.albumContent.update({ ...query, where: { id }, data });
    if (data.albumCover === false && item.albumCover) await flagFirstImage(tx, albumId);
    await recordEvent(tx, albumEvents.updateContent, {
      realm: album.facts.realm,
      objectId: id,
      actorId: viewer.id,
      scope,
    });
    return updated;
  });
}

/** Gives an album without a flagged cover its first image as the cover. */
async function flagFirstImage(tx: Prisma.TransactionClient, albumId: number) {
  if ((await tx.albumContent.count({ where: { albumId, albumCover: true } })) > 0) return;
  const [first] = await tx.albumContent.findMany({ ...coverSelection, where: { ...coverSelection.where, albumId } });
  if (first) await tx.albumContent.update({ where: { id: first.id }, data: { albumCover: true } });
}

/** An item the viewer may change (its uploader, or the album's administrators) with its album, or the 403/404. */
async function contentToChange(viewer: Viewer, albumId: number, id: number, realm: RealmRef | null) {
  const album = await findAlbum(albumId, realm);
  const item = await findContent(albumId, id);
  await authorize(
    viewer,
    albumPolicy,
    'changeContent',
    { album: album.facts, creatorId: item.creatorId },
    id,
    'AlbumContent',
  );
  return { album, item };
}

/** Removes an item with its comments; its file goes once the transaction commits, and a deleted cover moves on. */
export async function deleteAlbumContent(viewer: Viewer, albumId: number, id: number, realm: RealmRef | null) {
  const { album, item } = await contentToChange(viewer, albumId, id, realm);
  const scope = await eventScope(viewer, album.facts.realm);
  await writeTransaction(async (tx) => {
    await discardUploads(tx, { id: item.uploadId });
    await tx.albumContent.delete({ where: { id } });
    if (item.albumCover) await flagFirstImage(tx, albumId);
    await recordEvent(tx, albumEvents.deleteContent, {
      realm: album.facts.realm,
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}
