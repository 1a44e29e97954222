import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Browsers open a launch URL without the API's OAuth header, so the URL carries its own credential: a grant signed
 * with the server key for one package, one user and a window of time. It opens nothing else (another package, another
 * user's session), it expires, and the server still checks on every request that the user reads the section, so
 * leaving the section ends access at once. Windows are aligned so that the URL stays the same for hours and browsers
 * can cache the site.
 */
const windowMs = 12 * 3_600_000;
const grantPattern = /^(\d{1,15})-(\d{1,15})-([A-Za-z0-9_-]{43})$/;

const signature = (serverKey: Buffer, packageId: number, userId: number, expires: number) =>
  createHmac('sha256', serverKey).update(`web-package-launch\n${packageId}\n${userId}\n${expires}`).digest('base64url');

/** A grant valid for 12 to 24 hours from `now`. */
export function launchGrant(serverKey: Buffer, packageId: number, userId: number, now = Date.now()): string {
  const expires = ((Math.floor(now / windowMs) + 2) * windowMs) / 1000;
  return `${userId}-${expires}-${signature(serverKey, packageId, userId, expires)}`;
}

/** The user a grant for this package was signed for, or null when it is forged, for another package, or expired. */
export function launchGrantUser(serverKey: Buffer, packageId: number, grant: string, now = Date.now()): number | null {
  const match = grantPattern.exec(grant);
  if (!match) return null;
  const [userId, expires] = [Number(match[1]), Number(match[2])];
  const expected = Buffer.from(signature(serverKey, packageId, userId, expires));
  const given = Buffer.from(match[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now ? userId : null;
}

/** The site's path: one folder per package and grant, so relative links inside the site keep the grant. */
export const launchPath = (packageId: number, grant: string, path: string) =>
  `/web-packages/${packageId}/${grant}/${path.split('/').map(encodeURIComponent).join('/')}`;
