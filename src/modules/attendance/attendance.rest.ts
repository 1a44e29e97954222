import { z } from 'zod';
import type { AttendanceStatus } from '../../generated/prisma/enums';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import { type LinkBuilder, type RestRequest, type RestRoute, bulkRoute, listRoute } from '../../rest/route';
import { type WireField, list, text, wireBody, withExamples } from '../../rest/wire-body';
import { attendanceItemCodes } from './attendance.service';

/** The platform's status codes (spec 2.13). */
const codeOf: Record<AttendanceStatus, 1 | 2 | 3 | 4> = { PRESENT: 1, ABSENT: 2, LATE: 3, EXCUSED: 4 };
const statusOf: Record<string, AttendanceStatus> = { 1: 'PRESENT', 2: 'ABSENT', 3: 'LATE', 4: 'EXCUSED' };
const statusCode = z.int().min(1).max(4);

const attendanceWire = z.object({ enrollment_id: z.int(), date: z.string(), status: statusCode, comment: z.string() });

export const attendanceDayWire = z
  .object({
    date: z.string(),
    statuses: z.object({
      status: z.array(
        z.object({ status_code: statusCode, attendances: z.object({ attendance: z.array(attendanceWire) }) }),
      ),
    }),
  })
  .meta({
    id: 'AttendanceDay',
    description: 'A day attendance was taken, its records other than present grouped by status (spec 4.10).',
  });

const totalsWire = z
  .object({ total: z.array(z.object({ status: statusCode, count: z.int().min(0) })) })
  .describe(
    'Per status, the enrollment-days of the whole range: an active student enrollment without a record on a day attendance was taken counts as present.',
  );

export const attendanceListWire = z
  .object({
    date: z.array(attendanceDayWire),
    totals: totalsWire,
    total: z.int().min(0).describe('Number of days attendance was taken in the range.'),
    links: z.object({ self: z.url(), next: z.url().optional().describe('Present while a further page exists.') }),
  })
  .meta({ id: 'AttendanceList', description: "A section's attendance by day, paged over the days (spec 4.10)." });

export const attendanceResultsWire = z
  .object({
    attendance: z.array(
      z.object({
        id: z
          .string()
          .optional()
          .describe(
            "The attendance record written, as a string (the platform's example); absent for an item that was not written.",
          ),
        response_code: z
          .int()
          .describe(
            "200 written; 400 bad date or status, or a teacher's enrollment; 404 not an enrollment of the section.",
          ),
        message: z.string().optional().describe('Why the item was not written.'),
      }),
    ),
  })
  .meta({ id: 'AttendanceResults', description: 'Per-item results of an attendance update (spec 4.10).' });

const RestAttendanceDay = graphql(`
  fragment RestAttendanceDay on AttendanceDay @_unmask { date statuses { status records { enrollmentId date status comment } } }
`);

type Day = ResultOf<typeof RestAttendanceDay>;

const dayToWire = (day: Day): z.input<typeof attendanceDayWire> => ({
  date: day.date,
  statuses: {
    status: day.statuses.map(({ status, records }) => ({
      status_code: codeOf[status],
      attendances: {
        attendance: records.map((record) => ({
          enrollment_id: Number(record.enrollmentId),
          date: record.date,
          status: codeOf[record.status],
          comment: record.comment ?? '',
        })),
      },
    })),
  },
});

// `start` is the first day here, as on the platform; an integer `start` is still the paging offset (the route's
// `dayStart`), and the links of a list that names a first day page by moving it past the page's last day.
const isOffset = (start: unknown) => typeof start === 'string' && /^\d+$/.test(start);
const firstDay = (request: RestRequest): string | undefined =>
  isOffset(request.filters.startDate) ? undefined : request.filters.startDate;

function datedLinks(request: RestRequest, link: LinkBuilder, days: Day[], total: number) {
  const url = (start: string) => {
    const query = new URLSearchParams(request.query);
    query.set('start', start);
    query.set('limit', String(request.page.limit));
    return `${link(request.path)}?${query}`;
  };
  const last = days.at(-1)?.date;
  const after = last && new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { self: url(firstDay(request)!), ...(after && days.length < total ? { next: url(after) } : {}) };
}

const attendanceItem = z.object({
  enrollment_id: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(
      z
        .string()
        .trim()
        .regex(/^\d{1,15}$/, 'enrollment_id must be a numeric id'),
    ),
  // Date and status are judged item by item by the service: a bad one fails only its item.
  date: z
    .union([z.string(), z.number()])
    .transform(String)
    .meta({ examples: ['2026-01-05'] })
    .optional(),
  status: z
    .union([z.string(), z.number()])
    .transform((code) => statusOf[String(code).trim()] ?? null)
    .meta({ examples: [1, 2, 3, 4] })
    .optional(),
  comment: text('comment').schema.optional(),
});

const toInput = (item: z.output<typeof attendanceItem>) => ({
  enrollmentId: item.enrollment_id,
  date: item.date ?? '',
  status: item.status ?? null,
  comment: (item.comment as string | undefined) ?? null,
});

const described = (field: WireField, description: string): WireField => ({
  ...field,
  schema: field.schema.describe(description),
});

const attendanceList = listRoute({
  path: '/sections/{id}/attendance',
  summary:
    "List a section's attendance by day (present records left out) with totals; start and end (YYYY-MM-DD, inclusive) and enrollment_id filter it",
  item: 'date',
  filters: wireBody({
    start: described(
      withExamples(text, '2026-01-05')('startDate'),
      'First day, YYYY-MM-DD (included); an integer instead is the paging offset.',
    ),
    end: withExamples(text, '2026-01-09')('endDate'),
    enrollment_id: withExamples(text, '1')('enrollmentId'),
  }),
  wire: attendanceDayWire,
  document: graphql(
    `query($sectionId: ID!, $startDate: String, $endDate: String, $enrollmentId: ID, $start: Int!, $limit: Int!) {
      attendance(sectionId: $sectionId, startDate: $startDate, endDate: $endDate, enrollmentId: $enrollmentId, start: $start, limit: $limit) {
        total totals { status count } items { ...RestAttendanceDay }
      }
    }`,
    [RestAttendanceDay],
  ),
  variables: (request) => ({
    sectionId: request.params.id!,
    startDate: firstDay(request) ?? null,
    endDate: request.filters.endDate ?? null,
    enrollmentId: request.filters.enrollmentId || null,
  }),
  shape: dayToWire,
});

export const attendanceRoutes: RestRoute[] = [
  {
    ...attendanceList,
    dayStart: true,
    responses: { 200: attendanceListWire },
    respond(result, request, link) {
      const answer = attendanceList.respond(result, request, link).body as {
        date: unknown[];
        total: number;
        links: object;
      };
      const page = result as { items: Day[]; totals: { status: AttendanceStatus; count: number }[]; total: number };
      const links = firstDay(request) ? datedLinks(request, link, page.items, page.total) : answer.links;
      const totals = { total: page.totals.map(({ status, count }) => ({ status: codeOf[status], count })) };
      return { status: 200, body: { date: answer.date, totals, total: answer.total, links } };
    },
  },
  bulkRoute('PUT', {
    path: '/sections/{id}/attendance',
    summary:
      'Take attendance in a section: each item replaces the record of its enrollment and day, with a code per item (teachers and administrators)',
    body: wireBody({ attendances: { attendance: list(attendanceItem)('records') } }, ['attendances/attendance']),
    wire: attendanceResultsWire,
    document: graphql(
      `mutation($input: SetAttendanceInput!) {
        setAttendance(input: $input) { userErrors { ...UserErrors } results { code message recordId } }
      }`,
      [UserErrors],
    ),
    variables: ({ params, input }) => ({ input: { sectionId: params.id!, records: input.records.map(toInput) } }),
    payload: 'results',
    codes: (results) => results.map((result) => attendanceItemCodes[result.code]),
    // Each item answers with the record it wrote, as the platform's example does; one that failed, with why.
    shape: (results) => ({
      attendance: results.map(({ code, message, recordId }) =>
        recordId !== null
          ? { id: recordId, response_code: attendanceItemCodes[code] }
          : {
              response_code: attendanceItemCodes[code],
              message: (message ?? '').replace(/^enrollmentId:/, 'enrollment_id:'),
            },
      ),
    }),
  }),
];
