import { objectIdInput } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { createCalendarFeed, deleteCalendarFeed, feedPath } from './calendar-feed.service';

payloadMutation('createCalendarFeed', {
  description:
    "Makes a private iCalendar feed of the viewer's calendar, for calendar apps that subscribe to a URL. Revoke it " +
    'with deleteCalendarFeed.',
  payload: {
    calendarFeed: { model: 'CalendarFeed', description: 'The new feed.' },
    url: {
      scalar: 'String',
      description:
        'The iCalendar URL to subscribe to in a calendar app; anyone with it reads the calendar. It holds the ' +
        "feed's secret token and is shown only here.",
    },
  },
  resolve: async (viewer, _input, select, { origin }) => {
    const { feed, token } = await createCalendarFeed(viewer, select('calendarFeed'));
    return { calendarFeed: feed, url: `${origin}${feedPath(token)}` };
  },
});
payloadMutation('deleteCalendarFeed', {
  description: "Revokes one of the viewer's calendar feeds: its URL answers 404 from then on.",
  input: objectIdInput('The calendar feed to delete.'),
  inputDescription: 'The calendar feed to delete.',
  payload: { deletedCalendarFeedId: { deleted: 'CalendarFeed', description: 'Global id of the revoked feed.' } },
  resolve: async (viewer, { id }) => ({
    deletedCalendarFeedId: (await deleteCalendarFeed(viewer, parseId(id, 'CalendarFeed'))).id,
  }),
});
