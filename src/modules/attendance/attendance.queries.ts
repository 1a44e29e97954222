import { builder } from '../../graphql/builder';
import { pageArgs, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { decodeGlobalId } from '../../core/global-id';
import { type AttendanceSpan, attendanceSpan, listAttendance, visibleAttendanceRecords } from './attendance.service';
import { registerNodeVisibility } from '../../graphql/nodes';
import {
  AttendanceDayType,
  AttendancePageType,
  AttendanceTotalType,
  attendanceTotalsDescription,
} from './attendance.type';
import { arrayConnection, connectionOf } from '../../graphql/connections';

/**
 * The enrollment filter as the service reads it (digits): a global id becomes its database id; other text goes on as
 * given, for the service to refuse as a ValidationError naming the filter (what /v1 answers for `enrollment_id=x`).
 */
const enrollmentIdText = (value: string | number | null | undefined) =>
  value === null || value === undefined
    ? null
    : decodeGlobalId(String(value))
      ? String(parseId(value, 'Enrollment', 'enrollmentId'))
      : String(value);

/** What selects the days `attendance` and `attendanceConnection` page over. */
const attendanceFilterArgs = builder.args((t) => ({
  sectionId: t.id({ required: true, description: 'The section.' }),
  startDate: t.string({ description: 'First day, YYYY-MM-DD (included).' }),
  endDate: t.string({ description: 'Last day, YYYY-MM-DD (included).' }),
  enrollmentId: t.id({ description: "Only this enrollment's records and totals." }),
}));

builder.queryField('attendance', (t) =>
  t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('attendanceConnection'),
    type: AttendancePageType,
    nullable: true,
    description:
      'The attendance of a section by day, paged over the days attendance was taken (present records left out), with ' +
      "totals; a student reads their own, a parent their children's. Null when the section does not exist or is hidden; " +
      'GONE (410) when the district keeps attendance in a third-party app.',
    args: { ...attendanceFilterArgs, ...pageArgs },
    resolve: (_root, args, { viewer }) =>
      listAttendance(viewer, parseId(args.sectionId, 'Section', 'sectionId'), {
        ...args,
        enrollmentId: enrollmentIdText(args.enrollmentId),
      }),
  }),
);

builder.queryField('attendanceConnection', (t) =>
  t.withAuth({ authenticated: true }).connection(
    {
      type: AttendanceDayType,
      nullable: true,
      description:
        'The days `attendance` pages, as a Relay connection in the same order (cursors are positions among the days), ' +
        'with the same totals; null when the section does not exist or is hidden; GONE (410) as `attendance`.',
      args: attendanceFilterArgs,
      resolve: async (_root, args, { viewer }) => {
        const span = await attendanceSpan(viewer, parseId(args.sectionId, 'Section', 'sectionId'), {
          ...args,
          enrollmentId: enrollmentIdText(args.enrollmentId),
        });
        return span && { ...(await arrayConnection(args, span.days, span.daysOf)), totals: span.totals };
      },
    },
    connectionOf<Pick<AttendanceSpan, 'totals'>>(AttendanceDayType, (t) => ({
      totals: t.field({
        type: [AttendanceTotalType],
        description: attendanceTotalsDescription,
        resolve: (connection) => connection.totals(),
      }),
    })),
  ),
);

registerNodeVisibility('AttendanceRecord', visibleAttendanceRecords);
