import type { Redis } from 'ioredis';
import { type AuthFailureGuard, createAuthFailureGuard } from '../auth/auth-failures';
import type { RateLimit } from '../config';

/**
 * Wrong passwords given for one account, wherever they are typed: the sign-in page and `changePassword` count through
 * this one guard (SIGN_IN_FAILURES_PER_ACCOUNT), so a stolen token cannot be used to guess its user's password at the
 * request rate limit's pace, and a block either of them reached holds for both at once. The count lives where the
 * other failure counts do (Redis or the database).
 */
let accountFailures: AuthFailureGuard = createAuthFailureGuard(
  { perAddress: null, perConsumerKey: null, anonymousPerAddress: null },
  null,
);

/** Set once by the app (useSignInPages) from SIGN_IN_FAILURES_PER_ACCOUNT. */
export function configureAccountFailures(limit: RateLimit | null, redis: Redis | null): void {
  accountFailures = createAuthFailureGuard(
    { perAddress: null, perConsumerKey: limit, anonymousPerAddress: null },
    redis,
  );
}

/** An account's failures count under its id, whichever of its names was typed. */
export const accountFailureKey = (userId: number) => `sign-in:user:${userId}`;

/** A typed name that is nobody's counts under itself, so guessing at unknown names is limited the same way. */
export const unknownNameFailureKey = (typedName: string) => `sign-in:name:${typedName.toLowerCase()}`;

const attemptOn = (key: string) => ({ address: '', consumerKey: key });

/** A 429 (with Retry-After) while the account's wrong passwords fill their window. */
export const assertAccountNotBlocked = (key: string) => accountFailures.assertNotBlocked(attemptOn(key));

export const recordWrongPassword = (key: string) => accountFailures.recordFailure(attemptOn(key));
