import { definePolicy, forbid, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import type { CalendarEventType } from '../../generated/prisma/enums';
import { mayWriteRealmContent } from '../groups/group.policy';

type CalendarEvent = { realm: RealmRef; authorId: number | null; type: CalendarEventType };

/** Due events show an assignment's or a discussion's due date: they change only with it, as on the platform. */
function mayChange(viewer: Viewer, event: CalendarEvent) {
  if (event.type !== 'EVENT')
    return forbid('The due date of an assignment or discussion changes only with the assignment or discussion');
  return mayWriteRealmContent(viewer, event.realm, event.authorId === viewer.id);
}

export const calendarEventPolicy = definePolicy('CalendarEvent', {
  /** Readers of a realm read its events; a realm whose contents are closed to the viewer is a 403. */
  read: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'read'),
  /** As for blog posts: the realm's administrators, and in a group its members while members may post. */
  create: (viewer: Viewer, realm: RealmRef) => mayWriteRealmContent(viewer, realm, true),
  update: mayChange,
  delete: mayChange,
});
