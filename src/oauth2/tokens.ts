import { db } from '../db/database';
import { viewerUserSelection } from '../auth/viewer';

/**
 * The OAuth 2.0 access tokens among `recordIds` (SHA-256 of the tokens, as src/oauth2/adapter.ts stores them) that
 * are unexpired and whose user is active, with that user. Revocation (RFC 7009, the grant's, the app's approval or
 * the app itself) deletes the record, so it is simply not found.
 */
export async function liveOAuth2AccessTokens(recordIds: string[]) {
  const rows = await db().oAuth2Record.findMany({
    where: {
      kind: 'AccessToken',
      id: { in: recordIds },
      expiresAt: { gt: new Date() },
      user: { deactivatedAt: null },
    },
    select: { id: true, expiresAt: true, user: { select: viewerUserSelection } },
  });
  return rows.flatMap(({ user, ...token }) => (user ? [{ ...token, user }] : []));
}
