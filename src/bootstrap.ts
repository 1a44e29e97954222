import { db } from './db/database';
import { decryptSecret } from './auth/secrets';
import { issueApiClient } from './modules/access/access.service';

/**
 * Ensures a known credential on any database, for automation and acceptance tests: a district with one school, a
 * district administrator in it, and an API client with exactly the configured key and secret. Idempotent.
 */
export async function ensureBootstrapCredential(serverKey: Buffer, credential: { consumerKey: string; consumerSecret: string }) {
  const existing = await db().apiClient.findUnique({
    where: { consumerKey: credential.consumerKey },
    select: { id: true, userId: true, encryptedSecret: true },
  });
  if (existing) {
    if (decryptSecret(existing.encryptedSecret, serverKey) !== credential.consumerSecret) {
      throw new Error('BOOTSTRAP_CONSUMER_KEY exists with a different secret; revoke it or use the secret it was created with');
    }
    return { userId: existing.userId, created: false };
  }
  const user = await db().$transaction(async (tx) => {
    const district = await tx.district.create({ data: { title: 'Bootstrap District' } });
    const school = await tx.school.create({ data: { districtId: district.id, title: 'Bootstrap School' } });
    return tx.user.create({
      data: {
        schoolId: school.id,
        username: 'bootstrap-admin',
        nameFirst: 'Bootstrap',
        nameLast: 'Administrator',
        role: 'DISTRICT_ADMIN',
        triggerAdmin: true,
      },
    });
  });
  await issueApiClient(serverKey, { userId: user.id, name: 'bootstrap', ...credential });
  return { userId: user.id, created: true };
}
