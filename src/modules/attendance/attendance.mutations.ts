import { inputFromSchema } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { setAttendance } from './attendance.service';
import { AttendanceResultType, AttendanceStatusEnum } from './attendance.type';
import { attendanceItemSchema, attendanceWriteSchema } from './attendance.validation';

const AttendanceInput = inputFromSchema(
  'AttendanceInput',
  attendanceItemSchema,
  "An enrollment's attendance on a day; it replaces the record of that enrollment and day.",
  { status: AttendanceStatusEnum },
);

payloadMutation('setAttendance', {
  description:
    'Takes attendance in a section, item by item (its teachers and administrators): each item replaces the record of ' +
    'its enrollment and day; an item that cannot be written fails alone with its code, the others are written.',
  input: attendanceWriteSchema,
  inputDescription: 'The section, and the attendance records to write in it.',
  types: { records: AttendanceInput },
  payload: {
    results: { type: AttendanceResultType, list: true, description: 'One result per item, in the order given.' },
  },
  resolve: async (viewer, { sectionId, records }) =>
    setAttendance(viewer, parseId(sectionId, 'Section', 'sectionId'), records),
});
