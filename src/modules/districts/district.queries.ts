import { db } from '../../db/database';
import { objectQuery } from '../../graphql/operations';
import { districtPolicy } from './district.policy';

objectQuery('district', 'District', districtPolicy, (selection, id) => db().district.findUnique({ ...selection, where: { id } }));
