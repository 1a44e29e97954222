// Server-side secret handling: OAuth consumer secrets are stored encrypted (verifying a signature
// needs the plaintext back), bearer tokens are stored only as hashes.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const CIPHER = 'aes-256-gcm';
const BOX_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The configured SECRET_KEY text as a 32-byte AES key. A single SHA-256 is enough because
 * SECRET_KEY is a long random server secret, not a password: a slow KDF only protects
 * low-entropy input against guessing.
 */
export function deriveKey(secretKey: string): Buffer {
  if (secretKey === '') throw new Error('SECRET_KEY is empty: set it to a long random string');
  return createHash('sha256').update(secretKey, 'utf8').digest();
}

/** AES-256-GCM with a fresh random IV: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function encryptSecret(plain: string, key: Buffer): string {
  assertKeyLength(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [BOX_VERSION, ...[iv, tag, ciphertext].map((bytes) => bytes.toString('base64url'))].join('.');
}

/** Inverse of encryptSecret; throws when the box was altered or sealed under another key. */
export function decryptSecret(box: string, key: Buffer): string {
  assertKeyLength(key);
  const parts = box.split('.');
  if (parts.length !== 4 || parts[0] !== BOX_VERSION || !parts.slice(1).every((part) => BASE64URL.test(part))) {
    throw new Error(`Encrypted secret is not a ${BOX_VERSION} box`);
  }
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  // GCM would otherwise accept a truncated tag, which weakens authentication.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new Error('Encrypted secret has a malformed IV or authentication tag');
  }
  const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new Error('Encrypted secret failed authentication: it was tampered with or SECRET_KEY has changed', {
      cause,
    });
  }
}

function assertKeyLength(key: Buffer): void {
  if (key.length !== 32) throw new Error(`AES-256 needs a 32-byte key, got ${key.length} bytes: use deriveKey()`);
}

/** SHA-256 hex of a bearer token: enough for lookup, useless to whoever reads the database. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** URL- and header-safe random string, for consumer keys and secrets and bearer tokens. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
