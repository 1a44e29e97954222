import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';

builder.prismaNode('CalendarFeed', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'CalendarFeed', ['createdAt']),
  }),
});

export interface IssuedCalendarFeed {
  id: number;
  createdAt: Date;
  url: string;
}

export const IssuedCalendarFeedType = builder.objectRef<IssuedCalendarFeed>('IssuedCalendarFeed').implement({
  description: 'A newly made calendar feed. Its URL, which holds its secret token, is shown only here.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Feed id.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the feed was made.' }),
    url: t.exposeString('url', {
      description: 'The iCalendar URL to subscribe to in a calendar app; anyone with it reads the calendar.',
    }),
  }),
});
