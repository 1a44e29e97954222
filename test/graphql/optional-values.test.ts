import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);

let world: World;
let gql: GraphQLClient;
let rest: RestClient;

beforeAll(async () => {
  world = await createWorld();
  gql = await clients.graphql(world.districtAdmin);
  rest = await clients.rest(world.districtAdmin);
});

// Optional text is stored as '' when it has no value: GraphQL answers null for it, /v1 keeps the platform's "".
describe('absent optional values', () => {
  const schoolText = [
    'address1',
    'address2',
    'city',
    'state',
    'postalCode',
    'country',
    'website',
    'phone',
    'fax',
    'pictureUrl',
    'buildingCode',
  ];
  const schoolWire = [
    'address1',
    'address2',
    'city',
    'state',
    'postal_code',
    'country',
    'website',
    'phone',
    'fax',
    'picture_url',
    'building_code',
  ];

  it('are null in GraphQL and "" on /v1 for a school made with a title only', async () => {
    const created = await gql(`mutation { createSchool(input: { title: "Bare school" }) { school {
      id: databaseId address1 address2 city state postalCode country website phone fax pictureUrl buildingCode } } }`);
    const school = created.data.createSchool.school;
    expect(school).toEqual({
      id: school.id,
      ...Object.fromEntries(schoolText.map((name) => [name, null])),
    });
    const wire = (await rest.get(`/schools/${school.id}`)).json;
    expect(wire).toMatchObject(Object.fromEntries(schoolWire.map((name) => [name, ''])));
  });

  it('show a value that is set, and null again once it is emptied', async () => {
    const update = `mutation($id: ID!, $website: String) {
      updateSchool(input: { id: $id, website: $website }) { school { website } } }`;
    const id = String(world.otherSchool.id);
    expect((await gql(update, { id, website: 'https://school.test' })).data.updateSchool).toEqual({
      school: { website: 'https://school.test' },
    });
    expect((await rest.get(`/schools/${id}`)).json.website).toBe('https://school.test');
    expect((await gql(update, { id, website: null })).data.updateSchool).toEqual({ school: { website: null } });
    expect((await db().school.findUniqueOrThrow({ where: { id: world.otherSchool.id } })).website).toBe('');
    expect((await rest.get(`/schools/${id}`)).json.website).toBe('');
  });

  it('are null in GraphQL and "" on /v1 for a group without description, picture, website or code', async () => {
    const group = await createGroup(world.school.id, { admins: [world.districtAdmin.id] });
    const read = await gql(`query($id: ID!) { group(id: $id) { description pictureUrl website groupCode } }`, {
      id: String(group.id),
    });
    expect(read.data.group).toEqual({ description: null, pictureUrl: null, website: null, groupCode: null });
    const wire = (await rest.get(`/groups/${group.id}`)).json;
    expect(wire).toMatchObject({ description: '', picture_url: '', website: '', group_code: '' });
  });

  it('are null for a user\'s empty email and picture in GraphQL, and "" for the picture on /v1', async () => {
    await db().user.update({ where: { id: world.teacher.id }, data: { email: '', pictureUrl: '' } });
    const read = await gql(`query($id: ID!) { user(id: $id) { email pictureUrl } }`, { id: String(world.teacher.id) });
    expect(read.data.user).toEqual({ email: null, pictureUrl: null });
    expect((await rest.get(`/users/${world.teacher.id}`)).json).toMatchObject({ picture_url: '' });
  });
});
