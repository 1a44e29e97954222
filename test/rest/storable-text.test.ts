import { beforeAll, describe, expect, it } from 'vitest';
import { type Clients, clientsFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

// PostgreSQL cannot store the NUL character: a text member carrying one is a 400 naming the member, never a 500.
const server = useTestServer();
const nul = 'before\u0000after';
const refused = { field: expect.any(String), message: 'must not contain the NUL character' };
let world: World;
let clients: Clients;

beforeAll(async () => {
  world = await createWorld();
  clients = clientsFor(server);
});

describe('text members with a NUL character', () => {
  it.each([
    ['POST /schools', 'districtAdmin', 'POST', '/schools', { title: 'Ok', city: nul }, 'city'],
    ['PUT /schools/{id}', 'districtAdmin', 'PUT', '/schools/SCHOOL', { phone: nul }, 'phone'],
    ['POST /groups', 'teacher', 'POST', '/groups', { title: nul }, 'title'],
    ['PUT /groups/{id}', 'teacher', 'PUT', '/groups/GROUP', { description: nul }, 'description'],
    ['POST /[realm]/posts', 'teacher', 'POST', '/groups/GROUP/posts', { title: 'Ok', body: `<p>${nul}</p>` }, 'body'],
  ] as const)(
    '%s answers 400 naming the member and writes nothing',
    async (_name, person, method, path, body, field) => {
      const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
      const client = await clients.rest(world[person]);
      const resolved = path.replace('SCHOOL', String(world.school.id)).replace('GROUP', String(group.id));
      const response = await expectNothingWritten(() => client.request(method, resolved, { body }));
      expect([response.status, response.json]).toEqual([
        400,
        { error: `${field}: ${refused.message}`, issues: [{ ...refused, field }] },
      ]);
    },
  );

  it('answers a GraphQL mutation with a userError naming the input member', async () => {
    const graphql = await clients.graphql(world.schoolAdmin);
    const input = { username: 'nul-user', nameFirst: nul, nameLast: 'Last', role: 'STUDENT' };
    const response = await expectNothingWritten(() =>
      graphql(
        `mutation($input: CreateUserInput!) { createUser(input: $input) { user { id } userErrors { field message } } }`,
        { input },
      ),
    );
    expect(response.data.createUser).toEqual({
      user: null,
      userErrors: [{ field: ['input', 'nameFirst'], message: refused.message }],
    });
  });
});
