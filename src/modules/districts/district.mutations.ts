import { objectMutation, required } from '../../graphql/operations';
import { changesInput } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { updateDistrict } from './district.service';
import { updateDistrictSchema } from './district.validation';

const UpdateDistrictInput = changesInput('UpdateDistrictInput', updateDistrictSchema, 'a district');

objectMutation('updateDistrict', {
  type: 'District',
  description: "Changes a district's name, time zone or gradebook settings (its district administrators).",
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The district to change.' }),
    input: arg(required(UpdateDistrictInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateDistrict(viewer, parseId(args.id, 'District'), args.input, query),
});
