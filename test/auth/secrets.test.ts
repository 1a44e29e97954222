import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveKey, encryptSecret, hashToken, randomToken } from '../../src/auth/secrets.js';

const KEY = deriveKey('a-long-random-server-secret-used-only-in-tests');

// Flips one base64url character of the box's part at `partIndex` (1 = IV, 2 = tag, 3 = ciphertext).
function tamper(box: string, partIndex: number): string {
  const parts = box.split('.');
  const part = parts[partIndex]!;
  parts[partIndex] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
  return parts.join('.');
}

describe('encryptSecret / decryptSecret', () => {
  it.each(['consumer-secret', '', 'a+b/c=d&e', 'ünïcødé ✓ 🔑'])('round-trips %j', (plain) => {
    const box = encryptSecret(plain, KEY);
    expect(box).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
    expect(decryptSecret(box, KEY)).toBe(plain);
  });

  it('uses a fresh IV, so equal secrets give different boxes', () => {
    expect(encryptSecret('same', KEY)).not.toBe(encryptSecret('same', KEY));
  });

  it('does not leak the plaintext into the box', () => {
    expect(encryptSecret('consumer-secret-value', KEY)).not.toContain(
      Buffer.from('consumer-secret-value').toString('base64url'),
    );
  });

  it.each([
    [1, 'IV'],
    [2, 'tag'],
    [3, 'ciphertext'],
  ])('detects a tampered %s (part %i)', (partIndex) => {
    const box = encryptSecret('consumer-secret', KEY);
    expect(() => decryptSecret(tamper(box, partIndex), KEY)).toThrow(/failed authentication/);
  });

  it('rejects a box sealed under another key', () => {
    const box = encryptSecret('consumer-secret', KEY);
    expect(() => decryptSecret(box, deriveKey('another-server-secret'))).toThrow(/failed authentication/);
  });

  it('rejects boxes that are not v1 boxes, or have a truncated tag', () => {
    const box = encryptSecret('consumer-secret', KEY);
    const [, iv, tag, ciphertext] = box.split('.');
    expect(() => decryptSecret('consumer-secret', KEY)).toThrow(/not a v1 box/);
    expect(() => decryptSecret(`v2.${iv}.${tag}.${ciphertext}`, KEY)).toThrow(/not a v1 box/);
    expect(() => decryptSecret(`v1.${iv}.${tag}.${ciphertext}+`, KEY)).toThrow(/not a v1 box/);
    expect(() => decryptSecret(`v1.${iv}.${tag!.slice(0, 6)}.${ciphertext}`, KEY)).toThrow(
      /malformed IV or authentication tag/,
    );
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => encryptSecret('x', Buffer.alloc(16))).toThrow(/32-byte key/);
    expect(() => decryptSecret(encryptSecret('x', KEY), Buffer.alloc(31))).toThrow(/32-byte key/);
  });
});

describe('deriveKey', () => {
  it('is a deterministic 32-byte SHA-256 of the text', () => {
    expect(deriveKey('server secret')).toHaveLength(32);
    expect(deriveKey('server secret').equals(deriveKey('server secret'))).toBe(true);
    // SHA-256("abc"), FIPS 180-2 test vector.
    expect(deriveKey('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses an empty SECRET_KEY', () => {
    expect(() => deriveKey('')).toThrow(/SECRET_KEY/);
  });
});

describe('hashToken / randomToken', () => {
  it('hashes tokens to SHA-256 hex', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('token-a')).not.toBe(hashToken('token-b'));
  });

  it('makes URL-safe random tokens of the requested entropy', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 100 }, () => randomToken())).size).toBe(100);
  });
});
