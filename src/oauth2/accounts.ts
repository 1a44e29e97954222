import type { Account } from 'oidc-provider';
import { decodeGlobalId, encodeGlobalId } from '../core/global-id';
import { db } from '../db/database';

/**
 * The provider's account id, and so the ID token's `sub`, is the user's GraphQL global id: what `viewer { id }`
 * answers, so a front end matches the two without a second kind of id.
 */
export const accountIdOf = (userId: number) => encodeGlobalId('User', userId);

export function userIdOfAccount(accountId: string): number | null {
  const decoded = decodeGlobalId(accountId);
  return decoded?.type === 'User' ? decoded.id : null;
}

/**
 * oidc-provider's `findAccount`: the active user the account id names, with the claims of the ID token and userinfo.
 * An inactive user is no account, so their codes and refresh tokens are refused at the token endpoint.
 */
export async function findAccount(_ctx: unknown, accountId: string): Promise<Account | undefined> {
  const userId = userIdOfAccount(accountId);
  if (userId === null) return undefined;
  const user = await db().user.findUnique({
    where: { id: userId, deactivatedAt: null },
    select: { nameFirst: true, nameFirstPreferred: true, nameLast: true, email: true, username: true },
  });
  if (!user) return undefined;
  return {
    accountId,
    claims: () => ({
      sub: accountId,
      name: `${user.nameFirstPreferred || user.nameFirst} ${user.nameLast}`.trim(),
      preferred_username: user.username,
      ...(user.email ? { email: user.email } : {}),
    }),
  };
}
