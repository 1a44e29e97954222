import { z } from 'zod';
import { clearable, createInput, email, nodeId, requiredText, text } from '../../core/validation';

export const createUserSchema = createInput(
  {
    schoolId: nodeId('School'),
    buildingId: nodeId('School'),
    username: requiredText(255).regex(/^\S+$/, 'must not contain spaces'),
    schoolUid: clearable(text(255).min(1, 'must not be empty').nullable(), null),
    nameFirst: requiredText(255),
    nameLast: requiredText(255),
    email: clearable(email, ''),
    role: z.enum(['DISTRICT_ADMIN', 'SCHOOL_ADMIN', 'TEACHER', 'STUDENT', 'PARENT']),
    triggerAdmin: z.boolean(),
  },
  ['username', 'nameFirst', 'nameLast', 'role'],
).refine((user) => !(user.triggerAdmin && (user.role === 'STUDENT' || user.role === 'PARENT')), {
  // A trigger administrator can read whatever the school's webhook targets are sent (src/modules/triggers/trigger.policy.ts).
  path: ['triggerAdmin'],
  message: 'is for staff: students and parents do not administer triggers',
});
