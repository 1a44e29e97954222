import { albumRoutes } from '../modules/albums/album.rest';
import { attendanceRoutes } from '../modules/attendance/attendance.rest';
import { calendarEventRoutes } from '../modules/calendar-events/calendar-event.rest';
import { friendRequestRoutes } from '../modules/friends/friend.rest';
import { gradingCategoryRoutes } from '../modules/grading-categories/grading-category.rest';
import { groupRoutes } from '../modules/groups/group.rest';
import { inviteRoutes } from '../modules/invites/invite.rest';
import { pageRoutes } from '../modules/pages/page.rest';
import { postRoutes } from '../modules/posts/post.rest';
import { courseRoutes } from '../modules/roster/course.rest';
import { rosterRoutes } from '../modules/roster/roster.rest';
import { schoolRoutes } from '../modules/schools/school.rest';
import { uploadRoutes } from '../modules/uploads/upload.rest';
import { gradebookRoutes } from '../modules/gradebook/gradebook.rest';
import { gradeRoutes } from '../modules/grades/grade.rest';
import { triggerRoutes } from '../modules/triggers/trigger.rest';
import { userRoutes } from '../modules/users/user.rest';
import { webPackageRoutes } from '../modules/web-packages/web-package.rest';
import type { RestRoute } from './route';

/** Every /v1 route; each module declares its own. */
export const restRoutes: readonly RestRoute[] = [
  ...schoolRoutes,
  ...groupRoutes,
  ...postRoutes,
  ...userRoutes,
  ...inviteRoutes,
  ...friendRequestRoutes,
  ...calendarEventRoutes,
  ...pageRoutes,
  ...uploadRoutes,
  ...albumRoutes,
  ...triggerRoutes,
  ...gradebookRoutes,
  ...gradeRoutes,
  ...webPackageRoutes,
  ...gradingCategoryRoutes,
  ...attendanceRoutes,
  ...rosterRoutes,
  ...courseRoutes,
];
