import { z } from 'zod';

/** An invite's realm: invites are to groups and course sections. */
export const inviteSchema = z.object({
  realm: z.object({
    type: z.enum(['GROUP', 'SECTION'], {
      error: 'must be GROUP or SECTION: invites are to groups and course sections',
    }),
  }),
});
