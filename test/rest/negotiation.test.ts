import { describe, expect, it } from 'vitest';
import { contentTypes, requestFormat, responseFormat } from '../../src/rest/negotiation.js';

describe('responseFormat', () => {
  it.each([
    [null, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['text/html, image/png', 'json'],
    ['application/json', 'json'],
    ['text/xml', 'xml'],
    ['application/xml', 'xml'],
    ['TEXT/XML', 'xml'],
    ['text/xml; charset=utf-8', 'xml'],
    ['text/xml;q=1.0,application/json;q=0.0', 'xml'],
    ['application/json;q=0.5, text/xml;q=0.9', 'xml'],
    ['text/xml;q=0.4, application/json', 'json'],
    ['application/xml; charset=utf-8; q=0.8, application/json; q=0.7', 'xml'],
    ['*/*;q=0.1, text/xml', 'xml'],
    ['text/xml;q=0', 'json'],
    ['application/json;q=0, text/xml;q=0', 'json'],
  ] as const)('Accept %j gives %s', (accept, expected) => {
    expect(responseFormat(accept)).toBe(expected);
  });

  it('lets the first listed win a tie', () => {
    expect(responseFormat('text/xml, application/json')).toBe('xml');
    expect(responseFormat('application/json, text/xml')).toBe('json');
    expect(responseFormat('application/json;q=0.5, application/xml;q=0.5')).toBe('json');
  });
});

describe('requestFormat', () => {
  it.each([
    [null, 'none'],
    ['', 'none'],
    ['application/json', 'json'],
    ['application/json; charset=UTF-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/vnd.api+json', 'json'],
    ['text/xml', 'xml'],
    ['text/xml; charset=utf-8', 'xml'],
    ['application/xml', 'xml'],
    ['application/x-www-form-urlencoded', 'form'],
    ['application/x-www-form-urlencoded; charset=utf-8', 'form'],
    ['multipart/form-data; boundary=----abc', 'form'],
    ['text/plain', 'unsupported'],
    ['application/octet-stream', 'unsupported'],
  ] as const)('Content-Type %j gives %s', (contentType, expected) => {
    expect(requestFormat(contentType)).toBe(expected);
  });
});

it('names the response content types with their charset', () => {
  expect(contentTypes).toEqual({ json: 'application/json; charset=utf-8', xml: 'text/xml; charset=utf-8' });
});
