import { objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { updateDistrict } from './district.service';
import { updateDistrictSchema } from './district.validation';

payloadMutation('updateDistrict', {
  description: "Changes a district's name, time zone or gradebook settings (its district administrators).",
  input: withMembers(updateDistrictSchema, { id: objectIdMember('The district to change.') }),
  inputDescription: 'The district, and changes to it; members left out keep their values.',
  payload: { district: { model: 'District', description: 'The district as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    district: await updateDistrict(viewer, parseId(id, 'District'), changes, select('district')),
  }),
});
