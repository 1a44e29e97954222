import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RestClient, clientsFor } from '../support/client';
import { type World, createGroup, createSection, createWorld } from '../support/factories';
import { cast } from '../support/permissions';
import { useTestServer } from '../support/harness';

// POST /v1/multiget is answered by the facade, not by a route of the table: the permission matrix and the REST fuzz
// run, which walk the table, cannot reach it. This file stands in for both: random bodies never get a 5xx, and every
// person of the matrix's cast gets, per path, the status that path's own GET gives them.

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let paths: string[];

beforeAll(async () => {
  w = await createWorld();
  const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  const schoolGroup = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
  const privateGroup = await createGroup(w.school.id, { privacyLevel: 'GROUP', admins: [w.schoolAdmin.id] });
  const farGroup = await createGroup(w.farSchool.id, { admins: [w.outsider.id] });
  paths = [
    `/v1/users/${w.student.id}`,
    `/v1/users/${w.outsider.id}`,
    `/v1/users/${w.student.id}/sections`,
    `/v1/sections/${section.id}`,
    `/v1/sections/${section.id}/enrollments`,
    `/v1/groups/${schoolGroup.id}`,
    `/v1/users/${w.student.id}/groups`,
    `/v1/groups/${privateGroup.id}`,
    `/v1/groups/${farGroup.id}`,
    `/v1/courses/${section.courseId}/sections`,
    '/v1/users/999999999',
  ];
  await clients.restFor(cast, w);
});

const multiget = (client: RestClient, request: unknown) => client.post('/multiget', { request });

describe('POST /v1/multiget for the permission cast', () => {
  it.each(cast.map((person) => [person]))('%s: each path answers what its own GET answers', async (person) => {
    const client = await clients.rest(w[person]);
    const response = await multiget(client, paths);
    expect(response.status).toBe(207);
    const direct = await Promise.all(paths.map(async (path) => (await client.get(path.slice(3))).status));
    expect(response.json.response.map((item: { response_code: number }) => item.response_code)).toEqual(direct);
  });
});

describe('POST /v1/multiget with fuzzed bodies', () => {
  const path = fc.oneof(
    fc.constantFrom('/v1/users/1', '/v1/groups', 'sections', '/v1/multiget', ''),
    fc.string({ maxLength: 30 }),
  );
  // The member `request` as anything JSON can carry, or no such member; then bodies that are not JSON objects at all.
  const jsonBody = fc.oneof(
    fc.record({ request: fc.oneof(fc.array(path, { maxLength: 60 }), path, fc.jsonValue({ maxDepth: 3 })) }),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const xmlBody = fc
    .array(fc.oneof(path, fc.constantFrom('<x/>', '&amp;', '<![CDATA[a]]>', '&bogus;')), { maxLength: 5 })
    .map((items) => `<requests>${items.map((item) => `<request>${item}</request>`).join('')}</requests>`);

  it('answers 207 with a status per path, or refuses the body with a 4xx; never a 5xx', async () => {
    const client = await clients.rest(w.teacher);
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonBody, xmlBody), async (body) => {
        const response =
          typeof body === 'string'
            ? await client.post('/multiget', body, { contentType: 'text/xml' })
            : await client.post('/multiget', JSON.stringify(body), { contentType: 'application/json' });
        expect(response.status, response.text).toBeLessThan(500);
        if (response.status === 207)
          for (const item of response.json.response) expect(item.response_code).toBeLessThan(500);
        else expect([400, 413]).toContain(response.status);
      }),
      { seed: 52, numRuns: 60 },
    );
  });
});
