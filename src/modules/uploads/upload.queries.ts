import { db } from '../../db/database';
import { objectQuery } from '../../graphql/operations';
import { uploadPolicy } from './upload.policy';

objectQuery('upload', 'Upload', uploadPolicy, (selection, id) => db().upload.findUnique({ ...selection, where: { id } }));
