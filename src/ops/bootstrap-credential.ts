import { decryptSecret } from '../auth/secrets';
import { db } from '../db/database';
import { writeTransaction } from '../outbox/record';
import { isUniqueViolation } from '../db/unique';
import { issueApiClientIn } from '../modules/access/access.service';

interface BootstrapCredential {
  consumerKey: string;
  consumerSecret: string;
}

async function existingCredential(serverKey: Buffer, credential: BootstrapCredential) {
  const existing = await db().apiClient.findUnique({
    where: { consumerKey: credential.consumerKey },
    select: { userId: true, encryptedSecret: true },
  });
  if (existing && decryptSecret(existing.encryptedSecret, serverKey) !== credential.consumerSecret) {
    throw new Error('BOOTSTRAP_CONSUMER_KEY exists with a different secret; use the secret it was created with');
  }
  return existing && { userId: existing.userId, created: false };
}

/**
 * Ensures a known credential on any database, for automation and acceptance tests: a district with one school, a
 * district administrator in it, and an API client with exactly the configured key and secret. Idempotent, and safe
 * when several instances start at once: everything is written in one transaction, and the loser of a race on the
 * unique consumer key rolls back and finds the winner's credential.
 */
export async function ensureBootstrapCredential(serverKey: Buffer, credential: BootstrapCredential) {
  const existing = await existingCredential(serverKey, credential);
  if (existing) return existing;
  try {
    const userId = await writeTransaction(async (tx) => {
      const district = await tx.district.create({ data: { title: 'Bootstrap District' } });
      const school = await tx.school.create({ data: { districtId: district.id, title: 'Bootstrap School' } });
      const user = await tx.user.create({
        data: {
          schoolId: school.id,
          username: 'bootstrap-admin',
          nameFirst: 'Bootstrap',
          nameLast: 'Administrator',
          role: 'DISTRICT_ADMIN',
          triggerAdmin: true,
        },
      });
      await issueApiClientIn(tx, serverKey, { userId: user.id, name: 'bootstrap', ...credential });
      return user.id;
    });
    return { userId, created: true };
  } catch (error) {
    const raced = isUniqueViolation(error);
    if (raced) return (await existingCredential(serverKey, credential))!;
    throw error;
  }
}
