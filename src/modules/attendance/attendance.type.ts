import type { AttendanceRecord, Enrollment } from '../../generated/prisma/client';
import { EnrollmentType } from '../roster/roster.type';
import { builder } from '../../graphql/builder';
import { readById } from '../../graphql/reads-by-id';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';
import {
  type AttendanceDay,
  type AttendancePage,
  type AttendanceResult,
  attendanceItemCodes,
} from './attendance.service';
import { dayText } from './attendance.validation';

export const AttendanceStatusEnum = builder.enumType('AttendanceStatus', {
  description: "An enrollment's attendance on a day (the /v1 status code in brackets).",
  values: {
    PRESENT: { value: 'PRESENT', description: 'Present (1).' },
    ABSENT: { value: 'ABSENT', description: 'Absent (2).' },
    LATE: { value: 'LATE', description: 'Late (3).' },
    EXCUSED: { value: 'EXCUSED', description: 'Excused (4).' },
  } as const,
});

const AttendanceRecordType = builder.prismaNode('AttendanceRecord', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'AttendanceRecord', ['updatedAt']),
    ...exposeOptionalText(t, 'AttendanceRecord', ['comment']),
    enrollmentId: t.exposeID('enrollmentId', { description: 'The enrollment.' }),
    sectionId: t.exposeID('sectionId', { description: 'The section.' }),
    enrollment: t.relation('enrollment', { description: 'The enrollment (`enrollmentId`).' }),
    section: t.relation('section', { description: 'The section (`sectionId`).' }),
    date: t.string({ description: 'The day, YYYY-MM-DD.', resolve: (record) => dayText(record.date) }),
    status: t.expose('status', { type: AttendanceStatusEnum, description: 'Status on that day.' }),
  }),
});

const AttendanceStatusGroup = builder.objectRef<AttendanceDay['statuses'][number]>('AttendanceStatusGroup').implement({
  description: 'The records of one status on one day.',
  fields: (t) => ({
    status: t.expose('status', { type: AttendanceStatusEnum, description: 'The status.' }),
    records: t.field({
      type: [AttendanceRecordType],
      description: 'The records, by enrollment id.',
      resolve: (group) => group.records,
    }),
  }),
});

export const AttendanceDayType = builder.objectRef<AttendanceDay>('AttendanceDay').implement({
  description: 'A day attendance was taken in a section, with its records other than present, grouped by status.',
  fields: (t) => ({
    date: t.exposeString('date', { description: 'The day, YYYY-MM-DD.' }),
    statuses: t.field({
      type: [AttendanceStatusGroup],
      description: 'Records grouped by status, in status order; present ones are left out.',
      resolve: (day) => day.statuses,
    }),
  }),
});

export const AttendanceTotalType = builder.objectRef<AttendancePage['totals'][number]>('AttendanceTotal').implement({
  description: 'How many enrollment-days had a status.',
  fields: (t) => ({
    status: t.expose('status', { type: AttendanceStatusEnum, description: 'The status.' }),
    count: t.exposeInt('count', { description: 'Enrollment-days with it.' }),
  }),
});

export const attendanceTotalsDescription =
  'Per status, the enrollment-days in the whole range (every page): each active student enrollment the viewer ' +
  'reads counts once a day attendance was taken, with its status, or present without a record. Statuses with none are left out.';

export const AttendancePageType = builder.objectRef<AttendancePage>('AttendancePage').implement({
  description: 'A page of the days attendance was taken in a section, with totals over the whole range.',
  fields: (t) => ({
    items: t.field({
      type: [AttendanceDayType],
      description: 'The days of this page, earliest first.',
      resolve: (page) => page.items,
    }),
    total: t.exposeInt('total', { description: 'Number of days attendance was taken in the range.' }),
    start: t.exposeInt('start', { description: 'Offset of the first day.' }),
    limit: t.exposeInt('limit', { description: 'Page size used.' }),
    totals: t.field({
      type: [AttendanceTotalType],
      description: attendanceTotalsDescription,
      resolve: (page) => page.totals,
    }),
  }),
});

const AttendanceItemStatusEnum = builder.enumType('AttendanceItemStatus', {
  description: 'What became of one item of an attendance write; /v1 answers it as the `response_code` named.',
  values: {
    WRITTEN: { value: attendanceItemCodes.WRITTEN, description: 'The record was written (200).' },
    INVALID: {
      value: attendanceItemCodes.INVALID,
      description: "Refused: a bad date or status, or a teacher's enrollment (400).",
    },
    NOT_FOUND: { value: attendanceItemCodes.NOT_FOUND, description: 'Not an enrollment of the section (404).' },
  },
});

export const AttendanceResultType = builder.objectRef<AttendanceResult>('AttendanceResult').implement({
  description: 'What became of one item of an attendance write.',
  fields: (t) => ({
    enrollmentId: t.exposeID('enrollmentId', {
      description: "The item's enrollment, as sent: a database id, as /v1 has it; `enrollment` is the object.",
    }),
    enrollment: t.field({
      type: EnrollmentType,
      nullable: true,
      description:
        "The item's enrollment (`enrollmentId`), for a client cache to update; null when the item was not written, " +
        "whose enrollment may not be the section's.",
      resolve: (result) =>
        result.recordId === null ? null : readById<Enrollment>('Enrollment', {}, Number(result.enrollmentId)),
    }),
    date: t.exposeString('date', { description: "The item's day." }),
    code: t.expose('code', { type: AttendanceItemStatusEnum, description: 'What became of the item.' }),
    message: t.exposeString('message', { nullable: true, description: 'Why the item was not written.' }),
    recordId: t.exposeID('recordId', {
      nullable: true,
      description: 'The attendance record the item wrote (its database id); null when it was not written.',
    }),
    record: t.field({
      type: AttendanceRecordType,
      nullable: true,
      description:
        'The record the item wrote, as it now is, for a client cache to update; null when it was not written.',
      resolve: (result) =>
        result.recordId === null ? null : readById<AttendanceRecord>('AttendanceRecord', {}, result.recordId),
    }),
  }),
});
