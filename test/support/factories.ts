import { createHash, randomBytes } from 'node:crypto';
import { db } from '../../src/db/database';
import type { CalendarEventType, FileKind, PrivacyLevel, RealmType, Role } from '../../src/generated/prisma/enums';
import { fileStore } from '../../src/modules/uploads/file-store';

let sequence = 0;
/** Unique per process and call, so tests never collide on usernames or codes. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

export const createDistrict = (title = unique('District')) => db().district.create({ data: { title } });

export const createSchool = (districtId: number, fields: { title?: string; parentId?: number } = {}) =>
  db().school.create({
    data: { districtId, title: fields.title ?? unique('School'), parentId: fields.parentId ?? null },
  });

export const createUser = (
  schoolId: number,
  role: Role,
  fields: { buildingId?: number; triggerAdmin?: boolean } = {},
) =>
  db().user.create({
    data: {
      schoolId,
      role,
      username: unique(role.toLowerCase()),
      nameFirst: 'Test',
      nameLast: unique('User'),
      email: `${unique('u')}@example.test`,
      buildingId: fields.buildingId ?? null,
      triggerAdmin: fields.triggerAdmin ?? false,
    },
  });

export async function createGroup(
  schoolId: number,
  fields: {
    privacyLevel?: PrivacyLevel;
    buildingId?: number;
    admins?: number[];
    members?: number[];
    title?: string;
    memberPost?: boolean;
    memberPostComment?: boolean;
  } = {},
) {
  return db().group.create({
    data: {
      schoolId,
      title: fields.title ?? unique('Group'),
      accessCode: unique('CODE'),
      privacyLevel: fields.privacyLevel ?? 'SCHOOL',
      buildingId: fields.buildingId ?? null,
      memberPost: fields.memberPost ?? true,
      memberPostComment: fields.memberPostComment ?? true,
      memberships: {
        create: [
          ...(fields.admins ?? []).map((userId) => ({ userId, admin: true })),
          ...(fields.members ?? []).map((userId) => ({ userId, admin: false })),
        ],
      },
    },
  });
}

export async function createSection(schoolId: number, enrollments: { userId: number; admin?: boolean }[] = []) {
  const course = await db().course.create({ data: { schoolId, title: unique('Course'), courseCode: unique('C') } });
  return db().section.create({
    data: {
      courseId: course.id,
      title: unique('Section'),
      enrollments: { create: enrollments.map(({ userId, admin }) => ({ userId, admin: admin ?? false })) },
    },
  });
}

/**
 * A district with a school (and a building of it) and one user of each role, plus an outsider from another district:
 * the cast of most permission tests.
 */
export async function createWorld() {
  const district = await createDistrict();
  const school = await createSchool(district.id);
  const building = await createSchool(district.id, { parentId: school.id });
  const otherSchool = await createSchool(district.id);
  const otherDistrict = await createDistrict();
  const farSchool = await createSchool(otherDistrict.id);
  return {
    district,
    school,
    building,
    otherSchool,
    otherDistrict,
    farSchool,
    districtAdmin: await createUser(school.id, 'DISTRICT_ADMIN'),
    schoolAdmin: await createUser(school.id, 'SCHOOL_ADMIN'),
    teacher: await createUser(school.id, 'TEACHER', { buildingId: building.id }),
    student: await createUser(school.id, 'STUDENT', { buildingId: building.id }),
    parent: await createUser(school.id, 'PARENT'),
    otherSchoolStudent: await createUser(otherSchool.id, 'STUDENT'),
    outsider: await createUser(farSchool.id, 'DISTRICT_ADMIN'),
  };
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/** Blog posts written straight to the database (for paging tests), oldest first; returns them in id order. */
export async function createBlogPosts(
  realm: { type: RealmType; id: number },
  count: number,
  fields: { title?: (index: number) => string; body?: string; authorId?: number } = {},
) {
  const posts = [];
  for (let index = 0; index < count; index++) {
    posts.push(
      await db().blogPost.create({
        data: {
          realmType: realm.type,
          realmId: realm.id,
          title: fields.title?.(index) ?? unique('Post'),
          body: fields.body ?? '',
          authorId: fields.authorId ?? null,
        },
      }),
    );
  }
  return posts;
}

export const createGroupCategory = (districtId: number, title = unique('Category')) =>
  db().groupCategory.create({ data: { districtId, title } });

/**
 * Marks the domain-event stream: the returned function reads the events recorded since the mark, oldest first, as
 * `[type, realmType, realmId, objectId, actorId, districtId, schoolId]` tuples that tests compare exactly.
 */
export async function watchDomainEvents() {
  const last = await db().domainEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } });
  const after = last?.id ?? 0n;
  return async () =>
    (await db().domainEvent.findMany({ where: { id: { gt: after } }, orderBy: { id: 'asc' } })).map((event) => [
      event.type,
      event.realmType,
      event.realmId,
      event.objectId,
      event.actorId,
      event.districtId,
      event.schoolId,
    ]);
}

/** A pending invite written straight to the database (no membership check, no event), dated `createdAt` if given. */
export const createInvite = (
  userId: number,
  to: { groupId: number } | { sectionId: number },
  fields: { inviterId?: number; createdAt?: Date } = {},
) => db().invite.create({ data: { userId, ...to, inviterId: fields.inviterId ?? null, createdAt: fields.createdAt } });

/** A pending friend request from `requesterId` to `userId`, written straight to the database, dated `createdAt` if given. */
export const createFriendRequest = (requesterId: number, userId: number, fields: { createdAt?: Date } = {}) =>
  db().friendRequest.create({ data: { requesterId, userId, createdAt: fields.createdAt } });

/** A calendar event written straight to the database (a due event, say, which the API does not create). */
export const createCalendarEvent = (
  realm: { type: RealmType; id: number },
  fields: {
    start: Date;
    end?: Date | null;
    title?: string;
    type?: CalendarEventType;
    allDay?: boolean;
    authorId?: number | null;
  },
) =>
  db().calendarEvent.create({
    data: {
      realmType: realm.type,
      realmId: realm.id,
      title: fields.title ?? unique('Event'),
      start: fields.start,
      end: fields.end ?? null,
      type: fields.type ?? 'EVENT',
      allDay: fields.allDay ?? false,
      authorId: fields.authorId ?? null,
    },
  });

/** A page written straight to the database, published unless told otherwise. */
export const createPage = (
  realm: { type: RealmType; id: number },
  fields: {
    title?: string;
    body?: string;
    published?: boolean;
    parentId?: number;
    assigneeIds?: number[];
    gradingGroupIds?: number[];
  } = {},
) =>
  db().page.create({
    data: {
      realmType: realm.type,
      realmId: realm.id,
      title: fields.title ?? unique('Page'),
      body: fields.body ?? '',
      published: fields.published ?? true,
      parentId: fields.parentId ?? null,
      assignees: { create: (fields.assigneeIds ?? []).map((enrollmentId) => ({ enrollmentId })) },
      gradingGroups: { create: (fields.gradingGroupIds ?? []).map((gradingGroupId) => ({ gradingGroupId })) },
    },
  });

/** A grading group of enrollments of a section, written straight to the database. */
export const createGradingGroup = (sectionId: number, enrollmentIds: number[] = []) =>
  db().gradingGroup.create({
    data: {
      sectionId,
      title: unique('Grading group'),
      members: { create: enrollmentIds.map((enrollmentId) => ({ enrollmentId })) },
    },
  });

interface StoredUploadFields {
  bytes?: Buffer;
  filename?: string;
  kind?: FileKind;
  mimeType?: string;
  attached?: boolean;
  thumbnail?: Buffer;
}

/** Writes an upload's bytes (and thumbnail) to the file store; the row that describes them. */
async function storeUploadFiles(ownerId: number, fields: StoredUploadFields) {
  const bytes = fields.bytes ?? randomBytes(64);
  const storageKey = `f-${randomBytes(16).toString('hex')}`;
  await fileStore().write(storageKey, [bytes]);
  if (fields.thumbnail) await fileStore().write(`${storageKey}-thumb`, [fields.thumbnail]);
  return {
    ownerId,
    filename: fields.filename ?? 'file.bin',
    filesize: bytes.length,
    md5Checksum: createHash('md5').update(bytes).digest('hex'),
    storageKey,
    status: 'STORED' as const,
    kind: fields.kind ?? 'FILE',
    mimeType: fields.mimeType ?? 'application/octet-stream',
    storedAt: new Date(),
    attachedAt: fields.attached ? new Date() : null,
    ...(fields.thumbnail ? { thumbnailKey: `${storageKey}-thumb`, thumbnailWidth: 2, thumbnailHeight: 1 } : {}),
  };
}

/** A stored upload written straight to the file store and database (no media examination), owned by `ownerId`. */
export async function createStoredUpload(ownerId: number, fields: StoredUploadFields = {}) {
  return db().upload.create({ data: await storeUploadFiles(ownerId, fields) });
}

/** Plain stored files, one for each owner listed, in one statement: fuzz stages need a hundred of them. */
export async function createStoredUploads(ownerIds: readonly number[]) {
  const rows = await Promise.all(ownerIds.map((ownerId) => storeUploadFiles(ownerId, {})));
  return db().upload.createManyAndReturn({ data: rows, select: { id: true, ownerId: true } });
}

/** An album written straight to the database, published with comments on unless told otherwise. */
export const createAlbum = (
  realm: { type: RealmType; id: number },
  fields: {
    title?: string;
    published?: boolean;
    settingComments?: boolean;
    settingMemberPost?: boolean;
    creatorId?: number;
  } = {},
) =>
  db().album.create({
    data: { realmType: realm.type, realmId: realm.id, title: fields.title ?? unique('Album'), ...fields },
  });

/** An album item of a fresh stored upload of `ownerId`'s. */
export async function createAlbumItem(
  albumId: number,
  ownerId: number,
  fields: { kind?: FileKind; albumCover?: boolean; thumbnail?: Buffer } = {},
) {
  const upload = await createStoredUpload(ownerId, { kind: fields.kind, attached: true, thumbnail: fields.thumbnail });
  return db().albumContent.create({
    data: { albumId, uploadId: upload.id, creatorId: ownerId, albumCover: fields.albumCover ?? false },
  });
}

/** A web content package of one page written straight to the file store and database (no unpacking, no event). */
export async function createWebPackage(sectionId: number, creatorId: number, fields: { title?: string } = {}) {
  const upload = await createStoredUpload(creatorId, { filename: 'site.zip', attached: true });
  const storageKey = `w-${randomBytes(16).toString('hex')}`;
  const page = Buffer.from('<!doctype html><title>Package</title>');
  await fileStore().write(storageKey, [page]);
  return db().webPackage.create({
    data: {
      realmType: 'SECTION',
      realmId: sectionId,
      title: fields.title ?? unique('Package'),
      creatorId,
      uploadId: upload.id,
      entryPath: 'index.html',
      files: {
        create: [{ path: 'index.html', storageKey, size: page.length, contentType: 'text/html; charset=utf-8' }],
      },
    },
  });
}
