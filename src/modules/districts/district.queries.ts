import { objectQuery } from '../../graphql/operations';
import { districtPolicy } from './district.policy';

objectQuery('district', 'District', districtPolicy);
