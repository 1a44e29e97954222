import { NotFoundError } from '../../core/errors';
import { inputFromSchema } from '../../graphql/inputs';
import { resultMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { setAttendance } from './attendance.service';
import { AttendanceStatusEnum, AttendanceUpdateType } from './attendance.type';
import { attendanceItemSchema } from './attendance.validation';

const AttendanceInput = inputFromSchema(
  'AttendanceInput',
  attendanceItemSchema,
  "An enrollment's attendance on a day; it replaces the record of that enrollment and day.",
  { status: AttendanceStatusEnum },
);

resultMutation('setAttendance', {
  type: AttendanceUpdateType,
  description:
    'Takes attendance in a section, item by item (its teachers and administrators): each item replaces the record of ' +
    'its enrollment and day; an item that cannot be written fails alone with its code, the others are written.',
  errors: [NotFoundError],
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    records: arg({
      type: [AttendanceInput],
      required: true,
      description: 'One record per enrollment and day; each succeeds or fails alone.',
    }),
  }),
  resolve: (viewer, args) => setAttendance(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.records),
});
