import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let sectionId: number;
let studentToken: string;
let teacherToken: string;

beforeAll(async () => {
  world = await createWorld();
  sectionId = (
    await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }, { userId: world.student.id }])
  ).id;
  ({ token: studentToken } = await issueAccessToken({ userId: world.student.id }));
  ({ token: teacherToken } = await issueAccessToken({ userId: world.teacher.id }));
});

const graphql = (query: string, token: string, accept: string) =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept },
    body: JSON.stringify({ query }),
  });

const mediaTypes = ['application/json', 'application/graphql-response+json'];

describe('a result with data and errors (partial data)', () => {
  it.each(mediaTypes)('is answered 200 under %s, its error keeping its code', async (accept) => {
    const response = await graphql(
      `{ viewer { databaseId } sectionGrades(sectionId: "${sectionId}") { categories { id } } }`,
      studentToken,
      accept,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(accept);
    const body = await response.json();
    expect(body.data).toEqual({ viewer: { databaseId: String(world.student.id) }, sectionGrades: null });
    expect(body.errors).toEqual([
      expect.objectContaining({ path: ['sectionGrades'], extensions: { code: 'FORBIDDEN' } }),
    ]);
  });

  it.each(mediaTypes)('is answered 200 under %s when one alias fails and another answers', async (accept) => {
    const response = await graphql(
      `{ refused: sectionGrades(sectionId: "${sectionId}") { categories { id } }
         answered: section(id: "${sectionId}") { databaseId } }`,
      studentToken,
      accept,
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toEqual({ refused: null, answered: { databaseId: String(sectionId) } });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['refused'], extensions: { code: 'FORBIDDEN' } })]);
  });

  it('is answered 200 when its only field failed, as data is { field: null } rather than null', async () => {
    const response = await graphql(
      `{ sectionGrades(sectionId: "${sectionId}") { categories { id } } }`,
      studentToken,
      'application/graphql-response+json',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: { sectionGrades: null },
      errors: [expect.objectContaining({ extensions: { code: 'FORBIDDEN' } })],
    });
  });

  it('answers the same fields 200 without errors to a teacher of the section', async () => {
    const response = await graphql(
      `{ viewer { databaseId } sectionGrades(sectionId: "${sectionId}") { categories { id } } }`,
      teacherToken,
      'application/graphql-response+json',
    );
    expect(response.status).toBe(200);
    expect((await response.json()).errors).toBeUndefined();
  });
});

describe('a result whose data is null', () => {
  it('keeps the status its error sets, shown in extensions.http', async () => {
    // `viewer` is non-null: without a credential its failure nulls the whole of data, so the error's status stands.
    const failed = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
    });
    expect(failed.status).toBe(401);
    const body = await failed.json();
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });

  it('401 without a credential', async () => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
    });
    expect(response.status).toBe(401);
    expect((await response.json()).data).toBeNull();
  });
});
