import { db } from '../../db/database';
import { objectQuery } from '../../graphql/operations';
import { sectionPolicy } from './roster.policy';

objectQuery('section', 'Section', sectionPolicy, (selection, id) => db().section.findUnique({ ...selection, where: { id } }));
