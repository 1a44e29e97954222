import { defineEvent } from '../../outbox/catalogue';

/**
 * In the USER realm of the user the app acts for, as the credential events are: the credential cache follows that
 * realm, so a revocation committed on one instance reaches the others' caches (src/auth/credential-cache.ts).
 */
export const appEvents = {
  authorize: defineEvent('app_authorization.create', {
    object: 'AppAuthorization',
    realms: ['USER'],
    description: 'A user approved an app to act for them.',
  }),
  revoke: defineEvent('app_authorization.delete', {
    object: 'AppAuthorization',
    realms: ['USER'],
    description: "An app's access to a user was revoked, by the user, an administrator, or the app's deletion.",
  }),
};
