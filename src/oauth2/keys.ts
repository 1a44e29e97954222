import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../auth/secrets';
import { db } from '../db/database';

/**
 * The key ID tokens are signed with (RS256, which every OpenID client accepts), as a private JWK. Made once, by the
 * first instance that needs it, and stored sealed with the server key, so every instance and restart signs with the
 * same key and jwks keeps publishing it. Two instances starting together may each store one: all use the oldest.
 */
export async function signingKeys(serverKey: Buffer): Promise<Record<string, unknown>[]> {
  if ((await db().oAuth2SigningKey.count()) === 0) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    await db().oAuth2SigningKey.create({ data: { encryptedJwk: encryptSecret(JSON.stringify(jwk), serverKey) } });
  }
  const oldest = await db().oAuth2SigningKey.findFirstOrThrow({ orderBy: { id: 'asc' } });
  return [JSON.parse(decryptSecret(oldest.encryptedJwk, serverKey))];
}
