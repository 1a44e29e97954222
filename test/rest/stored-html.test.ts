import { isInputObjectType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HtmlField, htmlFields } from '../../src/core/html';
import { db } from '../../src/db/database';
import type { Model } from '../../src/graphql/columns';
import { delegateOf } from '../../src/graphql/nodes';
import { schema } from '../../src/graphql/schema';
import { clientsFor } from '../support/client';
import { type World, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { el } from '../support/wire';

// Every member front ends render as HTML (src/core/html.ts) is sanitized on write, over /v1 (JSON and XML) and
// GraphQL alike; every other text is plain text, stored and answered as given.
const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
});

/** What a hostile writer sends: an image's error handler, a script and a javascript: link, beside ordinary formatting. */
const sent =
  '<p>Read <b>this</b> &amp; <a href="https://example.org/notes">the notes</a></p>' +
  '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">there</a>';
/** What is stored and answered: the formatting and the https link stay; the handler, the script and the URL go. */
const kept =
  '<p>Read <b>this</b> &amp; <a href="https://example.org/notes" rel="noopener noreferrer">the notes</a></p>' +
  '<img src="x" /><a rel="noopener noreferrer">there</a>';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** How each declared field is written and read: its /v1 collection under a section and its GraphQL mutations. */
interface Recipe {
  collection: string;
  create: string;
  update: string;
}

const recipes: Record<HtmlField, Recipe> = {
  'Page.body': { collection: 'pages', create: 'createPage', update: 'updatePage' },
  'BlogPost.body': { collection: 'posts', create: 'createBlogPost', update: 'updateBlogPost' },
};

const declared = Object.keys(htmlFields) as HtmlField[];
const partsOf = (field: HtmlField) => field.split('.') as [Model, string];
const stored = async (field: HtmlField, id: number) => {
  const [model, member] = partsOf(field);
  const row = (await delegateOf(model).findMany({ where: { id: { in: [id] } } }))[0] as Record<string, unknown>;
  return row[member];
};

describe.each(declared)('%s', (field) => {
  const [model, member] = partsOf(field);
  const { collection, create, update } = recipes[field];
  const base = () => `/sections/${section.id}/${collection}`;

  it('is sanitized on write over /v1: created in JSON, changed in XML, read back in both', async () => {
    const teacher = await clients.rest(w.teacher);
    const created = await teacher.post(base(), { title: 'Notes', [member]: sent });
    expect([created.status, created.json[member]]).toEqual([201, kept]);
    const id = Number(created.json.id);
    expect(await stored(field, id)).toBe(kept);

    const path = `${base()}/${id}`;
    expect((await teacher.put(path, { [member]: '<p>plain</p>' })).status).toBe(204);
    expect(await stored(field, id)).toBe('<p>plain</p>');
    expect((await teacher.put(path, `<body>${el(member, sent)}</body>`)).status).toBe(204);
    expect(await stored(field, id)).toBe(kept);
    const reader = await clients.rest(w.student);
    expect((await reader.get(path)).json[member]).toBe(kept);
    expect((await reader.get(path, { accept: 'xml' })).text).toContain(`<${member}>${escapeXml(kept)}</${member}>`);
  });

  it('is sanitized on write over GraphQL: created and changed', async () => {
    const graphql = await clients.graphql(w.teacher);
    const realm = { type: 'SECTION', id: String(section.id) };
    const selection = `__typename ... on ${model} { id: databaseId ${member} } ... on Error { message }`;
    const created = await graphql(
      `mutation($realm: RealmInput!, $input: Create${model}Input!) { ${create}(realm: $realm, input: $input) { ${selection} } }`,
      { realm, input: { title: 'Notes', [member]: sent } },
    );
    const object = created.data[create];
    expect(object).toEqual({ __typename: model, id: object.id, [member]: kept });
    expect(await stored(field, Number(object.id))).toBe(kept);

    const changed = await graphql(
      `mutation($realm: RealmInput!, $id: ID!, $input: Update${model}Input!) { ${update}(realm: $realm, id: $id, input: $input) { ${selection} } }`,
      { realm, id: object.id, input: { [member]: `<h2>Again</h2>${sent}` } },
    );
    expect(changed.data[update]).toEqual({ __typename: model, id: object.id, [member]: `<h2>Again</h2>${kept}` });
  });
});

describe('GraphQL descriptions', () => {
  const description = (type: string, name: string) => {
    const found = schema.getType(type);
    return isObjectType(found) || isInputObjectType(found) ? found.getFields()[name]?.description : undefined;
  };

  it('call exactly the declared fields HTML, on the object type and in its create and update inputs', () => {
    const calledHtml = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInputObjectType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.description?.includes('HTML')) calledHtml.add(`${type.name.replace(/^(?:Create|Update)(\w+)Input$/, '$1')}.${field.name}`);
      }
    }
    expect([...calledHtml].sort()).toEqual([...declared].sort());
    for (const field of declared) {
      const [model, member] = partsOf(field);
      for (const type of [model, `Create${model}Input`, `Update${model}Input`]) expect(description(type, member)).toMatch(/HTML,? sanitized on write/);
    }
  });

  it.each([
    ['CalendarEvent', 'description'],
    ['Album', 'description'],
    ['AlbumContent', 'caption'],
    ['AlbumComment', 'comment'],
    ['Group', 'description'],
  ])('call %s.%s plain text', (type, name) => {
    expect(description(type, name)).toContain('as plain text');
  });
});

describe('plain text', () => {
  it('is stored and answered as given, escaped only by the XML notation (a calendar event\'s description)', async () => {
    const teacher = await clients.rest(w.teacher);
    const created = await teacher.post(`/sections/${section.id}/events`, { title: 'Trip', start: '2026-05-14 08:00:00', description: sent });
    expect([created.status, created.json.description]).toEqual([201, sent]);
    expect((await db().calendarEvent.findUniqueOrThrow({ where: { id: created.json.id } })).description).toBe(sent);
    const xml = await teacher.get(`/sections/${section.id}/events/${created.json.id}`, { accept: 'xml' });
    expect(xml.text).toContain(`<description>${escapeXml(sent)}</description>`);
  });
});
