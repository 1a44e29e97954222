import { can } from '../../auth/policy';
import { isStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { formatWallClock } from '../../core/date-text';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, exposeLongText, nodeId } from '../../graphql/columns';
import { keysetRelatedConnection } from '../../graphql/connections';
import { RealmTypeEnum } from '../../graphql/realm';
import { realmField, userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import { CalendarEventType, RsvpPolicy } from '../../generated/prisma/enums';
import { parseId } from '../../graphql/realm';
import { realmPath } from '../../rest/router';
import { StoredFileType, storedFileOf, storedFileSelection } from '../uploads/upload.type';
import { calendarEventPolicy } from './calendar-event.policy';
import { htmlFields } from '../../core/html';
import { districtTimeZone } from './calendar-event.service';

export const CalendarEventTypeEnum = builder.enumType(CalendarEventType, {
  name: 'CalendarEventType',
  description: 'What a calendar event is.',
  values: {
    EVENT: { description: "An ordinary event, such as a field trip or a parents' evening." },
    ASSIGNMENT: { description: 'The due date of an assignment.' },
    DISCUSSION: { description: 'The due date of a graded discussion.' },
  },
});
export const RsvpPolicyEnum = builder.enumType(RsvpPolicy, {
  name: 'RsvpPolicy',
  description: 'Who may RSVP to a calendar event.',
  values: {
    NOBODY: { description: 'Nobody answers whether they attend (`rsvp` 0).' },
    INVITED: { description: 'Only the people invited to the event (`rsvp` 1).' },
    ANYONE: { description: 'Anyone who sees the event (`rsvp` 2).' },
  },
});

/**
 * An instant as the district's wall clock shows it. A viewer sees only their own district's realms, so every event
 * they see is shown in their district's time zone.
 */
const wallClock = async (instant: Date, viewer: Viewer) =>
  formatWallClock(instant, await districtTimeZone(viewer, viewer.user.districtId));

const CalendarEventAttachmentType = builder.prismaObject('CalendarEventAttachment', {
  fields: (t) => ({
    file: t.relation('upload'),
    downloadUrl: t.string({
      description: 'URL serving the file to those who may read the event (with the same credential).',
      select: { eventId: true, uploadId: true, event: { select: { realmType: true, realmId: true } } },
      resolve: (attachment, _args, { origin }) =>
        `${origin}/v1${realmPath(attachment.event.realmType, attachment.event.realmId)}/events/${attachment.eventId}/attachments/${attachment.uploadId}`,
    }),
  }),
});

/** The order of an event's files: by upload, whose id a file keeps. */
const attachmentOrder = { uploadId: 'asc' } as const;

builder.prismaNode('CalendarEvent', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'CalendarEvent', [
      'title',
      'start',
      'end',
      'allDay',
      'commentsEnabled',
      'realmId',
      'authorId',
      'createdAt',
      'updatedAt',
    ]),
    ...exposeLongText(t, 'CalendarEvent', 'description', htmlFields['CalendarEvent.description'].maxLength),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
    realm: t.field(realmField),
    author: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who made the event (`authorId`); null when they are gone or hidden from the viewer.',
      select: { authorId: true },
      resolve: (event, _args, context) => userReference(event.authorId, context),
    }),
    type: t.expose('type', { type: CalendarEventTypeEnum }),
    rsvp: t.expose('rsvp', { type: RsvpPolicyEnum }),
    attachments: t.relation('attachments', {
      description: 'Files attached to the event.',
      query: { orderBy: attachmentOrder },
    }),
    attachmentsConnection: keysetRelatedConnection(t, 'attachments', {
      type: CalendarEventAttachmentType,
      description: 'The files `attachments` lists, as a Relay connection in the same order.',
      order: [attachmentOrder],
    }),
    storedFile: t.field({
      type: StoredFileType,
      nullable: true,
      description:
        "Where an attached file's bytes are kept, for the /v1 route that serves them; null for a file not attached.",
      args: { fileId: t.arg.id({ required: true, description: 'The attached upload.' }) },
      select: (args) => {
        const fileId = parseId(args.fileId, 'Upload', 'fileId');
        // An id the database cannot hold names no file.
        return {
          attachments: {
            where: { uploadId: isStorableId(fileId) ? fileId : -1 },
            select: { upload: { select: storedFileSelection } },
          },
        };
      },
      resolve: (event) => (event.attachments[0] ? storedFileOf(event.attachments[0].upload, 'ORIGINAL') : null),
    }),
    hasEnd: t.boolean({
      description: 'Whether the event has an end.',
      select: { end: true },
      resolve: (event) => event.end !== null,
    }),
    localStart: t.string({
      description: "The start as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district's time zone.",
      select: { start: true },
      resolve: (event, _args, { viewer }) => wallClock(event.start, viewer!),
    }),
    localEnd: t.string({
      nullable: true,
      description:
        "The end as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district's time zone; null without an end.",
      select: { end: true },
      resolve: (event, _args, { viewer }) => event.end && wallClock(event.end, viewer!),
    }),
    editable: t.boolean({
      description: 'Whether the viewer may change and delete the event.',
      select: { realmType: true, realmId: true, authorId: true, type: true },
      resolve: (event, _args, { viewer }) =>
        can(viewer!, calendarEventPolicy, 'update', {
          realm: { type: event.realmType, id: event.realmId },
          authorId: event.authorId,
          type: event.type,
        }),
    }),
  }),
});
