import { NotFoundError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { deleteMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { createCalendarFeed, deleteCalendarFeed, feedPath } from './calendar-feed.service';
import { IssuedCalendarFeedType } from './calendar-feed.type';

builder.mutationField('createCalendarFeed', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: IssuedCalendarFeedType,
    description:
      "Makes a private iCalendar feed of the viewer's calendar, for calendar apps that subscribe to a URL. Revoke it " +
      'with deleteCalendarFeed.',
    resolve: async (_root, _args, { viewer, origin }) => {
      const { token, ...feed } = await createCalendarFeed(viewer);
      return { ...feed, url: `${origin}${feedPath(token)}` };
    },
  }),
);

deleteMutation('deleteCalendarFeed', {
  description: "Revokes one of the viewer's calendar feeds: its URL answers 404 from then on.",
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The calendar feed to delete.' }) }),
  resolve: (viewer, args) => deleteCalendarFeed(viewer, parseId(args.id, 'CalendarFeed')),
});
