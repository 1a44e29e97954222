import { authorize, realmFactsFor, verdictOf } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import type { WebPackageLimits } from '../../config';
import { NotFoundError, ValidationError, forbidden } from '../../core/errors';
import { type RealmOwnedWhere, ownedByRealm } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { afterCommit, recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { fileStore } from '../uploads/file-store';
import { attachUploads, discardUploads } from '../uploads/upload.service';
import { attachableUploadsWhere } from '../uploads/upload.policy';
import { webPackagePolicy } from './web-package.policy';
import { type UnpackedFile, unpackZip } from './web-package.unzip';
import { createWebPackageSchema } from './web-package.validation';

type WebPackageQuery = { select?: Prisma.WebPackageSelect; include?: Prisma.WebPackageInclude };

/** Web content packages belong to course sections only (spec 4.9). */
export const webPackageRealms = ['SECTION'] as const;

const settings: WebPackageLimits = { maxFiles: 2_000, maxBytes: 500 * 1024 ** 2, maxRatio: 100 };

/** Applies WEB_PACKAGE_MAX_FILES, WEB_PACKAGE_MAX_BYTES and WEB_PACKAGE_MAX_RATIO (createApp calls it). */
export function configureWebPackages(config: { webPackageLimits: WebPackageLimits }): void {
  Object.assign(settings, config.webPackageLimits);
}

/** Removes the unpacked files once the transaction deleting their rows commits. */
async function removeFilesAfterCommit(tx: Prisma.TransactionClient, where: Prisma.WebPackageWhereInput) {
  const packages = await tx.webPackage.findMany({
    where,
    select: { uploadId: true, files: { select: { storageKey: true } } },
  });
  if (packages.length === 0) return;
  await discardUploads(tx, { id: { in: packages.map((item) => item.uploadId) } });
  const keys = packages.flatMap((item) => item.files.map((file) => file.storageKey));
  afterCommit(tx, async () => {
    const store = fileStore();
    for (const key of keys) await store.remove(key);
  });
}

// Deleting a section deletes its packages, their files once the realm's transaction commits.
ownedByRealm('WebPackage', async (tx, where: RealmOwnedWhere) => {
  await removeFilesAfterCommit(tx, where);
  await tx.webPackage.deleteMany({ where });
});

const event = (type: `web_package.${string}`, description: string) =>
  defineEvent(type, { object: 'WebPackage', realms: webPackageRealms, description });
export const webPackageEvents = {
  create: event('web_package.create', 'A web content package was added to a course section.'),
  delete: event('web_package.delete', 'A web content package was removed from a course section, with its files.'),
};

const sectionOf = (id: number): RealmRef => ({ type: 'SECTION', id });

/** A package's section, or a NotFoundError; a section named in the request must be the package's own. */
async function findPackageSection(id: number, sectionId: number | null): Promise<RealmRef> {
  const found = await findByStorableId(id, (id) =>
    db().webPackage.findUnique({ where: { id }, select: { realmId: true } }),
  );
  if (!found || (sectionId !== null && found.realmId !== sectionId)) throw new NotFoundError('WebPackage', id);
  return sectionOf(found.realmId);
}

/** For queries: whether the viewer sees the package (false: null), a 403 when its section is closed to them. */
export async function webPackageReadable(viewer: Viewer, id: number, sectionId: number | null): Promise<boolean> {
  let section;
  try {
    section = await findPackageSection(id, sectionId);
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
  return sectionReadable(viewer, section);
}

/** Whether the viewer reads the section's packages: false when the section is hidden, a 403 when it is closed. */
export async function sectionReadable(viewer: Viewer, section: RealmRef): Promise<boolean> {
  const verdict = await verdictOf(viewer, webPackagePolicy, 'read', section);
  if (typeof verdict === 'object') throw forbidden(verdict.forbid);
  return verdict === 'allow';
}

/**
 * The page the launch URL opens: `index.html` at the top, else that of the one folder everything is in (zips made by
 * zipping a folder), else the first HTML page. A package without an HTML page is no website.
 */
function entryPathOf(files: UnpackedFile[]): string {
  const paths = files.map((file) => file.path).sort();
  const tops = new Set(paths.map((path) => path.split('/')[0]));
  const candidates = [
    'index.html',
    'index.htm',
    ...(tops.size === 1 ? [`${[...tops][0]}/index.html`, `${[...tops][0]}/index.htm`] : []),
  ];
  const entry = candidates.find((path) => paths.includes(path)) ?? paths.find((path) => /\.html?$/i.test(path));
  if (!entry) throw new ValidationError([{ field: 'uploadId', message: 'the zip holds no HTML page to open' }]);
  return entry;
}

/**
 * Unpacks the viewer's stored upload (a zip) into a new package of the section. The zip is unpacked before the
 * transaction (it may take a while); when anything fails, the files unpacked so far are removed again.
 */
export async function createWebPackage(viewer: Viewer, sectionId: number, input: unknown, query: WebPackageQuery) {
  const section = sectionOf(sectionId);
  const facts = await realmFactsFor(viewer, section, 'visible');
  await authorize(viewer, webPackagePolicy, 'write', section, sectionId);
  const { title, uploadId } = validate(createWebPackageSchema, input);
  const upload = await findByStorableId(uploadId, (id) =>
    db().upload.findFirst({
      where: { id, ...attachableUploadsWhere(viewer) },
      select: { storageKey: true, filesize: true },
    }),
  );
  if (!upload)
    throw new ValidationError([
      { field: 'uploadId', message: `upload ${uploadId} is not among your stored, unattached uploads` },
    ]);
  const store = fileStore();
  const files = await unpackZip(store, upload.storageKey, upload.filesize, settings);
  try {
    const entryPath = entryPathOf(files);
    return await writeTransaction(async (tx) => {
      await attachUploads(tx, viewer, [uploadId], 'uploadId');
      const created = await tx.webPackage.create({
        data: {
          realmType: 'SECTION',
          realmId: sectionId,
          title,
          creatorId: viewer.id,
          uploadId,
          entryPath,
          files: { createMany: { data: files } },
        },
        select: { id: true },
      });
      await recordEvent(tx, webPackageEvents.create, {
        realm: section,
        objectId: created.id,
        actorId: viewer.id,
        scope: facts,
      });
      return tx.webPackage.findUniqueOrThrow({ ...query, where: { id: created.id } });
    });
  } catch (error) {
    await Promise.all(files.map((file) => store.remove(file.storageKey)));
    throw error;
  }
}

/** Deletes a package; its files and zip are removed once the deletion commits. */
export async function deleteWebPackage(viewer: Viewer, id: number, sectionId: number | null) {
  const section = await findPackageSection(id, sectionId);
  const facts = await realmFactsFor(viewer, section, 'visible');
  await authorize(viewer, webPackagePolicy, 'write', section, id);
  await writeTransaction(async (tx) => {
    await removeFilesAfterCommit(tx, { id });
    await tx.webPackage.delete({ where: { id } });
    await recordEvent(tx, webPackageEvents.delete, { realm: section, objectId: id, actorId: viewer.id, scope: facts });
  });
  return { id };
}

/** One file of a package, for its site; null when either is not there. */
export function findPackageFile(packageId: number, path: string) {
  return db().webPackageFile.findUnique({
    where: { packageId_path: { packageId, path } },
    select: { storageKey: true, size: true, contentType: true },
  });
}
