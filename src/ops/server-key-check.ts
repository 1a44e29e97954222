import { decryptSecret } from '../auth/secrets';
import { directQuery } from '../db/database';

/**
 * Every secret the database holds sealed with the server key: API clients' consumer secrets and webhook targets'
 * signing secrets (the previous one too, while a rotation's overlap lasts).
 */
export const storedSecretsSql = `
  SELECT 'API client ' || id AS owner, "encryptedSecret" AS box FROM api_clients
  UNION ALL SELECT 'webhook target ' || id, secret FROM trigger_targets
  UNION ALL SELECT 'webhook target ' || id || ' (previous secret)', "previousSecret" FROM trigger_targets
   WHERE "previousSecret" IS NOT NULL`;

/** The owners of the secrets that `serverKey` does not decrypt. */
export function secretsNotDecrypting(secrets: { owner: string; box: string }[], serverKey: Buffer): string[] {
  return secrets
    .filter(({ box }) => {
      try {
        decryptSecret(box, serverKey);
        return false;
      } catch {
        return true;
      }
    })
    .map(({ owner }) => owner);
}

/**
 * Whether the server key is the one the open database's secrets were sealed with: after restoring a PostgreSQL dump,
 * a SECRET_KEY that does not match leaves every API client unable to sign in and every webhook unsigned.
 */
export async function checkServerKey(serverKey: Buffer): Promise<{ checked: number; failing: string[] }> {
  const secrets = await directQuery<{ owner: string; box: string }>(storedSecretsSql, []);
  return { checked: secrets.length, failing: secretsNotDecrypting(secrets, serverKey) };
}
