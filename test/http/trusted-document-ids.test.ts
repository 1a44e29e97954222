import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A document as GraphQL Code Generator's client preset prints it into persisted-documents.json. */
const document = 'query ViewerRole($withRole: Boolean!) { viewer { databaseId role @include(if: $withRole) } }';
const hex = sha256(document);
const folder = mkdtempSync(join(tmpdir(), 'lectern-documents-'));
const manifestPath = join(folder, 'persisted-documents.json');
writeFileSync(manifestPath, JSON.stringify({ [`sha256:${hex}`]: document }, null, 2));

const server = useTestServer({ TRUSTED_DOCUMENTS: manifestPath });
let world: World;
let token: string;

beforeAll(async () => {
  world = await createWorld();
  ({ token } = await issueAccessToken({ userId: world.student.id }));
});

const post = (body: unknown) =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
const get = (parameters: Record<string, string>) =>
  server.fetch(`/graphql?${new URLSearchParams(parameters)}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json' },
  });

const variables = { withRole: true };
const persistedQuery = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });

async function expectViewer(response: Response) {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    data: { viewer: { databaseId: String(world.student.id), role: 'STUDENT' } },
  });
}

describe("trusted documents from GraphQL Code Generator's persisted-documents.json", () => {
  it.each([
    ['documentId with the sha256: prefix', { documentId: `sha256:${hex}`, variables }],
    ['documentId without it', { documentId: hex, variables }],
    ['documentId in upper case', { documentId: `sha256:${hex.toUpperCase()}`, variables }],
    [
      'extensions.persistedQuery.sha256Hash with the prefix',
      { extensions: persistedQuery(`sha256:${hex}`), variables },
    ],
    ['extensions.persistedQuery.sha256Hash without it', { extensions: persistedQuery(hex), variables }],
  ])('run when a POST names the document by %s', async (_form, body) => {
    await expectViewer(await post(body));
  });

  it('run when a GET names it by documentId, with the variables as JSON', async () => {
    await expectViewer(await get({ documentId: `sha256:${hex}`, variables: JSON.stringify(variables) }));
    await expectViewer(await get({ documentId: hex, variables: JSON.stringify(variables) }));
  });

  it('refuse an unknown id, the text, or the text beside an id', async () => {
    const unknown = await post({ documentId: `sha256:${sha256('{ viewer { databaseId } }')}`, variables });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_IN_LIST' }) }),
    ]);
    expect((await post({ query: document, variables })).status).toBe(400);
    expect((await post({ documentId: `sha256:${hex}`, query: document, variables })).status).toBe(400);
    const missing = await post({ variables });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_ID_REQUIRED' }) }),
    ]);
  });
});
