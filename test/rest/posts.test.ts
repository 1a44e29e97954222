import { it } from 'vitest';
import { restClientFor } from '../support/client';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer({ LOG_LEVEL: 'error' });
it('probe', async () => {
  const w = await createWorld();
  const ta = await restClientFor(server, w.teacher);
  const r = await ta.get(`/users/${w.otherSchoolStudent.id}`);
  console.log(r.status, r.text);
  const r2 = await ta.get(`/users/${w.student.id}`);
  console.log(r2.status, r2.text);
});
