import { createHash, randomBytes } from 'node:crypto';
import { authorize } from '../../auth/policy';
import { findByStorableId, isStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import type { Config } from '../../config';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError, httpError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { afterCommit, writeTransaction } from '../../outbox/record';
import { countUploadBytes } from '../../ops/metrics';
import type { Prisma } from '../../generated/prisma/client';
import { StorageUnavailableError, fileStore } from './file-store';
import { examineFile, sniffBytes, writeThumbnail } from './upload.media';
import { attachableUploadsWhere, uploadPolicy } from './upload.policy';
import { createUploadSchema } from './upload.validation';

type UploadQuery = { select?: Prisma.UploadSelect };

const settings = { limitBytes: 100 * 1024 * 1024, unattachedTtlMs: 24 * 3_600_000 };

/** Applies UPLOAD_LIMIT and UPLOAD_UNATTACHED_TTL (createApp calls it, as it configures the subscription quota). */
export function configureUploads(config: Pick<Config, 'uploadLimitBytes' | 'uploadUnattachedTtlMs'>): void {
  settings.limitBytes = config.uploadLimitBytes;
  settings.unattachedTtlMs = config.uploadUnattachedTtlMs;
}

export const uploadLimitBytes = () => settings.limitBytes;

const tooLarge = () =>
  httpError(413, 'PAYLOAD_TOO_LARGE', `The file exceeds the upload limit of ${settings.limitBytes} bytes`);

/** Storage keys are random: nothing the uploader sends (the file name least of all) reaches the storage. */
const newStorageKey = () => `f-${randomBytes(16).toString('hex')}`;
const thumbnailKeyOf = (storageKey: string) => `${storageKey}-thumb`;

/** Step one of an upload: the announced file, and the location its bytes are then sent to. */
export async function createUpload(viewer: Viewer, input: unknown, query: UploadQuery) {
  const data = validate(createUploadSchema, input);
  if (data.filesize > settings.limitBytes) throw tooLarge();
  return writeTransaction((tx) =>
    tx.upload.create({ ...query, data: { ...data, ownerId: viewer.id, storageKey: newStorageKey() } }),
  );
}

async function uploadToWrite(viewer: Viewer, id: number) {
  const upload = await findByStorableId(id, (id) => db().upload.findUnique({ where: { id } }));
  if (!upload || upload.discardedAt) throw new NotFoundError('Upload', id);
  await authorize(viewer, uploadPolicy, 'use', upload, id);
  if (upload.status === 'STORED') throw new ConflictError('The bytes of this upload were stored already', 'id');
  return upload;
}

/**
 * The request body's chunks, counted and hashed as they pass. The reader's lock is released rather than the stream
 * cancelled when reading stops early, so that the facade can drain the rest and the client still reads the answer.
 */
async function* measured(
  body: ReadableStream<Uint8Array>,
  expected: number,
  seen: { size: number; md5: ReturnType<typeof createHash>; head: Buffer[] },
) {
  const reader = body.getReader();
  let headBytes = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      seen.size += read.value.byteLength;
      if (seen.size > settings.limitBytes) throw tooLarge();
      if (seen.size > expected)
        throw new ValidationError([
          { field: 'filesize', message: `the file is longer than the announced ${expected} bytes` },
        ]);
      seen.md5.update(read.value);
      if (headBytes < sniffBytes) {
        seen.head.push(Buffer.from(read.value.subarray(0, sniffBytes - headBytes)));
        headBytes += Math.min(read.value.byteLength, sniffBytes - headBytes);
      }
      yield read.value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Where step two's bytes come from: the raw `/v1` request body, or base64 text in the GraphQL mutation. */
export type UploadContent =
  | { kind: 'raw'; stream: ReadableStream<Uint8Array> | null; declaredLength: number | null }
  | { kind: 'base64'; text: string }
  | { kind: 'none' };

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/;

function bodyOf(content: UploadContent): { body: ReadableStream<Uint8Array> | null; declaredLength: number | null } {
  if (content.kind === 'raw') return { body: content.stream, declaredLength: content.declaredLength };
  if (content.kind === 'none' || content.text.length % 4 !== 0 || !base64Text.test(content.text)) {
    const message =
      content.kind === 'none'
        ? "send the file's bytes with PUT to the upload's uploadUrl, or as contentBase64"
        : 'must be base64 text (RFC 4648, with padding)';
    throw new ValidationError([{ field: content.kind === 'none' ? 'id' : 'contentBase64', message }]);
  }
  const bytes = Buffer.from(content.text, 'base64');
  return { body: new Blob([bytes]).stream(), declaredLength: bytes.length };
}

/**
 * Step two: stores the bytes sent with `PUT /v1/upload/{id}` (streamed to storage, never held whole) or, for a small
 * file over /graphql, as base64; they are checked against the announced size and MD5 checksum on the way, and on a
 * mismatch nothing is kept.
 */
export async function receiveUploadContent(viewer: Viewer, id: number, content: UploadContent, query: UploadQuery) {
  const upload = await uploadToWrite(viewer, id);
  const { body, declaredLength } = bodyOf(content);
  if (declaredLength !== null && declaredLength > settings.limitBytes) throw tooLarge();
  const store = fileStore();
  // Each attempt writes under a key of its own, so that concurrent PUTs to one upload never touch each other's bytes;
  // the attempt that stores the upload makes its key the upload's.
  const key = newStorageKey();
  const removeAttempt = () => Promise.all([store.remove(key), store.remove(thumbnailKeyOf(key))]);
  const seen = { size: 0, md5: createHash('md5'), head: [] as Buffer[] };
  await store.write(key, body ? measured(body, upload.filesize, seen) : []).catch((error) => {
    countUploadBytes('refused', seen.size);
    throw error;
  });
  try {
    const issues: FieldIssue[] = [];
    if (seen.size !== upload.filesize)
      issues.push({
        field: 'filesize',
        message: `the file has ${seen.size} bytes, not the announced ${upload.filesize}`,
      });
    else if (seen.md5.digest('hex') !== upload.md5Checksum)
      issues.push({ field: 'md5Checksum', message: 'the file does not match the announced checksum' });
    if (issues.length) throw new ValidationError(issues);
    const media = await examineFile(store, key, Buffer.concat(seen.head), upload.filename, thumbnailKeyOf(key));
    const uploaded = await writeTransaction(async (tx) => {
      const stored = await tx.upload.updateMany({
        where: { id, status: 'PENDING', discardedAt: null },
        data: {
          status: 'STORED',
          storedAt: new Date(),
          storageKey: key,
          kind: media.kind,
          mimeType: media.mimeType,
          width: media.width,
          height: media.height,
          thumbnailKey: media.thumbnail?.key ?? null,
          thumbnailWidth: media.thumbnail?.width ?? null,
          thumbnailHeight: media.thumbnail?.height ?? null,
          thumbnailPending: media.thumbnail?.pending ?? false,
        },
      });
      // Another PUT to the same upload finished first.
      if (stored.count === 0) throw new ConflictError('The bytes of this upload were stored already', 'id');
      return tx.upload.findUniqueOrThrow({ ...query, where: { id } });
    });
    countUploadBytes('stored', seen.size);
    return uploaded;
  } catch (error) {
    countUploadBytes('refused', seen.size);
    // Nothing of a refused or failed attempt is kept.
    await removeAttempt();
    throw error;
  }
}

/**
 * Attaches the viewer's stored uploads to what is being created in `tx`: an id that is unknown, someone else's, not yet
 * stored or already attached fails the whole write, each such id named by its position under `field`.
 */
export async function attachUploads(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  ids: readonly number[],
  field: string,
) {
  const rows = await tx.upload.findMany({ where: { id: { in: ids.filter(isStorableId) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const issues: FieldIssue[] = [];
  ids.forEach((id, index) => {
    const row = byId.get(id);
    const problem =
      !row || uploadPolicy.rules.use(viewer, row) !== 'allow' || row.discardedAt
        ? `file ${id} was not found among your uploads`
        : row.status !== 'STORED'
          ? `file ${id} has no stored bytes yet`
          : row.attachedAt || ids.indexOf(id) !== index
            ? `file ${id} is attached already`
            : null;
    if (problem) issues.push({ field: `${field}.${index}`, message: problem });
  });
  if (issues.length) throw new ValidationError(issues);
  const attached = await tx.upload.updateMany({
    where: { id: { in: [...ids] }, ...attachableUploadsWhere(viewer) },
    data: { attachedAt: new Date() },
  });
  if (attached.count !== ids.length)
    throw new ConflictError('A file was attached or removed meanwhile; try again', field);
  return ids.map((id) => byId.get(id)!);
}

/**
 * Marks the uploads `where` selects as discarded, in the transaction deleting what attached them; their files and
 * rows go once it commits (and, should the process stop first, at the next sweep).
 */
export async function discardUploads(tx: Prisma.TransactionClient, where: Prisma.UploadWhereInput): Promise<void> {
  const discarded = await tx.upload.updateMany({
    where: { ...where, discardedAt: null },
    data: { discardedAt: new Date() },
  });
  if (discarded.count > 0) afterCommit(tx, async () => void (await removeDiscardedUploads()));
}

/** Removes discarded uploads: their files first, so that a stop halfway leaves rows the next sweep finishes. */
async function removeDiscardedUploads(): Promise<number> {
  const store = fileStore();
  let removed = 0;
  for (;;) {
    const batch = await db().upload.findMany({
      where: { discardedAt: { not: null } },
      select: { id: true, storageKey: true, thumbnailKey: true },
      take: 200,
      orderBy: { id: 'asc' },
    });
    if (batch.length === 0) return removed;
    for (const { storageKey, thumbnailKey } of batch) {
      await store.remove(storageKey);
      await store.remove(thumbnailKeyOf(storageKey));
      if (thumbnailKey && thumbnailKey !== thumbnailKeyOf(storageKey)) await store.remove(thumbnailKey);
    }
    removed += (
      await db().upload.deleteMany({ where: { id: { in: batch.map((row) => row.id) }, discardedAt: { not: null } } })
    ).count;
  }
}

/**
 * The periodic sweep: uploads not attached within UPLOAD_UNATTACHED_TTL of being announced are discarded and removed,
 * with the files of anything discarded earlier. `now` is injectable so tests need not wait. Answers how many went.
 */
export async function sweepUploads(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - settings.unattachedTtlMs);
  await db().upload.updateMany({
    where: { attachedAt: null, discardedAt: null, createdAt: { lt: cutoff } },
    data: { discardedAt: now },
  });
  return removeDiscardedUploads();
}

/**
 * Writes an image's thumbnail that the storage refused when its bytes were stored, and marks it written. Two readers
 * may both write it (the same bytes, each write whole or nothing); one written for an upload discarded meanwhile is
 * removed again.
 */
export async function writePendingThumbnail(upload: {
  id: number;
  storageKey: string;
  thumbnailKey: string | null;
}): Promise<void> {
  const store = fileStore();
  const key = upload.thumbnailKey ?? thumbnailKeyOf(upload.storageKey);
  await writeThumbnail(store, upload.storageKey, key);
  const { count } = await db().upload.updateMany({
    where: { id: upload.id, discardedAt: null },
    data: { thumbnailPending: false },
  });
  if (count === 0) await store.remove(key);
}

/**
 * The sweep of pending thumbnails: writes what the storage refused before, a batch at a time. While the storage is
 * still full or read-only the rest wait for the next sweep; another failure skips its upload and is thrown at the end,
 * for the log. Answers how many were written.
 */
export async function writePendingThumbnails(): Promise<number> {
  const pending = await db().upload.findMany({
    where: { thumbnailPending: true, discardedAt: null },
    select: { id: true, storageKey: true, thumbnailKey: true },
    take: 200,
    orderBy: { id: 'asc' },
  });
  let written = 0;
  let failure: unknown = null;
  for (const upload of pending) {
    try {
      await writePendingThumbnail(upload);
      written++;
    } catch (error) {
      if (error instanceof StorageUnavailableError) break;
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return written;
}
