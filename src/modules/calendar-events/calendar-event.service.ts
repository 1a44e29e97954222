import { authorize, realmContentReader, realmFactsFor } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer, ViewerUser } from '../../auth/viewer';
import { readDay, readWallClockOrInstant, startOfDay } from '../../core/date-text';
import { NotFoundError, ValidationError, invalidArgument } from '../../core/errors';
import { ownedByRealm } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import type { RealmType } from '../../generated/prisma/enums';
import { attachUploads, discardUploads } from '../uploads/upload.service';
import { calendarEventPolicy } from './calendar-event.policy';
import { createCalendarEventSchema, updateCalendarEventSchema } from './calendar-event.validation';

type EventQuery = { select?: Prisma.CalendarEventSelect };

ownedByRealm('CalendarEvent', async (tx, where) => {
  await discardUploads(tx, { calendarEventAttachment: { event: where } });
  await tx.calendarEvent.deleteMany({ where });
});

export const everyRealm = ['DISTRICT', 'SCHOOL', 'USER', 'SECTION', 'GROUP'] as const;
const calendarEvent = (type: `calendar_event.${string}`, description: string) =>
  defineEvent(type, { object: 'CalendarEvent', realms: everyRealm, description });
export const calendarEventEvents = {
  create: calendarEvent('calendar_event.create', 'A calendar event was created.'),
  update: calendarEvent('calendar_event.update', 'A calendar event was changed.'),
  delete: calendarEvent('calendar_event.delete', 'A calendar event was deleted.'),
};

/** Events of a calendar come in the order they happen; events that start together, in the order they were made. */
export const calendarOrder = [{ start: 'asc' }, { id: 'asc' }] satisfies Prisma.CalendarEventOrderByWithRelationInput[];

/** The IANA time zone in which a district's dates and times are written and read, once per request. */
export async function districtTimeZone(viewer: Viewer, districtId: number): Promise<string> {
  return viewer.memo(`time-zone:${districtId}`, async () => {
    const district = await db().district.findUnique({ where: { id: districtId }, select: { timeZone: true } });
    return district?.timeZone ?? 'UTC';
  });
}

export const assertReadable = realmContentReader(calendarEventPolicy);

/** The instants `startDate` and `endDate` (days, both or neither) bound: from the first's midnight to the day after the second. */
export function dayRange(startDate: string | null | undefined, endDate: string | null | undefined, timeZone: string) {
  // As on the platform, the list is limited only when both days are given.
  if (!startDate || !endDate) return null;
  const first = readDay(startDate);
  if (!first) throw invalidArgument('startDate', `'${startDate}' is not a day as YYYY-MM-DD or YYYYMMDD`);
  const last = readDay(endDate);
  if (!last) throw invalidArgument('endDate', `'${endDate}' is not a day as YYYY-MM-DD or YYYYMMDD`);
  const range = { gte: startOfDay(first, timeZone), lt: startOfDay(last, timeZone, 1) };
  if (range.lt <= range.gte) throw invalidArgument('endDate', 'must not be before startDate');
  return range;
}

interface Schedule {
  start: Date;
  end: Date | null;
}

interface ScheduleInput {
  start?: string;
  end?: string | null;
  hasEnd?: boolean;
}

/**
 * When the event happens, from the times given over the current ones: wall-clock times are read in the district's
 * time zone, instants (with `Z` or an offset) as they are.
 * As on the platform, `end` counts only while `hasEnd` is true, and then it is required and after `start`.
 */
function scheduleOf(input: ScheduleInput, current: Schedule | null, timeZone: string): Schedule {
  const issues: { field: string; message: string }[] = [];
  const read = (field: 'start' | 'end', text: string) => {
    const instant = readWallClockOrInstant(text, timeZone);
    if (!instant) issues.push({ field, message: `'${text}' is not a date and time that exists` });
    return instant;
  };
  const start = input.start !== undefined ? read('start', input.start) : current!.start;
  const hasEnd = input.hasEnd ?? (current !== null && current.end !== null);
  let end: Date | null = null;
  if (hasEnd) {
    end = input.end ? read('end', input.end) : input.end === undefined ? (current?.end ?? null) : null;
    if (!end && !issues.some((issue) => issue.field === 'end'))
      issues.push({ field: 'end', message: 'is required when hasEnd is true' });
  }
  if (start && end && end <= start) issues.push({ field: 'end', message: 'must be after start' });
  if (issues.length) throw new ValidationError(issues);
  return { start: start!, end };
}

/** The event must belong to the realm named in the request, or it is not found there. */
async function eventInRealm(realm: RealmRef, id: number) {
  const event = await findByStorableId(id, (id) =>
    db().calendarEvent.findFirst({
      where: { id, realmType: realm.type, realmId: realm.id },
      select: { authorId: true, type: true, start: true, end: true },
    }),
  );
  if (!event) throw new NotFoundError('CalendarEvent', id);
  return { realm, ...event };
}

/**
 * The event's files become `fileIds`: files it keeps stay, new ones (the viewer's stored uploads) are attached, and
 * the files it no longer lists are discarded once the transaction commits.
 */
async function replaceAttachments(tx: Prisma.TransactionClient, viewer: Viewer, eventId: number, fileIds: number[]) {
  const kept = new Set(
    (await tx.calendarEventAttachment.findMany({ where: { eventId }, select: { uploadId: true } })).map(
      (row) => row.uploadId,
    ),
  );
  const added = fileIds.filter((uploadId) => !kept.has(uploadId));
  const dropped = [...kept].filter((uploadId) => !fileIds.includes(uploadId));
  await attachUploads(tx, viewer, added, 'fileIds');
  await discardUploads(tx, { id: { in: dropped } });
  return { deleteMany: { uploadId: { in: dropped } }, create: added.map((uploadId) => ({ uploadId })) };
}

export async function createCalendarEvent(viewer: Viewer, realm: RealmRef, input: unknown, query: EventQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, calendarEventPolicy, 'create', realm, realm.id);
  const { start, end, hasEnd, fileIds = [], ...fields } = validate(createCalendarEventSchema, input);
  const schedule = scheduleOf({ start, end, hasEnd }, null, await districtTimeZone(viewer, facts.districtId));
  return writeTransaction(async (tx) => {
    if (fileIds.length) await attachUploads(tx, viewer, fileIds, 'fileIds');
    const event = await tx.calendarEvent.create({
      ...query,
      data: {
        ...fields,
        ...schedule,
        realmType: realm.type,
        realmId: realm.id,
        authorId: viewer.id,
        attachments: { create: fileIds.map((uploadId) => ({ uploadId })) },
      },
    });
    await recordEvent(tx, calendarEventEvents.create, { realm, objectId: event.id, actorId: viewer.id, scope: facts });
    return event;
  });
}

export async function updateCalendarEvent(
  viewer: Viewer,
  realm: RealmRef,
  id: number,
  input: unknown,
  query: EventQuery,
) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  const current = await eventInRealm(realm, id);
  await authorize(viewer, calendarEventPolicy, 'update', current, id);
  const { start, end, hasEnd, fileIds, ...fields } = validate(updateCalendarEventSchema, input);
  const schedule = scheduleOf({ start, end, hasEnd }, current, await districtTimeZone(viewer, facts.districtId));
  return writeTransaction(async (tx) => {
    const attachments = fileIds && (await replaceAttachments(tx, viewer, id, fileIds));
    const event = await tx.calendarEvent.update({
      ...query,
      where: { id },
      data: { ...fields, ...schedule, attachments },
    });
    await recordEvent(tx, calendarEventEvents.update, { realm, objectId: id, actorId: viewer.id, scope: facts });
    return event;
  });
}

export async function deleteCalendarEvent(viewer: Viewer, realm: RealmRef, id: number) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, calendarEventPolicy, 'delete', await eventInRealm(realm, id), id);
  await writeTransaction(async (tx) => {
    await discardUploads(tx, { calendarEventAttachment: { eventId: id } });
    await tx.calendarEvent.delete({ where: { id } });
    await recordEvent(tx, calendarEventEvents.delete, { realm, objectId: id, actorId: viewer.id, scope: facts });
  });
  return { id };
}

/**
 * The realms whose events make up a user's calendar, as the platform's calendar shows them: their district, their
 * school and building, their own, the sections they are actively enrolled in and the groups they belong to.
 */
export function calendarRealmsWhere(
  user: ViewerUser,
  sectionIds: number[],
  groupIds: number[],
): Prisma.CalendarEventWhereInput {
  const realms: [RealmType, number[]][] = [
    ['DISTRICT', [user.districtId]],
    ['SCHOOL', user.buildingId === null ? [user.schoolId] : [user.schoolId, user.buildingId]],
    ['USER', [user.id]],
    ['SECTION', sectionIds],
    ['GROUP', groupIds],
  ];
  return {
    OR: realms.filter(([, ids]) => ids.length).map(([realmType, ids]) => ({ realmType, realmId: { in: ids } })),
  };
}

/** The events of a user's calendar under way at some time in [from, to): started before `to`, not ended before `from`. */
export const calendarWhere = (
  realms: Prisma.CalendarEventWhereInput,
  from: Date,
  to: Date,
): Prisma.CalendarEventWhereInput => ({
  AND: [realms, { start: { lt: to } }, { OR: [{ end: { gte: from } }, { end: null, start: { gte: from } }] }],
});
