import { describe, expect, it } from 'vitest';
import { parseXmlBody, renderXml, XmlBodyError } from '../../src/rest/xml.js';
import { xmlHead } from '../support/wire';

describe('renderXml', () => {
  it('renders a list envelope as repeated item elements under <result>', () => {
    const envelope = {
      group: [
        { id: 1, title: 'Chess' },
        { id: 2, title: 'Choir' },
      ],
      total: 2,
      links: { self: 'https://api.example.test/v1/groups?start=0&limit=20' },
    };
    expect(renderXml(envelope)).toBe(
      xmlHead +
        '<result>' +
        '<group><id>1</id><title>Chess</title></group>' +
        '<group><id>2</id><title>Choir</title></group>' +
        '<total>2</total>' +
        '<links><self>https://api.example.test/v1/groups?start=0&amp;limit=20</self></links>' +
        '</result>',
    );
  });

  it('renders a nested list inside its wrapper element', () => {
    const grades = {
      grades: {
        grade: [
          { enrollment_id: 7, grade: 9.5 },
          { enrollment_id: 8, grade: 0 },
        ],
      },
    };
    expect(renderXml(grades)).toBe(
      xmlHead +
        '<result><grades>' +
        '<grade><enrollment_id>7</enrollment_id><grade>9.5</grade></grade>' +
        '<grade><enrollment_id>8</enrollment_id><grade>0</grade></grade>' +
        '</grades></result>',
    );
  });

  it('repeats the field element for an array of scalars', () => {
    expect(renderXml({ assignees: [12, 45] })).toBe(
      `${xmlHead}<result><assignees>12</assignees><assignees>45</assignees></result>`,
    );
  });

  it('renders empty values as one self-closing element', () => {
    expect(renderXml({ assignees: [], description: '', folder_id: null, due: undefined, id: 3 })).toBe(
      `${xmlHead}<result><assignees /><description /><folder_id /><due /><id>3</id></result>`,
    );
  });

  it('renders booleans as 1 and 0', () => {
    expect(renderXml({ published: true, locked: false })).toBe(
      `${xmlHead}<result><published>1</published><locked>0</locked></result>`,
    );
  });

  it('escapes HTML bodies instead of using CDATA', () => {
    expect(renderXml({ body: '<b>a & b</b>' })).toBe(
      `${xmlHead}<result><body>&lt;b&gt;a &amp; b&lt;/b&gt;</body></result>`,
    );
  });

  it('uses no attributes anywhere', () => {
    expect(renderXml({ user: { id: 1, name_first: 'Ada' } })).not.toMatch(/<\w+ \w+=/);
  });
});

describe('parseXmlBody', () => {
  const listPaths = new Set(['assignees', 'grading_category', 'grading_categories.grading_category', 'grades.grade']);

  it.each(['body', 'request', 'result'])('returns the content of a <%s> root', (root) => {
    expect(parseXmlBody(`<${root}><title>Essay</title></${root}>`, { listPaths })).toEqual({ title: 'Essay' });
  });

  it('reads a list field that occurs once as an array', () => {
    expect(parseXmlBody('<body><assignees>12</assignees></body>', { listPaths })).toEqual({ assignees: ['12'] });
  });

  it('reads a list field that occurs twice as an array', () => {
    const body = '<body><assignees>12</assignees><assignees>45</assignees></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({ assignees: ['12', '45'] });
  });

  it('makes any other repeated element an array, and a single one a plain value', () => {
    const body = '<body><tag>a</tag><tag>b</tag><title>x</title></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({ tag: ['a', 'b'], title: 'x' });
  });

  it("reads lists by their path, so that an item may have a member named like the list's items", () => {
    const body = '<body><grades><grade><assignment_id>5</assignment_id><grade>B</grade></grade></grades></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({ grades: { grade: [{ assignment_id: '5', grade: 'B' }] } });
  });

  it('finds nested list fields by their path and reads nested elements as objects', () => {
    const body =
      '<body><grading_categories><grading_category><title>Tests</title><weight>60</weight></grading_category>' +
      '</grading_categories></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({
      grading_categories: { grading_category: [{ title: 'Tests', weight: '60' }] },
    });
  });

  it('round-trips rendered documents', () => {
    const rendered = renderXml({ title: 'Essay', assignees: [12], grading_category: [] });
    expect(parseXmlBody(rendered, { listPaths })).toEqual({ title: 'Essay', assignees: ['12'], grading_category: [] });
  });

  it('keeps every value a string', () => {
    const body = '<body><code>007</code><published>true</published><max_points>1e3</max_points></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({ code: '007', published: 'true', max_points: '1e3' });
  });

  it('trims text, reads empty elements as "" and ignores attributes and the declaration', () => {
    const body =
      '<?xml version="1.0" encoding="utf-8"?>\n<body type="x">\n  <title lang="en">  Essay  </title>\n' +
      '  <description/>\n  <notes></notes>\n</body>\n';
    expect(parseXmlBody(body, { listPaths })).toEqual({ title: 'Essay', description: '', notes: '' });
  });

  it('decodes predefined entities, character references and CDATA', () => {
    const body = '<body><text>&lt;b&gt;a &amp; b&lt;/b&gt; &#233;&#x41;</text><html><![CDATA[<i>x</i>]]></html></body>';
    expect(parseXmlBody(body, { listPaths })).toEqual({ text: '<b>a & b</b> éA', html: '<i>x</i>' });
  });

  it('gives an empty object for an empty root', () => {
    expect(parseXmlBody('<body/>', { listPaths })).toEqual({});
  });

  it('does not treat a root named like a list field as a list', () => {
    expect(parseXmlBody('<assignees><id>1</id></assignees>', { listPaths })).toEqual({ id: '1' });
  });

  function bodyError(text: string): XmlBodyError {
    try {
      parseXmlBody(text, { listPaths });
    } catch (error) {
      expect(error).toBeInstanceOf(XmlBodyError);
      return error as XmlBodyError;
    }
    throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  }

  it.each(['', '   \n '])('rejects an empty body %j', (text) => {
    expect(bodyError(text).message).toMatch(/empty XML body/);
  });

  it('rejects a DOCTYPE declaring an external entity (XXE)', () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE body [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><body><title>&xxe;</title></body>';
    expect(bodyError(xxe).message).toMatch(/DOCTYPE is not allowed/);
  });

  it('rejects billion-laughs entity declarations', () => {
    const laughs =
      '<!doctype lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><body><t>&lol3;</t></body>';
    expect(bodyError(laughs).message).toMatch(/DOCTYPE is not allowed/);
  });

  it('rejects an entity declaration even without a DOCTYPE keyword', () => {
    expect(bodyError('<body><!ENTITY a "b"><t>x</t></body>').message).toMatch(/DOCTYPE is not allowed/);
  });

  it('rejects malformed XML with the line of the problem', () => {
    expect(bodyError('<body>\n<title>Essay</body>').message).toMatch(
      /malformed at line 2.*Expected closing tag 'title'/,
    );
  });

  it('rejects two root elements', () => {
    expect(bodyError('<body><a>1</a></body><body><a>2</a></body>').message).toMatch(/malformed.*root/i);
  });

  it('rejects text that is not XML', () => {
    expect(bodyError('{"title":"Essay"}').message).toMatch(/malformed/);
  });

  it('rejects text mixed with elements at the root', () => {
    expect(bodyError('<body>stray<title>Essay</title></body>').message).toMatch(/only elements, not text/);
  });

  it('rejects a root holding only text', () => {
    expect(bodyError('<body>Essay</body>').message).toMatch(/only elements, not text/);
  });

  it('rejects element names that would pollute prototypes', () => {
    expect(bodyError('<body><__proto__><admin>1</admin></__proto__></body>').message).toMatch(/could not be read/);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
