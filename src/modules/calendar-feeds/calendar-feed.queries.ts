import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { can } from '../../auth/policy';
import { calendarFeedPolicy, ownFeedsWhere } from './calendar-feed.policy';

builder.queryField('calendarFeeds', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['CalendarFeed'],
    description: "The viewer's private iCalendar feeds (their URLs were shown once, when made).",
    resolve: (query, _root, _args, { viewer }) =>
      db().calendarFeed.findMany({ ...query, where: ownFeedsWhere(viewer), orderBy: { id: 'asc' } }),
  }),
);

builder.queryField('calendarFeedsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'CalendarFeed',
      ...connectionOptions,
      description: 'The feeds `calendarFeeds` lists, as a Relay connection in the same order.',
      resolve: (query, _root, _args, { viewer }) =>
        db().calendarFeed.findMany(keysetWindow(query, ownFeedsWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().calendarFeed.count({ where: ownFeedsWhere(viewer) }),
    },
    connectionOf('CalendarFeed'),
  ),
);

// As `calendarFeeds`: the viewer's own.
registerNodeVisibility(
  'CalendarFeed',
  visibleThrough(
    'CalendarFeed',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    (viewer, userId) => can(viewer, calendarFeedPolicy, 'read', userId),
  ),
);
