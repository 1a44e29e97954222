import { db } from '../../db/database';
import { NotFoundError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { connectionOptions, describedTotalCount, keysetWindow } from '../../graphql/connections';
import { deleteMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { createCalendarFeed, deleteCalendarFeed, feedPath } from './calendar-feed.service';
import { IssuedCalendarFeedType } from './calendar-feed.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import type { Viewer } from '../../auth/viewer';

builder.queryField('calendarFeeds', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['CalendarFeed'],
    description: 'The viewer\'s private iCalendar feeds (their URLs were shown once, when made).',
    resolve: (query, _root, _args, { viewer }) => db().calendarFeed.findMany({ ...query, where: { userId: viewer.id }, orderBy: { id: 'asc' } }),
  }),
);

builder.queryField('calendarFeedsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection({
    type: 'CalendarFeed',
    ...connectionOptions,
    description: 'The feeds `calendarFeeds` lists, as a Relay connection in the same order.',
    resolve: (query, _root, _args, { viewer }) => db().calendarFeed.findMany(keysetWindow(query, { userId: viewer.id })),
    totalCount: (_root, _args, { viewer }) => db().calendarFeed.count({ where: { userId: viewer.id } }),
  }, describedTotalCount),
);

builder.mutationField('createCalendarFeed', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: IssuedCalendarFeedType,
    description:
      'Makes a private iCalendar feed of the viewer\'s calendar, for calendar apps that subscribe to a URL. Revoke it ' +
      'with deleteCalendarFeed.',
    resolve: async (_root, _args, { viewer, origin }) => {
      const { token, ...feed } = await createCalendarFeed(viewer);
      return { ...feed, url: `${origin}${feedPath(token)}` };
    },
  }),
);

deleteMutation('deleteCalendarFeed', {
  description: 'Revokes one of the viewer\'s calendar feeds: its URL answers 404 from then on.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The calendar feed to delete.' }) }),
  resolve: (viewer, args) => deleteCalendarFeed(viewer, parseId(args.id, 'CalendarFeed')),
});

// As `calendarFeeds`: the viewer's own.
const ownedByViewer = async (viewer: Viewer, userId: number) => userId === viewer.id;
registerNodeVisibility('CalendarFeed', visibleThrough('CalendarFeed', { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId }, ownedByViewer));
