import { z } from 'zod';
import { clearable, createInput, email, membersOf, nodeId, text, updateInput } from '../../core/validation';

/** Users per bulk write, as on the platform ("up to 50"). */
export const maxUserItems = 50;

/** The titles the platform allows before a name. */
export const nameTitles = ['Mr.', 'Mrs.', 'Ms.', 'Miss', 'Dr.', 'Professor'] as const;

const roles = z.enum(['DISTRICT_ADMIN', 'SCHOOL_ADMIN', 'TEACHER', 'STUDENT', 'PARENT']);
const name = (what: string) => text(255).min(1, 'is required').describe(what);
const optionalText = (what: string) => clearable(text(255), '').describe(`${what}; empty when none.`);

/** The members a user has, whether created or changed (the school is chosen on create only). */
const userFields = {
  buildingId: clearable(nodeId('School'), null).describe("Building of the user's school; null: none."),
  username: text(255)
    .min(1, 'is required')
    .regex(/^\S+$/, 'must not contain spaces')
    .describe('Login name, unique in the school; on create, the school user id or else the email when left out.'),
  schoolUid: clearable(text(255).min(1, 'must not be empty').nullable(), null).describe(
    "The school's own id for the user (student or SIS id), unique in the school.",
  ),
  nameFirst: name('First name.'),
  nameLast: name('Last name.'),
  nameTitle: clearable(
    text(255).refine((title) => title === '' || (nameTitles as readonly string[]).includes(title), {
      message: `must be one of ${nameTitles.join(', ')}`,
    }),
    '',
  ).describe(`Title before the name: ${nameTitles.join(', ')}; empty when none.`),
  nameMiddle: optionalText('Middle name'),
  nameFirstPreferred: optionalText('The first name the user goes by'),
  position: optionalText('Job position'),
  gender: clearable(
    z
      .string()
      .regex(/^[MF]$/, 'must be M or F')
      .nullable(),
    null,
  ).describe('Gender as the school records it: M or F; null when not recorded.'),
  gradYear: clearable(
    z.int('must be a year').min(1900, 'must be a year from 1900 to 2200').max(2200, 'must be a year from 1900 to 2200'),
    null,
  ).describe('Graduation year (YYYY); null when not recorded.'),
  email: clearable(email, '').describe('Primary email.'),
  role: roles.describe('Role in the school.'),
  triggerAdmin: z
    .boolean()
    .describe(
      'Access to webhook trigger administration; for staff only (a student or parent with it is refused as INVALID). Granted by district administrators.',
    ),
};

/** A student or parent never administers triggers: they could read whatever the school's webhook targets are sent. */
export const staffOnlyTriggerAdmin = (user: { role?: string; triggerAdmin?: boolean | null }) =>
  !(user.triggerAdmin && (user.role === 'STUDENT' || user.role === 'PARENT'));
const staffOnly = {
  path: ['triggerAdmin'],
  message: 'is for staff: students and parents do not administer triggers',
};

export const createUserSchema = createInput(
  { schoolId: nodeId('School').describe("School; the viewer's when left out."), ...userFields },
  ['nameFirst', 'nameLast', 'role'],
)
  .refine(staffOnlyTriggerAdmin, staffOnly)
  // The platform asks for a username or an email address; the school's own id makes a username too.
  .refine((user) => Boolean(user.username || user.email || user.schoolUid), {
    path: ['username'],
    message: 'is required when neither an email nor a school user id is given',
  });

/** Changes to a user; the school stays (a user changes school by being made anew there). */
export const updateUserSchema = updateInput(userFields);

/** One item of a bulk change: the user, and its members to change. */
export const userChangeSchema = z.strictObject({
  id: nodeId('User').describe('The user to change.'),
  ...membersOf(updateUserSchema),
});

/** The user an item of a bulk change or delete names, read alone first (its other members are the change's). */
export const itemUserId = z.object({ id: nodeId('User').describe('The user.') });

const items = (what: string) => `${what}, at most ${maxUserItems}; each succeeds or fails alone.`;

export const createUsersSchema = z.strictObject({
  items: z.array(createUserSchema).describe(items('The new users')),
  updateExisting: z
    .boolean()
    .nullish()
    .describe(
      "Change the user of the item's school that has its schoolUid instead of failing the item as a conflict; false by default.",
    ),
});

export const updateUsersSchema = z.strictObject({
  items: z.array(userChangeSchema).describe(items('The changes, one per user')),
});

export const deleteUsersSchema = z.strictObject({
  ids: z.array(nodeId('User')).describe(items('The users to delete')),
});

const keepEnrollments = z
  .boolean()
  .nullish()
  .describe(
    "Keep the user's enrollments and group memberships (with their grades and attendance) for a reactivation; false by default, as the platform's option_keep_enrollments.",
  );

export const deactivateUserSchema = z.strictObject({
  id: nodeId('User').describe('The user to make inactive.'),
  keepEnrollments,
});

export const deactivateUsersSchema = z.strictObject({
  ids: z.array(nodeId('User')).describe(items('The users to make inactive')),
  keepEnrollments,
});

export const reactivateUsersSchema = z.strictObject({
  ids: z.array(nodeId('User')).describe(items('The inactive users to make active again')),
});
