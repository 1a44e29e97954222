import { type EventKind, eventCatalogue } from '../outbox/catalogue';

/**
 * Webhook triggers, built on the event catalogue: a trigger is a family of domain events (`group.create`,
 * `group.update`, ... make the `group` trigger) and its event objects are typed `<trigger>.<operation>`, as the real
 * platform's (`grade_item.update`). A trigger is listed only while the catalogue has an event of its family, so that a
 * trigger nothing fires cannot be subscribed to.
 */
export interface Trigger {
  name: string;
  description: string;
  /** The operations its event objects report, such as `create`. */
  operations: readonly string[];
}

/**
 * The families that reach webhook receivers. Credentials (`api_client`, `access_token`, `calendar_feed`,
 * `app_authorization`), the trigger administration's own changes, and teachers' and administrators' settings
 * (`grading_group`, `group_category`, `district`) are left out: they concern the people who hold them, not
 * integrations.
 */
export const triggerFamilies: Readonly<Record<string, string>> = {
  school: 'Schools created, changed or deleted.',
  building: 'Buildings of a school created, changed or deleted.',
  user: 'Users added to a school, changed, made inactive, reactivated or deleted.',
  section: 'Course sections created.',
  enrollment: 'Users enrolled in course sections, their enrollments changed (status, admin) or removed.',
  group: 'Groups created, changed or deleted.',
  group_member: 'Users joining or leaving groups.',
  blog_post: 'Blog posts written, changed or deleted, in any realm.',
  invite: 'Invites to groups and course sections: sent, accepted or denied.',
  friend_request: 'Friend requests: sent, accepted or denied.',
  calendar_event: 'Calendar events created, changed or deleted, in any realm.',
  page: 'Pages of course sections and groups written, changed or deleted.',
  album: 'Media albums of course sections and groups created, changed or deleted.',
  album_content: 'Photos, videos, audio and files added to albums, captioned or removed.',
  album_comment: 'Comments on album content written or deleted.',
  web_package: 'Web content packages added to course sections or removed.',
  grade_item:
    'Graded items (assignments, graded discussions) of course sections created or changed (update) or deleted.',
  grades: 'Grades, grade comments and final comments of course sections set or changed.',
  attendance: 'Attendance taken or changed in course sections.',
};

const familyOf = (kind: Pick<EventKind, 'type'>) => kind.type.slice(0, kind.type.indexOf('.'));

/** Every trigger something fires, in the order of the families above. */
export function triggerCatalogue(): Trigger[] {
  const kinds = eventCatalogue();
  return Object.entries(triggerFamilies).flatMap(([name, description]) => {
    const operations = kinds.filter((kind) => familyOf(kind) === name).map((kind) => kind.type.slice(name.length + 1));
    return operations.length ? [{ name, description, operations }] : [];
  });
}

/** The trigger an event of this type fires and the operation it reports; null for events no trigger carries. */
export function triggerOf(eventType: string): { trigger: string; operation: string } | null {
  const trigger = familyOf({ type: eventType });
  if (!Object.hasOwn(triggerFamilies, trigger)) return null;
  return { trigger, operation: eventType.slice(trigger.length + 1) };
}

/**
 * The trigger name a client gave, as stored and as webhooks spell it: `group_member` as given, or from the GraphQL enum
 * value that `Trigger.name` and `TriggerSubscription.trigger` read (`GROUP_MEMBER`), so that what was read can be sent
 * back.
 */
export const triggerNamed = (text: string) => (/^[A-Z][A-Z_]*$/.test(text) ? text.toLowerCase() : text);

export const isTrigger = (name: string) => triggerCatalogue().some((trigger) => trigger.name === name);

/** A trigger name the catalogue does not list: an expected outcome of a request that names one (a typed error). */
export class UnknownTriggerError extends Error {
  constructor(readonly trigger: string) {
    super(`The trigger with name ${trigger} does not exist`);
    this.name = 'UnknownTriggerError';
  }
}
