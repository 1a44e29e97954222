import type { Plugin } from 'graphql-yoga';
import { renderCalendarFeed } from './calendar-feed.service';

const feedUrl = /^\/calendar\/([A-Za-z0-9_-]{20,100})\.ics$/;

/**
 * GET /calendar/{token}.ics: the iCalendar feed a token opens, for calendar apps, which send no credentials (the token
 * is the credential). An unknown or revoked token is a 404.
 */
export function useCalendarFeeds(): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith('/calendar/')) return;
      const token = feedUrl.exec(url.pathname)?.[1];
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return endResponse(new Response('Method Not Allowed', { status: 405, headers: { allow: 'GET, HEAD' } }));
      }
      const document = token ? await renderCalendarFeed(token) : null;
      if (document === null)
        return endResponse(
          new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
        );
      endResponse(
        new Response(request.method === 'HEAD' ? null : document, {
          status: 200,
          headers: {
            'content-type': 'text/calendar; charset=utf-8',
            'content-disposition': 'inline; filename="calendar.ics"',
            // The URL is a secret: shared caches must not keep the calendar behind it.
            'cache-control': 'private, max-age=300',
            'x-robots-tag': 'noindex',
          },
        }),
      );
    },
  };
}
