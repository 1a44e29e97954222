import { definePolicy } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import type { Prisma } from '../../generated/prisma/client';

/** A calendar feed is its user's own: only they list, see and revoke it; anyone else's is not known to exist. */
export const calendarFeedPolicy = definePolicy('CalendarFeed', {
  read: (viewer: Viewer, userId: number) => (userId === viewer.id ? 'allow' : 'hide'),
});

/** The feeds the viewer reads and revokes: the SQL twin of `read`. */
export const ownFeedsWhere = (viewer: Viewer) => ({ userId: viewer.id }) satisfies Prisma.CalendarFeedWhereInput;
