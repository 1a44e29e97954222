import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import {
  type LinkBuilder,
  type RestRequest,
  createRoute,
  deleteRoute,
  fileRoute,
  htmlWire,
  listRoute,
  selfLink,
  updateRoute,
  viewRoute,
  wireBit,
} from '../../rest/route';
import { realmPath } from '../../rest/router';
import { fileAttachmentIds, flag, oneOf, text, wireBody, withExamples } from '../../rest/wire-body';
import { everyRealm } from './calendar-event.service';

const RestCalendarEvent = graphql(`
  fragment RestCalendarEvent on CalendarEvent @_unmask {
    id: databaseId title description localStart hasEnd localEnd allDay editable rsvp commentsEnabled type realmType realmId
  }
`);
const RestAttachments = graphql(`
  fragment RestAttachments on CalendarEvent @_unmask {
    attachments { downloadUrl file { id: databaseId filename filesize md5Checksum } }
  }
`);

const realmNames = {
  DISTRICT: 'district',
  SCHOOL: 'school',
  USER: 'user',
  SECTION: 'section',
  GROUP: 'group',
} as const;
const rsvpCodes = { NOBODY: 0, INVITED: 1, ANYONE: 2 } as const;
const wallClock = "YYYY-MM-DD HH:MM:SS, in the district's time zone";
const realmId = (noun: string) => z.int().optional().describe(`Id of the ${noun}, when the event is one of a ${noun}.`);

/**
 * Ids are integers, as are the realm id members (`section_id`, ...), and `end` is empty without an end: all as every
 * example of the platform's event documentation shows (its field table and spec 2.16 type `id` as a string).
 */
export const calendarEventWire = z
  .object({
    id: z.int(),
    title: z.string(),
    description: htmlWire,
    start: z.string().describe(wallClock),
    has_end: wireBit,
    end: z.string().describe(`${wallClock} when has_end is 1; empty otherwise`),
    all_day: wireBit,
    editable: wireBit.describe('Whether the caller may change and delete the event.'),
    rsvp: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .describe('0 no one may RSVP, 1 only invited people, 2 anyone.'),
    comments_enabled: wireBit,
    type: z.enum(['event', 'assignment', 'discussion']),
    realm: z.enum(Object.values(realmNames)),
    district_id: realmId('district'),
    school_id: realmId('school'),
    user_id: realmId('user'),
    section_id: realmId('section'),
    group_id: realmId('group'),
    attachments: z
      .object({
        files: z.object({
          file: z.array(
            z.object({
              id: z.int(),
              type: z.literal('file'),
              title: z.string(),
              filename: z.string(),
              filesize: z.int(),
              md5_checksum: z.string(),
              download_path: z.url(),
            }),
          ),
        }),
      })
      .optional()
      .describe('The attached files, with with_attachments=1.'),
    links: selfLink,
  })
  .meta({ id: 'CalendarEvent', description: 'A calendar event (spec 2.16).' });

const bit = (value: boolean) => (value ? 1 : 0);

type RestEvent = ResultOf<typeof RestCalendarEvent> & { attachments?: ResultOf<typeof RestAttachments>['attachments'] };

function eventToWire(event: RestEvent, link: LinkBuilder): z.input<typeof calendarEventWire> {
  const realm = realmNames[event.realmType];
  return {
    id: Number(event.id),
    title: event.title,
    description: event.description ?? '',
    start: event.localStart,
    has_end: bit(event.hasEnd),
    end: event.localEnd ?? '',
    all_day: bit(event.allDay),
    editable: bit(event.editable),
    rsvp: rsvpCodes[event.rsvp],
    comments_enabled: bit(event.commentsEnabled),
    type: event.type.toLowerCase() as 'event' | 'assignment' | 'discussion',
    realm,
    [`${realm}_id`]: Number(event.realmId),
    ...(event.attachments ? { attachments: { files: { file: event.attachments.map(attachmentToWire) } } } : {}),
    links: { self: link(`${realmPath(event.realmType, event.realmId)}/events/${event.id}`) },
  };
}

const attachmentToWire = ({ file, downloadUrl }: NonNullable<RestEvent['attachments']>[number]) => ({
  id: Number(file.id),
  type: 'file' as const,
  title: file.filename,
  filename: file.filename,
  filesize: file.filesize,
  md5_checksum: file.md5Checksum,
  download_path: downloadUrl,
});

const eventMembers = {
  title: text('title'),
  description: text('description'),
  start: withExamples(text, '2026-05-14 16:30:00')('start'),
  has_end: flag('hasEnd'),
  end: withExamples(text, '2026-05-14 18:30:00')('end'),
  all_day: flag('allDay'),
  rsvp: oneOf({ 0: 'NOBODY', 1: 'INVITED', 2: 'ANYONE' })('rsvp'),
  comments_enabled: flag('commentsEnabled'),
  type: withExamples(oneOf({ event: 'EVENT', assignment: 'ASSIGNMENT', discussion: 'DISCUSSION' }), 'event')('type'),
  'file-attachment': { id: fileAttachmentIds('fileIds') },
};
const withAttachments = wireBody({ with_attachments: flag('withAttachments') });
const realms = everyRealm;
const realmOf = (request: RestRequest) => request.realm!;

export const calendarEventRoutes = [
  listRoute({
    path: '/[realm]/events',
    realms,
    summary:
      'List the calendar events of a realm in the order they start; start_date and end_date (both) limit it to those days',
    item: 'event',
    filters: wireBody({
      start_date: withExamples(text, '2026-05-01')('startDate'),
      end_date: withExamples(text, '20260531')('endDate'),
      with_attachments: flag('withAttachments'),
    }),
    wire: calendarEventWire,
    document: graphql(
      `query($realm: RealmInput!, $startDate: String, $endDate: String, $withAttachments: Boolean!, $start: Int!, $limit: Int!) {
        calendarEvents(realm: $realm, startDate: $startDate, endDate: $endDate, start: $start, limit: $limit) {
          total items { ...RestCalendarEvent ...RestAttachments @include(if: $withAttachments) }
        }
      }`,
      [RestCalendarEvent, RestAttachments],
    ),
    variables: (request) => ({
      realm: realmOf(request),
      startDate: request.filters.startDate,
      endDate: request.filters.endDate,
      withAttachments: request.filters.withAttachments === true,
    }),
    shape: eventToWire,
  }),
  viewRoute({
    path: '/[realm]/events/{id}',
    realms,
    summary: 'View a calendar event; with_attachments=1 includes its files',
    wire: calendarEventWire,
    filters: withAttachments,
    document: graphql(
      `query($realm: RealmInput!, $id: ID!, $withAttachments: Boolean!) {
        calendarEvent(realm: $realm, id: $id) { ...RestCalendarEvent ...RestAttachments @include(if: $withAttachments) }
      }`,
      [RestCalendarEvent, RestAttachments],
    ),
    variables: (request) => ({
      realm: realmOf(request),
      id: request.params.id,
      withAttachments: request.filters.withAttachments === true,
    }),
    shape: eventToWire,
  }),
  createRoute({
    path: '/[realm]/events',
    realms,
    summary: 'Create a calendar event in a realm',
    body: wireBody(eventMembers, ['title', 'start']),
    wire: calendarEventWire,
    document: graphql(
      `mutation($input: CreateCalendarEventInput!) {
        createCalendarEvent(input: $input) { userErrors { ...UserErrors } calendarEvent { ...RestCalendarEvent } }
      }`,
      [UserErrors, RestCalendarEvent],
    ),
    variables: (request) => ({ input: { ...request.input, realm: realmOf(request) } }),
    payload: 'calendarEvent',
    shape: eventToWire,
  }),
  fileRoute({
    path: '/[realm]/events/{id}/attachments/{fileId}',
    realms,
    summary: 'The bytes of a file attached to a calendar event (its download_path)',
    document: graphql(
      `query($realm: RealmInput!, $id: ID!, $fileId: ID!) {
        calendarEvent(realm: $realm, id: $id) { storedFile(fileId: $fileId) { key contentType filename inline } }
      }`,
    ),
    variables: (request) => ({ realm: realmOf(request), id: request.params.id, fileId: request.params.fileId }),
    file: (event) => event.storedFile,
  }),
  updateRoute({
    path: '/[realm]/events/{id}',
    realms,
    summary: 'Update a calendar event (due events of assignments and discussions are refused with 403)',
    body: wireBody(eventMembers),
    document: graphql(
      `mutation($input: UpdateCalendarEventInput!) {
        updateCalendarEvent(input: $input) { userErrors { ...UserErrors } }
      }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id, realm: realmOf(request) } }),
  }),
  deleteRoute({
    path: '/[realm]/events/{id}',
    realms,
    summary: 'Delete a calendar event (due events of assignments and discussions are refused with 403)',
    document: graphql(
      `mutation($input: DeleteCalendarEventInput!) { deleteCalendarEvent(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id, realm: realmOf(request) } }),
  }),
];
