import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { deriveKey } from './secrets';

/**
 * The key that encrypts consumer secrets. With PostgreSQL it must come from SECRET_KEY (config enforces that), so a
 * database dump alone cannot reveal secrets; on the embedded default it is generated once beside the data.
 */
export async function loadServerKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Promise<Buffer> {
  if (config.secretKey) return deriveKey(config.secretKey);
  const file = join(config.dataDir, 'secret.key');
  try {
    return deriveKey((await readFile(file, 'utf8')).trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const generated = randomBytes(48).toString('base64url');
  // 'wx' fails if another process created the key in the meantime; then that key is the one to use.
  await writeFile(file, `${generated}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return deriveKey((await readFile(file, 'utf8')).trim());
}
