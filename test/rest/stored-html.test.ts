import { isInputObjectType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HtmlField, htmlFields } from '../../src/core/html';
import { db } from '../../src/db/database';
import type { Model } from '../../src/graphql/columns';
import { delegateOf } from '../../src/graphql/nodes';
import { schema } from '../../src/graphql/schema';
import { type Format, type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import {
  type World,
  createAlbum,
  createAlbumItem,
  createSection,
  createStoredUpload,
  createWorld,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { el } from '../support/wire';

// Every member front ends render as HTML (src/core/html.ts) is sanitized on write, over /v1 (JSON and XML) and
// GraphQL alike; every other text is plain text, stored and answered as given.
const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let album: { id: number };
let item: { id: number };

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  album = await createAlbum({ type: 'SECTION', id: section.id });
  item = await createAlbumItem(album.id, w.teacher.id);
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

/** A /v1 write body of flat members, in either notation. */
const flatBody = (members: Record<string, string | number>, format: Format) =>
  format === 'json'
    ? members
    : `<body>${Object.entries(members)
        .map(([name, value]) => el(name, value))
        .join('')}</body>`;

/** What a /v1 create answered: its status, the object's id and /v1 path, and the member as answered. */
interface RestCreated {
  status: number;
  id: number;
  path: string;
  answered: unknown;
}

/** How each declared field is written and read on both APIs. */
interface Recipe {
  /** Creates an object over /v1 whose member is `value`, the body written in `format`. */
  restCreate: (client: RestClient, value: string, format: Format) => Promise<RestCreated>;
  /** The member in the JSON the object's /v1 view (GET of its path) answers. */
  viewed: (json: any) => unknown;
  /** Whether a PUT of the object's path changes the member (comments are not changed once written). */
  restUpdates: boolean;
  /** Creates an object over GraphQL whose member is `value`: its id and the member as answered. */
  graphqlCreate: (graphql: GraphQLClient, value: string) => Promise<{ id: string; answered: unknown }>;
  /** Changes the member over GraphQL: the member as answered; absent where nothing changes it. */
  graphqlUpdate?: (graphql: GraphQLClient, id: string, value: string) => Promise<unknown>;
  /** The GraphQL input types that carry the member. */
  inputs: string[];
}

const realm = () => ({ type: 'SECTION', id: String(section.id) });

/** Runs a mutation with its one input and gives the database id and `member` of the payload's `object`. */
async function mutate(
  graphql: GraphQLClient,
  field: string,
  input: Record<string, unknown>,
  object: string,
  member: string,
) {
  const inputType = `${field[0]!.toUpperCase()}${field.slice(1)}Input`;
  const answer = await graphql(
    `mutation($input: ${inputType}!) { ${field}(input: $input) {
      ${object} { id: databaseId ${member} } userErrors { code message } } }`,
    { input },
  );
  const payload = answer.data?.[field];
  expect(payload?.userErrors, JSON.stringify(answer)).toEqual([]);
  return { id: payload[object].id as string, answered: payload[object][member] };
}

/** A resource created and changed with flat members at `collection` under the section, and realm-scoped mutations. */
function realmResource(model: Model, member: string, collection: string, members: Record<string, string>): Recipe {
  const base = () => `/sections/${section.id}/${collection}`;
  const payloadMember = model[0]!.toLowerCase() + model.slice(1);
  return {
    restCreate: async (client, value, format) => {
      const created = await client.post(base(), flatBody({ ...members, [member]: value }, format));
      return {
        status: created.status,
        id: Number(created.json?.id),
        path: `${base()}/${created.json?.id}`,
        answered: created.json?.[member],
      };
    },
    viewed: (json) => json[member],
    restUpdates: true,
    graphqlCreate: (graphql, value) =>
      mutate(graphql, `create${model}`, { realm: realm(), ...members, [member]: value }, payloadMember, member),
    graphqlUpdate: async (graphql, id, value) =>
      (await mutate(graphql, `update${model}`, { realm: realm(), id, [member]: value }, payloadMember, member))
        .answered,
    inputs: [`Create${model}Input`, `Update${model}Input`],
  };
}

const albumPath = () => `/sections/${section.id}/albums/${album.id}`;
/** A stored upload of the teacher's, not yet attached, for an album item. */
const freshFile = async () => (await createStoredUpload(w.teacher.id, { filename: 'photo.bin' })).id;

const recipes: Record<HtmlField, Recipe> = {
  'Page.body': realmResource('Page', 'body', 'pages', { title: 'Notes' }),
  'BlogPost.body': realmResource('BlogPost', 'body', 'posts', { title: 'Notes' }),
  'CalendarEvent.description': realmResource('CalendarEvent', 'description', 'events', {
    title: 'Trip',
    start: '2026-05-14 08:00:00',
  }),
  'Album.description': {
    ...realmResource('Album', 'description', 'albums', { title: 'Trip' }),
    // The view of an album answers it in the list envelope.
    viewed: (json) => json.album[0].description,
    graphqlUpdate: async (graphql, id, value) =>
      (await mutate(graphql, 'updateAlbum', { id, description: value }, 'album', 'description')).answered,
  },
  'AlbumContent.caption': {
    restCreate: async (client, value, format) => {
      const file = await freshFile();
      const body =
        format === 'json'
          ? { 'file-attachment': { id: [file] }, extras: [{ fid: file, caption: value }] }
          : `<body><file-attachment><id><id>${file}</id></id></file-attachment><extras>${el('fid', file)}${el('caption', value)}</extras></body>`;
      const created = await client.post(`${albumPath()}/content`, body);
      const [added] = created.json?.content ?? [];
      return {
        status: created.status,
        id: Number(added?.id),
        path: `${albumPath()}/content/${added?.id}`,
        answered: added?.caption,
      };
    },
    // The view of an item answers it in the album envelope.
    viewed: (json) => json.album[0].caption,
    restUpdates: true,
    graphqlCreate: async (graphql, value) => {
      const file = String(await freshFile());
      const answer = await graphql(
        `mutation($input: CreateAlbumContentInput!) {
          createAlbumContent(input: $input) { albumContents { id: databaseId caption } userErrors { code message } }
        }`,
        { input: { albumId: String(album.id), files: [file], extras: [{ fid: file, caption: value }] } },
      );
      const [added] = answer.data?.createAlbumContent?.albumContents ?? [];
      expect(added, JSON.stringify(answer)).toBeDefined();
      return { id: added.id, answered: added.caption };
    },
    graphqlUpdate: async (graphql, id, value) =>
      (
        await mutate(
          graphql,
          'updateAlbumContent',
          { albumId: String(album.id), id, caption: value },
          'albumContent',
          'caption',
        )
      ).answered,
    inputs: ['AlbumContentExtraInput', 'UpdateAlbumContentInput'],
  },
  'AlbumComment.comment': {
    restCreate: async (client, value, format) => {
      const comments = `${albumPath()}/content/${item.id}/comments`;
      const created = await client.post(comments, flatBody({ comment: value }, format));
      return {
        status: created.status,
        id: Number(created.json?.id),
        path: `${comments}/${created.json?.id}`,
        answered: created.json?.comment,
      };
    },
    viewed: (json) => json.comment,
    restUpdates: false,
    graphqlCreate: (graphql, value) =>
      mutate(
        graphql,
        'createAlbumComment',
        { albumId: String(album.id), contentId: String(item.id), comment: value },
        'albumComment',
        'comment',
      ),
    inputs: ['CreateAlbumCommentInput'],
  },
};

const declared = Object.keys(htmlFields) as HtmlField[];
const partsOf = (field: HtmlField) => field.split('.') as [Model, string];
const stored = async (field: HtmlField, id: number) => {
  const [model, member] = partsOf(field);
  const row = (await delegateOf(model).findMany({ where: { id: { in: [id] } } }))[0] as Record<string, unknown>;
  return row[member];
};

describe.each(declared)('%s', (field) => {
  const [, member] = partsOf(field);
  const recipe = recipes[field];

  it('is sanitized on write over /v1: created in JSON and in XML, changed in both, read back in both', async () => {
    const teacher = await clients.rest(w.teacher);
    for (const format of ['json', 'xml'] as const) {
      const created = await recipe.restCreate(teacher, sent, format);
      expect([format, created.status, created.answered]).toEqual([format, 201, kept]);
      expect(await stored(field, created.id)).toBe(kept);
    }
    const { id, path } = await recipe.restCreate(teacher, '<p>plain</p>', 'json');
    expect(await stored(field, id)).toBe('<p>plain</p>');
    if (recipe.restUpdates) {
      expect((await teacher.put(path, { [member]: `<h2>Again</h2>${sent}` })).status).toBe(204);
      expect(await stored(field, id)).toBe(`<h2>Again</h2>${kept}`);
      expect((await teacher.put(path, `<body>${el(member, sent)}</body>`)).status).toBe(204);
      expect(await stored(field, id)).toBe(kept);
    }
    const reader = await clients.rest(w.student);
    const expected = recipe.restUpdates ? kept : '<p>plain</p>';
    expect(recipe.viewed((await reader.get(path)).json)).toBe(expected);
    expect((await reader.get(path, { accept: 'xml' })).text).toContain(`<${member}>${escapeXml(expected)}</${member}>`);
  });

  it(`is sanitized on write over GraphQL: created${recipe.graphqlUpdate ? ' and changed' : ''}`, async () => {
    const graphql = await clients.graphql(w.teacher);
    const created = await recipe.graphqlCreate(graphql, sent);
    expect(created.answered).toBe(kept);
    expect(await stored(field, Number(created.id))).toBe(kept);
    if (recipe.graphqlUpdate) {
      expect(await recipe.graphqlUpdate(graphql, created.id, `<h2>Again</h2>${sent}`)).toBe(`<h2>Again</h2>${kept}`);
      expect(await stored(field, Number(created.id))).toBe(`<h2>Again</h2>${kept}`);
    }
  });
});

describe('album comments', () => {
  it('refuse a comment that sanitizing empties, as they refuse an empty one, on both APIs', async () => {
    const comments = `${albumPath()}/content/${item.id}/comments`;
    const teacher = await clients.rest(w.teacher);
    for (const body of [
      { comment: '<script>alert(1)</script>' },
      '<body><comment>&lt;script&gt;alert(1)&lt;/script&gt; </comment></body>',
    ]) {
      const refused = await teacher.post(comments, body);
      expect([refused.status, refused.json.issues]).toEqual([400, [{ field: 'comment', message: 'is required' }]]);
    }
    const answer = await (await clients.graphql(w.teacher))(
      `mutation($albumId: ID!, $contentId: ID!) { createAlbumComment(input: {
        albumId: $albumId, contentId: $contentId, comment: "<script>alert(1)</script>" }) { userErrors { field code } } }`,
      { albumId: String(album.id), contentId: String(item.id) },
    );
    expect(answer.data.createAlbumComment).toEqual({ userErrors: [{ field: ['input', 'comment'], code: 'INVALID' }] });
  });
});

describe('GraphQL descriptions', () => {
  const description = (type: string, name: string) => {
    const found = schema.getType(type);
    return isObjectType(found) || isInputObjectType(found) ? found.getFields()[name]?.description : undefined;
  };
  /** The declared field a type's member belongs to: that of the model's object type or one of the recipe's inputs. */
  const fieldOf = (type: string, name: string) =>
    declared.find(
      (field) => partsOf(field)[1] === name && (partsOf(field)[0] === type || recipes[field].inputs.includes(type)),
    ) ?? `${type}.${name}`;

  it('call exactly the declared fields HTML, on the object type and in every input that writes them', () => {
    const calledHtml = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInputObjectType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.description?.includes('HTML')) calledHtml.add(fieldOf(type.name, field.name));
      }
    }
    expect([...calledHtml].sort()).toEqual([...declared].sort());
    for (const field of declared) {
      const [model, member] = partsOf(field);
      for (const type of [model, ...recipes[field].inputs])
        expect(description(type, member), `${type}.${member}`).toMatch(/HTML,? sanitized on write/);
    }
  });

  it("call a group's description plain text", () => {
    expect(description('Group', 'description')).toContain('as plain text');
    expect(description('CreateGroupInput', 'description')).toContain('as plain text');
  });
});

describe('plain text', () => {
  it("is stored and answered as given, escaped only by the XML notation (a group's description)", async () => {
    const teacher = await clients.rest(w.teacher);
    const created = await teacher.post('/groups', { title: 'Chess club', description: sent });
    expect([created.status, created.json.description]).toEqual([201, sent]);
    expect((await db().group.findUniqueOrThrow({ where: { id: Number(created.json.id) } })).description).toBe(sent);
    const xml = await teacher.get(`/groups/${created.json.id}`, { accept: 'xml' });
    expect(xml.text).toContain(`<description>${escapeXml(sent)}</description>`);
  });
});
