import { z } from 'zod';
import { isStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { httpError, invalidArgument } from '../../core/errors';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { AttendanceStatus } from '../../generated/prisma/enums';
import { pageWindow } from '../../graphql/paging';
import { hiddenWhenRefused } from '../../graphql/nodes';
import { GraphQLError } from 'graphql';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { encodeGlobalId } from '../../core/global-id';
import { attendanceReach, attendanceTaker, readableEnrollments, readsEnrollment } from './attendance.policy';
import { attendanceItemSchema, dayRange, dayText, maxAttendanceItems } from './attendance.validation';

const section = (id: number) => ({ type: 'SECTION' as const, id });

/** Status codes in the platform's order (1 present ... 4 excused): lists and totals follow it. */
export const statusOrder: readonly AttendanceStatus[] = ['PRESENT', 'ABSENT', 'LATE', 'EXCUSED'];

// `id` is the record written; events recorded before it was kept have none.
const updatedItems = z
  .object({ items: z.array(z.object({ enrollmentId: z.int(), date: z.string(), id: z.int().optional() }).strict()) })
  .strict();

// An entry's object is the record itself, which /v1 has no view of (its list leaves present records out): read as
// `node` reads it, through the list's own rule (visibleAttendanceRecords).
const RecordOfEntry = graphql(
  `query($id: ID!) { node(id: $id) { ... on AttendanceRecord { enrollmentId date status comment } } }`,
);

export const attendanceEvents = {
  // One bulk write is one event with an entry per item. Whose attendance changed is for the section's teachers and
  // administrators, not for its students: heard live by its administrators only.
  update: defineEvent('attendance.update', {
    object: 'Section',
    realms: ['SECTION'],
    description: 'Attendance was taken or changed in a section (one event per write, an entry per enrollment and day).',
    audience: 'administrators',
    data: updatedItems,
    entries: ({ items }) =>
      items.map(({ enrollmentId, date, id }) => ({
        ids: { enrollment_id: enrollmentId, date },
        // The single record, as in the platform's attendance event example: enrollment_id, date, status and comment.
        read:
          id === undefined
            ? undefined
            : {
                document: RecordOfEntry,
                variables: { id: encodeGlobalId('AttendanceRecord', id) },
                object: ({ node }: ResultOf<typeof RecordOfEntry>) =>
                  node && 'status' in node
                    ? {
                        enrollment_id: Number(node.enrollmentId),
                        date: node.date,
                        status: statusOrder.indexOf(node.status) + 1,
                        comment: node.comment ?? '',
                      }
                    : null,
              },
      })),
  }),
};

/**
 * A district that keeps attendance in a third-party student-information-system app has none here: 410 Gone, as on the
 * platform. Asked after the viewer's access, so that only those who may see the section learn it.
 */
export async function assertAttendanceKeptHere(viewer: Viewer, sectionId: number) {
  const { districtId } = await realmFacts(viewer, section(sectionId));
  const district = await db().district.findUnique({ where: { id: districtId }, select: { attendanceApp: true } });
  if (district?.attendanceApp) {
    throw httpError(
      410,
      'GONE',
      `Attendance of this district is kept in its attendance app (${district.attendanceApp})`,
    );
  }
}

export interface AttendanceRow {
  id: number;
  enrollmentId: number;
  sectionId: number;
  date: Date;
  status: AttendanceStatus;
  comment: string;
  updatedAt: Date;
}

export interface AttendanceDay {
  date: string;
  statuses: { status: AttendanceStatus; records: AttendanceRow[] }[];
}

export interface AttendancePage {
  items: AttendanceDay[];
  total: number;
  start: number;
  limit: number;
  totals: { status: AttendanceStatus; count: number }[];
}

export interface AttendanceFilters {
  startDate?: string | null;
  endDate?: string | null;
  enrollmentId?: string | null;
}

export interface AttendanceQuery extends AttendanceFilters {
  start?: number | null;
  limit?: number | null;
}

/** The days attendance was taken in a section's range, which both `attendance` and `attendanceConnection` page over. */
export interface AttendanceSpan {
  /** Every day attendance was taken in the range, earliest first. */
  days: Date[];
  /** Some of `days` with their records other than present, grouped by status. */
  daysOf(days: Date[]): Promise<AttendanceDay[]>;
  /** Per status, the enrollment-days of the whole range (see `listAttendance`); asked once, when wanted. */
  totals(): Promise<AttendancePage['totals']>;
}

/**
 * The days attendance was taken (any record of the section exists that day) in a section's range, as the viewer reads
 * them: a student only their own records, a parent their children's; null for a hidden section.
 */
export async function attendanceSpan(
  viewer: Viewer,
  sectionId: number,
  filters: AttendanceFilters,
): Promise<AttendanceSpan | null> {
  const reach = await attendanceReach(viewer, sectionId);
  if (!reach) return null;
  await assertAttendanceKeptHere(viewer, sectionId);
  const date = dayRange(filters.startDate, filters.endDate);
  let enrollments = readableEnrollments(reach);
  if (filters.enrollmentId !== null && filters.enrollmentId !== undefined && filters.enrollmentId !== '') {
    const wanted = Number(filters.enrollmentId);
    if (!/^\d+$/.test(filters.enrollmentId) || !isStorableId(wanted))
      throw invalidArgument('enrollmentId', 'must be a numeric id');
    // Lists are filtered, not failed: an enrollment the viewer may not see has no records for them.
    enrollments = enrollments === null || enrollments.includes(wanted) ? [wanted] : [];
  }
  const whose = enrollments === null ? {} : { enrollmentId: { in: enrollments } };

  const [taken, counted] = await Promise.all([
    db().attendanceRecord.groupBy({ by: ['date'], where: { sectionId, date }, orderBy: { date: 'asc' } }),
    db().enrollment.findMany({
      where: {
        sectionId,
        admin: false,
        status: 'ACTIVE',
        ...(enrollments === null ? {} : { id: { in: enrollments } }),
      },
      select: { id: true },
    }),
  ]);
  const days = taken.map((row) => row.date);
  const countedIds = counted.map((enrollment) => enrollment.id);

  const daysOf = async (pageDays: Date[]) => {
    const records = pageDays.length
      ? await db().attendanceRecord.findMany({
          where: { sectionId, date: { in: pageDays }, status: { not: 'PRESENT' }, ...whose },
          orderBy: [{ date: 'asc' }, { status: 'asc' }, { enrollmentId: 'asc' }],
        })
      : [];
    return pageDays.map((day): AttendanceDay => {
      const ofDay = records.filter((record) => record.date.getTime() === day.getTime());
      const statuses = statusOrder
        .map((status) => ({ status, records: ofDay.filter((record) => record.status === status) }))
        .filter((group) => group.records.length > 0);
      return { date: dayText(day), statuses };
    });
  };
  let totals: Promise<AttendancePage['totals']> | undefined;
  const countTotals = async () => {
    const absences = await db().attendanceRecord.groupBy({
      by: ['status'],
      where: { sectionId, date, status: { not: 'PRESENT' }, enrollmentId: { in: countedIds } },
      _count: { _all: true },
    });
    const notPresent = new Map(absences.map((row) => [row.status, row._count._all]));
    const absent = [...notPresent.values()].reduce((sum, count) => sum + count, 0);
    return statusOrder
      .map((status) => ({
        status,
        count: status === 'PRESENT' ? days.length * countedIds.length - absent : (notPresent.get(status) ?? 0),
      }))
      .filter((total) => total.count > 0);
  };
  return { days, daysOf, totals: () => (totals ??= countTotals()) };
}

/**
 * A section's attendance by day, paged over the days attendance was taken in the range (see `attendanceSpan`): each
 * day with its records grouped by status, present records left out. `totals` count over every day of the range (not
 * only this page), each active student enrollment once a day: its recorded status, or present when it has no record
 * that day.
 */
export async function listAttendance(
  viewer: Viewer,
  sectionId: number,
  query: AttendanceQuery,
): Promise<AttendancePage | null> {
  const span = await attendanceSpan(viewer, sectionId, query);
  if (!span) return null;
  const { start, limit } = pageWindow(query);
  const [items, totals] = await Promise.all([span.daysOf(span.days.slice(start, start + limit)), span.totals()]);
  return { items, total: span.days.length, start, limit, totals };
}

/** What became of an item of an attendance write: its name in GraphQL, and its /v1 `response_code`. */
export const attendanceItemCodes = { WRITTEN: 200, INVALID: 400, NOT_FOUND: 404 } as const;
type AttendanceItemCode = (typeof attendanceItemCodes)[keyof typeof attendanceItemCodes];

export interface AttendanceResult {
  enrollmentId: string;
  date: string;
  code: AttendanceItemCode;
  message: string | null;
  /** The record written; null for an item that was not. */
  recordId: number | null;
}

export interface AttendanceItemInput {
  enrollmentId: string | number;
  date: string;
  status?: AttendanceStatus | null;
  comment?: string | null;
}

/**
 * Sets the attendance of enrollments of a section, item by item (the section's teachers and administrators): each
 * item replaces the record of its enrollment and day (200, with the record's id). An item that cannot be written fails
 * alone with its code: 400 for a bad date or status or a teacher's enrollment, 404 for an enrollment that is not of
 * this section. The good items are written in one transaction with one `attendance.update` event carrying them all.
 */
export async function setAttendance(
  viewer: Viewer,
  sectionId: number,
  items: readonly AttendanceItemInput[],
): Promise<{ results: AttendanceResult[] }> {
  const facts = await attendanceTaker(viewer, sectionId);
  await assertAttendanceKeptHere(viewer, sectionId);
  if (items.length > maxAttendanceItems)
    throw httpError(
      400,
      'BAD_USER_INPUT',
      `At most ${maxAttendanceItems.toLocaleString('en-US')} attendance items at once`,
    );

  const parsed = items.map((item) =>
    attendanceItemSchema.safeParse({ ...item, enrollmentId: String(item.enrollmentId) }),
  );
  const ids = [
    ...new Set(
      parsed.flatMap((item) => (item.success && isStorableId(item.data.enrollmentId) ? [item.data.enrollmentId] : [])),
    ),
  ];
  const roster = new Map(
    (await db().enrollment.findMany({ where: { sectionId, id: { in: ids } }, select: { id: true, admin: true } })).map(
      (row) => [row.id, row.admin],
    ),
  );

  const results: AttendanceResult[] = [];
  const writes: (z.output<typeof attendanceItemSchema> & { result: AttendanceResult })[] = [];
  // biome-ignore lint/suspicious/useIterableCallbackReturn: each early return is the item's answer, recorded by `answer`
  items.forEach((item, at) => {
    const outcome = parsed[at]!;
    const answer = (code: AttendanceItemCode, message: string | null) =>
      results.push({
        enrollmentId: String(item.enrollmentId),
        date: outcome.success ? dayText(outcome.data.date) : String(item.date),
        code,
        message,
        recordId: null,
      });
    if (!outcome.success) {
      const issue = outcome.error.issues[0]!;
      return answer(400, `${issue.path.join('.')}: ${issue.message}`);
    }
    const admin = roster.get(outcome.data.enrollmentId);
    if (admin === undefined)
      return answer(404, `enrollmentId: ${item.enrollmentId} is not an enrollment of this section`);
    if (admin)
      return answer(
        400,
        `enrollmentId: ${item.enrollmentId} is a teacher's enrollment; attendance is taken for students`,
      );
    answer(200, null);
    writes.push({ result: results.at(-1)!, ...outcome.data });
  });

  if (writes.length) {
    // An enrollment and day given twice is one record, which the last item given sets.
    const written = new Map<string, { enrollmentId: number; date: string; id: number }>();
    await writeTransaction(async (tx) => {
      for (const { enrollmentId, date, status, comment, result } of writes) {
        const { id } = await tx.attendanceRecord.upsert({
          where: { enrollmentId_date: { enrollmentId, date } },
          create: { enrollmentId, sectionId, date, status, comment },
          update: { status, comment },
          select: { id: true },
        });
        result.recordId = id;
        written.set(`${enrollmentId}:${dayText(date)}`, { enrollmentId, date: dayText(date), id });
      }
      await recordEvent(tx, attendanceEvents.update, {
        realm: section(sectionId),
        objectId: sectionId,
        actorId: viewer.id,
        scope: facts,
        data: { items: [...written.values()] },
      });
    });
  }
  return { results };
}

/**
 * For `node`: the attendance records among `ids` the viewer reads in `attendance(sectionId)`: of a section they reach,
 * of an enrollment within their reach, in a district that keeps attendance here (else the list is GONE: hidden).
 */
export async function visibleAttendanceRecords(viewer: Viewer, ids: number[]): Promise<number[]> {
  const rows = await db().attendanceRecord.findMany({
    where: { id: { in: ids } },
    select: { id: true, sectionId: true, enrollmentId: true },
  });
  const sectionIds = [...new Set(rows.map((row) => row.sectionId))];
  const reaches = await Promise.all(
    sectionIds.map(async (sectionId) => {
      const reach = await attendanceReach(viewer, sectionId).catch(hiddenWhenRefused);
      if (!reach) return null;
      const kept = await assertAttendanceKeptHere(viewer, sectionId).then(
        () => true,
        (error: unknown) => {
          if (error instanceof GraphQLError && error.extensions.code === 'GONE') return false;
          throw error;
        },
      );
      return kept ? reach : null;
    }),
  );
  const reachOf = new Map(sectionIds.map((sectionId, index) => [sectionId, reaches[index]]));
  return rows
    .filter((row) => {
      const reach = reachOf.get(row.sectionId);
      return reach && readsEnrollment(reach, row.enrollmentId);
    })
    .map((row) => row.id);
}
