import { beforeAll, describe, expect, it } from 'vitest';
import { type RestClient, graphqlClientFor, restClientFor } from '../support/client';
import { createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: Awaited<ReturnType<typeof createWorld>>;
let teacher: RestClient;

beforeAll(async () => {
  world = await createWorld();
  teacher = await restClientFor(server, world.teacher);
});

describe('groups over /v1', () => {
  it('creates a group in JSON and reads it back in XML', async () => {
    const created = await teacher.post('/groups', { title: 'Chess club', privacy_level: 'school', options: { invite_type: 1 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      title: 'Chess club',
      privacy_level: 'school',
      school_id: String(world.school.id),
      options: { invite_type: 1, member_post: 1, member_post_comment: 1, create_discussion: 0, create_files: 0 },
    });
    expect(typeof created.json.id).toBe('string');
    expect(created.json.access_code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(created.json.links.self).toBe(`http://lectern.test/v1/groups/${created.json.id}`);

    const xml = await teacher.get(`/groups/${created.json.id}`, { accept: 'xml' });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toContain('text/xml');
    expect(xml.text).toContain('<title>Chess club</title>');
    expect(xml.text).toContain('<options><invite_type>1</invite_type>');
  });

  it('lists groups with the paging envelope', async () => {
    const group = await createGroup(world.school.id);
    const page = await teacher.get('/groups?limit=1');
    expect(page.status).toBe(200);
    expect(page.json.total).toBeGreaterThanOrEqual(2);
    expect(page.json.group).toHaveLength(1);
    expect(page.json.links.self).toBe('http://lectern.test/v1/groups?limit=1&start=0');
    expect(page.json.links.next).toBe('http://lectern.test/v1/groups?limit=1&start=1');
    const graphql = await graphqlClientFor(server, world.teacher);
    const twin = await graphql(`{ groups(start: 0, limit: 200) { total items { id title } } }`);
    expect(twin.data.groups.total).toBe(page.json.total);
    expect(twin.data.groups.items.map((g: { id: string }) => g.id)).toContain(String(group.id));
  });
});
