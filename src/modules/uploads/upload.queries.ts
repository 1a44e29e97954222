import { objectQuery } from '../../graphql/operations';
import { uploadPolicy } from './upload.policy';

objectQuery('upload', 'Upload', uploadPolicy);
