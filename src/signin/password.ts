import argon2 from 'argon2';
import { randomToken } from '../auth/secrets';

/**
 * argon2id with OWASP's first recommended setting (Password Storage Cheat Sheet): 19 MiB of memory, two passes, one
 * lane. It costs an attacker with the hashes what the RFC 9106 settings do per guess on GPUs, while a sign-in takes
 * about 0.1 s of one core and 19 MiB (measured in docs/sign-in.md), so a small server signs several people in at once.
 */
export const passwordHashing = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Fewest and most characters a password may have (docs/sign-in.md#passwords). */
export const passwordLength = { min: 10, max: 256 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, passwordHashing);

let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` is the one `hash` was made from. Without a hash (an unknown user, or one with no password) a
 * made-up hash is checked instead and the answer is false: the time taken does not tell the cases apart.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomToken());
  const against = hash ?? (await dummyHash);
  try {
    const matches = await argon2.verify(against, password);
    return matches && hash !== null;
  } catch {
    // A stored value that is not an argon2 hash signs nobody in.
    return false;
  }
}

/** Whether a hash was made with other settings than today's, so a successful sign-in should store a new one. */
export const hashIsOutdated = (hash: string): boolean => argon2.needsRehash(hash, passwordHashing);

/**
 * What is wrong with a new password, or null. Length is what makes a password strong (NIST SP 800-63B), so there are
 * no rules about kinds of characters; a password made of few distinct characters or holding the person's own username
 * or e-mail address is refused, as those are the first guesses.
 */
export function passwordProblem(password: string, person: { username: string; email: string }): string | null {
  const length = [...password].length;
  if (length < passwordLength.min) return `Use at least ${passwordLength.min} characters.`;
  if (length > passwordLength.max) return `Use at most ${passwordLength.max} characters.`;
  if (new Set(password.toLowerCase()).size < 5) return 'Use more different characters.';
  const lower = password.toLowerCase();
  const own = [person.username, person.email, person.email.split('@')[0] ?? '']
    .map((value) => value.toLowerCase())
    .filter((value) => value.length >= 3);
  if (own.some((value) => lower.includes(value))) return 'Do not use your username or e-mail address in it.';
  return null;
}
