import { describe, expect, it } from 'vitest';
import { deriveKey } from '../../src/auth/secrets';
import { issueApiClient } from '../../src/modules/access/access.service';
import { checkServerKey } from '../../src/ops/server-key-check';
import { createDistrict, createSchool, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

// What `lectern check-key` runs, on this pass's database (PGlite or PostgreSQL): after a pg_dump is restored, it tells
// whether SECRET_KEY is the key the database's secrets were sealed with.
const server = useTestServer();

describe('checkServerKey', () => {
  it("finds every stored secret decrypting with the server's key, and names those another key does not", async () => {
    const district = await createDistrict();
    const school = await createSchool(district.id);
    const user = await createUser(school.id, 'TEACHER');
    const client = await issueApiClient(server.serverKey, { userId: user.id, name: 'check-key' });
    const { id } = await server.database.prisma.apiClient.findUniqueOrThrow({
      where: { consumerKey: client.consumerKey },
    });

    const right = await checkServerKey(server.serverKey);
    expect(right.checked).toBeGreaterThanOrEqual(1);
    expect(right.failing).toEqual([]);

    const wrong = await checkServerKey(deriveKey('some other key'));
    expect(wrong.checked).toBe(right.checked);
    expect(wrong.failing).toContain(`API client ${id}`);
    expect(wrong.failing).toHaveLength(right.checked);
  });
});
