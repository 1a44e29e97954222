import { z } from 'zod';
import { clearable, createInput, email, nodeId, requiredText, text } from '../../core/validation';

export const createUserSchema = createInput(
  {
    schoolId: nodeId('School').describe("School; the viewer's when left out."),
    buildingId: nodeId('School').describe('Building of that school.'),
    username: requiredText(255).regex(/^\S+$/, 'must not contain spaces').describe('Login name, unique in the school.'),
    schoolUid: clearable(text(255).min(1, 'must not be empty').nullable(), null).describe(
      "The school's own id for the user, unique in the school.",
    ),
    nameFirst: requiredText(255).describe('First name.'),
    nameLast: requiredText(255).describe('Last name.'),
    email: clearable(email, '').describe('Primary email.'),
    role: z.enum(['DISTRICT_ADMIN', 'SCHOOL_ADMIN', 'TEACHER', 'STUDENT', 'PARENT']).describe('Role in the school.'),
    triggerAdmin: z
      .boolean()
      .describe(
        'Access to webhook trigger administration; for staff only (a student or parent with it is refused as INVALID). Granted by district administrators.',
      ),
  },
  ['username', 'nameFirst', 'nameLast', 'role'],
).refine((user) => !(user.triggerAdmin && (user.role === 'STUDENT' || user.role === 'PARENT')), {
  // A trigger administrator can read whatever the school's webhook targets are sent (src/modules/triggers/trigger.policy.ts).
  path: ['triggerAdmin'],
  message: 'is for staff: students and parents do not administer triggers',
});
