/**
 * HTML written by teachers and shown to students, made safe once, on write, with sanitize-html: what a lesson needs
 * (text formatting, lists, tables, links, images) stays; scripts, styles, frames, forms, event handler attributes
 * and `javascript:` or `data:` URLs go.
 */
import sanitizeHtml from 'sanitize-html';

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
