import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readTrustedDocuments } from '../../src/http/persisted-queries';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { restClientFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The operations a front end was built with, as Apollo's generate-persisted-query-manifest lists them. */
const operations = {
  TrustedViewer: 'query TrustedViewer { viewer { id: databaseId username __typename } }',
  TrustedRole: 'query TrustedRole { viewer { id: databaseId role __typename } }',
};
const idOf = Object.fromEntries(Object.entries(operations).map(([name, body]) => [name, sha256(body)]));
const folder = mkdtempSync(join(tmpdir(), 'lectern-trusted-'));
const manifestPath = join(folder, 'persisted-query-manifest.json');
writeFileSync(
  manifestPath,
  JSON.stringify({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: Object.entries(operations).map(([name, body]) => ({ id: idOf[name], name, type: 'query', body })),
  }),
);

const server = useTestServer({ TRUSTED_DOCUMENTS: manifestPath });
let world: World;
let token: string;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  ({ token } = await issueAccessToken({ userId: world.student.id }));
  const listening = await listenOnLoopback(server);
  url = `http://127.0.0.1:${listening.port}/graphql`;
  close = listening.close;
});
afterAll(() => close());

const nameOf = (document: DocumentNode) => (document.definitions[0] as OperationDefinitionNode).name!.value;
const post = (body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('trusted documents (TRUSTED_DOCUMENTS)', () => {
  it("run the listed operations asked for by hash, from Apollo Client's persisted-query link", async () => {
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: createPersistedQueryLink({
        generateHash: (document) => idOf[nameOf(document)],
        useGETForHashedQueries: true,
      }).concat(new HttpLink({ uri: url, headers: { authorization: `Bearer ${token}` } })),
    });
    const { data } = await client.query({ query: gql(operations.TrustedViewer) });
    expect(data).toEqual({
      viewer: { id: String(world.student.id), username: world.student.username, __typename: 'User' },
    });
  });

  it("run them from urql's persisted exchange, which never sends the text", async () => {
    const client = new Client({
      url,
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
      exchanges: [
        persistedExchange({
          enforcePersistedQueries: true,
          generateHash: async (_query, document) => idOf[nameOf(document)],
        }),
        fetchExchange,
      ],
    });
    const result = await client.query(operations.TrustedRole, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual({ viewer: { id: String(world.student.id), role: 'STUDENT', __typename: 'User' } });
  });

  it('refuse any other operation, sent as text or by an unknown hash', async () => {
    const text = await post({ query: '{ viewer { id: databaseId } }' });
    expect(text.status).toBe(400);
    expect((await text.json()).errors).toEqual([
      { message: 'PersistedQueryOnly', extensions: { code: 'CANNOT_SEND_PQ_ID_AND_BODY', http: { status: 400 } } },
    ]);
    // Registering does not work either: only the manifest lists operations.
    const registering = await post({
      query: '{ viewer { id: databaseId } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ viewer { id: databaseId } }') } },
    });
    expect(registering.status).toBe(400);
    const unknown = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ viewer { id: databaseId } }') } },
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors).toEqual([
      { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', http: { status: 400 } } },
    ]);
  });

  it('hold over graphql-ws too: only a listed text runs', async () => {
    const { port } = new URL(url);
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
    });
    const listed = await client.iterate({ query: operations.TrustedRole }).next();
    expect(listed.value?.data).toEqual({
      viewer: { id: String(world.student.id), role: 'STUDENT', __typename: 'User' },
    });
    await expect(client.iterate({ query: '{ viewer { id: databaseId } }' }).next()).rejects.toEqual([
      expect.objectContaining({
        message: 'PersistedQueryOnly',
        extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_IN_LIST' }),
      }),
    ]);
    await client.dispose();
  });

  it('leave the /v1 facade, whose operations run in-process, working', async () => {
    const rest = await restClientFor(server, world.student);
    const response = await rest.get(`/users/${world.student.id}`);
    expect(response.status).toBe(200);
    expect(response.json.id).toBe(world.student.id);
  });
});

describe('trusted-document manifests', () => {
  const write = (content: unknown) => {
    const path = join(folder, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it("read Apollo's persisted-query manifest and GraphQL Code Generator's { hash: document } map", () => {
    expect(readTrustedDocuments(manifestPath)).toEqual(
      new Map(Object.entries(operations).map(([name, body]) => [idOf[name], body])),
    );
    const map = { [sha256('{ a }')]: '{ a }', abc: 'query B { b }' };
    expect(readTrustedDocuments(write(map))).toEqual(new Map(Object.entries(map)));
  });

  it('key documents by their id without the sha256: prefix, in lower case', () => {
    const hex = sha256('{ a }');
    expect(readTrustedDocuments(write({ [`sha256:${hex.toUpperCase()}`]: '{ a }' }))).toEqual(
      new Map([[hex, '{ a }']]),
    );
    const apollo = { format: 'apollo-persisted-query-manifest', operations: [{ id: `sha256:${hex}`, body: '{ a }' }] };
    expect(readTrustedDocuments(write(apollo))).toEqual(new Map([[hex, '{ a }']]));
  });

  it('refuse a file that is neither, naming it', () => {
    expect(() => readTrustedDocuments(join(folder, 'missing.json'))).toThrow(
      /^TRUSTED_DOCUMENTS: cannot read .*missing\.json/,
    );
    expect(() => readTrustedDocuments(write('not json'))).toThrow(/^TRUSTED_DOCUMENTS: cannot read/);
    expect(() => readTrustedDocuments(write(['{ a }']))).toThrow(/neither an Apollo persisted-query manifest nor/);
    expect(() => readTrustedDocuments(write({ abc: 1 }))).toThrow(/the document of abc is not a string/);
    expect(() =>
      readTrustedDocuments(write({ format: 'apollo-persisted-query-manifest', operations: [{ id: 'x' }] })),
    ).toThrow(/needs a string id and body/);
  });
});
