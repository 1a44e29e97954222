import { builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { updateDistrict } from './district.service';

const UpdateDistrictInput = builder.inputType('UpdateDistrictInput', {
  description: 'Changes to a district; members left out keep their values.',
  fields: (t) => ({
    title: t.string({ description: 'Name of the district.' }),
    timeZone: t.string({ description: 'IANA time zone, such as America/Chicago: dates written as text are read in it.' }),
    attendanceApp: t.string({
      description: 'Name of the third-party attendance app the district\'s courses use (attendance on /v1 is then 410 Gone); null or "" for none.',
    }),
    incompleteCountsAsZero: t.boolean({ description: 'Whether an incomplete grade counts as zero (true) or is left out of period and final grades.' }),
  }),
});

objectMutation('updateDistrict', {
  type: 'District',
  description: 'Changes a district\'s name, time zone or gradebook settings (its district administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The district to change.' }), input: arg(required(UpdateDistrictInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateDistrict(viewer, parseId(args.id, 'District'), args.input, query),
});
