// What the /v1 wire looks like, written out independently of src/rest, for tests to compare responses against.

/** The origin every in-process request of the test harness is addressed to. */
export const testOrigin = 'http://lectern.test';

/** The /v1 API's base URL in tests: links.self, links.next and Location headers start with it. */
export const v1 = `${testOrigin}/v1`;

/** The declaration every XML response starts with. */
export const xmlHead = '<?xml version="1.0" encoding="utf-8" ?>';

const escapeXml = (value: unknown) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One XML element as the platform writes it: the value escaped, an empty value self-closing. */
export const el = (name: string, value: unknown) =>
  value === '' ? `<${name} />` : `<${name}>${escapeXml(value)}</${name}>`;

/** Request options for a raw body: strings starting with `{` go as JSON; the client sends other strings as XML. */
export const asJson = (body: unknown) =>
  typeof body === 'string' && body.startsWith('{') ? { contentType: 'application/json' } : {};
