/**
 * HTML written by teachers and members and shown to others, made safe once, on write, with sanitize-html: what a
 * lesson needs (text formatting, lists, tables, links, images) stays; scripts, styles, frames, forms, event handler
 * attributes and `javascript:` or `data:` URLs go.
 */
import { compile } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

/**
 * Every stored member that front ends render as HTML, as `Model.member`, with its longest accepted length. Each is
 * read through `htmlText` (src/core/validation.ts), so it is sanitized on write on /v1 and GraphQL alike; every other
 * text member is plain text, stored and answered as given, for front ends to escape.
 * test/rest/stored-html.test.ts writes markup to each entry over both APIs.
 */
export const htmlFields = {
  // Spec 2.8: a page's body "may be HTML".
  'Page.body': { maxLength: 1_000_000 },
  // Spec 2.10: a post's body is "rendered as HTML"; group members' posts are blog posts too.
  'BlogPost.body': { maxLength: 1_000_000 },
  // The platform edits these with its rich-text editor and renders them as HTML, so front ends written against it do.
  'CalendarEvent.description': { maxLength: 100_000 },
  'Album.description': { maxLength: 100_000 },
  'AlbumContent.caption': { maxLength: 10_000 },
  'AlbumComment.comment': { maxLength: 10_000 },
} as const;

export type HtmlField = keyof typeof htmlFields;

const options: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'u', 's', 'sub', 'sup', 'span', 'del', 'ins'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start', 'type'],
    '*': ['dir', 'lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Links that open elsewhere cannot reach back into the page that opened them.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export const sanitizeHtmlBody = (html: string): string => sanitizeHtml(html, options);

/**
 * Sanitized HTML as plain text, for where markup cannot go (an iCalendar DESCRIPTION): blocks and breaks become line
 * breaks, lists get bullets, entities are decoded, a link keeps its URL in brackets, images go, and the writer's case
 * stays; no wrapping (calendar apps wrap).
 */
export const htmlToPlainText: (html: string) => string = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
});
