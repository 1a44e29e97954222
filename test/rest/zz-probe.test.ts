import { beforeAll, it } from 'vitest';
import { graphqlClientFor, restClientFor } from '../support/client';
import { createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: Awaited<ReturnType<typeof createWorld>>;
beforeAll(async () => { world = await createWorld(); });

it('probe', async () => {
  const teacher = await restClientFor(server, world.teacher);
  const outsider = await restClientFor(server, world.outsider);
  const g = await createGroup(world.school.id, { privacyLevel: 'GROUP' });
  const e = await createGroup(world.school.id, { privacyLevel: 'EVERYONE' });
  for (const [name, r] of [
    ['hidden', await teacher.get(`/groups/${g.id}`)],
    ['unknown', await teacher.get(`/groups/999999`)],
    ['huge', await teacher.get(`/groups/99999999999`)],
    ['outsider everyone', await outsider.get(`/groups/${e.id}`)],
    ['outsider school', await outsider.get(`/schools/${world.school.id}`)],
    ['unknown school', await teacher.get(`/schools/999999`)],
    ['outsider buildings', await outsider.get(`/schools/${world.school.id}/buildings`)],
  ] as const) console.log(name, r.status, r.text);
  const gql = await graphqlClientFor(server, world.teacher);
  console.log(JSON.stringify(await gql(`{ group(id: "${g.id}") { id } school(id: "999999") { id } }`)));
});
