import { Readable } from 'node:stream';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Viewer, toViewerUser, viewerUserSelection } from '../../auth/viewer';
import { db } from '../../db/database';
import { RangeNotSatisfiableError, rangeOf } from '../../rest/file-response';
import { fileStore } from '../uploads/file-store';
import { launchGrantUser } from './web-package.launch';
import { findPackageFile, webPackageReadable } from './web-package.service';
import { packagePathProblem } from './web-package.unzip';

const sitePath = /^\/web-packages\/(\d{1,15})\/([^/]+)\/(.*)$/;

/**
 * Every answer of a package's site. The sandbox (without allow-same-origin) runs the site in an opaque origin: its
 * scripts read no cookie or storage of this server and cannot call the API as it. No referrer, so the grant in the
 * URL does not leak to sites the package links to.
 */
export const siteHeaders = {
  'content-security-policy':
    "sandbox allow-scripts allow-forms allow-popups allow-modals; default-src 'self' data: blob:; script-src 'self' 'unsafe-inline' 'unsafe-eval'; " +
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
};

const plain = (status: number, message: string, extra: Record<string, string> = {}) =>
  new Response(message, {
    status,
    headers: { ...siteHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
  });

/** Whether the user opens the package: not when it is gone or its section hidden, nor when the section is closed. */
async function accessTo(viewer: Viewer, packageId: number): Promise<'open' | 'missing' | 'closed'> {
  try {
    return (await webPackageReadable(viewer, packageId, null)) ? 'open' : 'missing';
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.code === 'FORBIDDEN') return 'closed';
    throw error;
  }
}

/** The path inside the package, each segment percent-decoded once; null when it is malformed or leaves the package. */
function packagePath(encoded: string): string | null {
  try {
    // A folder's URL (`lab/`, or the package's top) opens its index.html, as web servers do.
    const segments = (encoded === '' || encoded.endsWith('/') ? `${encoded}index.html` : encoded)
      .split('/')
      .map(decodeURIComponent);
    // An encoded slash would make one segment two; the path as sent must already be the package's path.
    if (segments.some((segment) => segment.includes('/'))) return null;
    const path = segments.join('/');
    return packagePathProblem(path) === null ? path : null;
  } catch {
    return null;
  }
}

/** The user a valid grant names, as a Viewer for the permission check; the site's requests carry no other credential. */
async function grantViewer(serverKey: Buffer, packageId: number, grant: string): Promise<Viewer | null> {
  const userId = launchGrantUser(serverKey, packageId, grant);
  if (userId === null) return null;
  const user = await db().user.findUnique({ where: { id: userId }, select: viewerUserSelection });
  // The grant is the credential; like a webhook's payload viewer, it stands for no API token.
  return user && new Viewer(toViewerUser(user), { kind: 'bearer', tokenId: 0 });
}

/**
 * GET /web-packages/{id}/{grant}/{path}: a file of a package's site, for the user the launch grant was signed for,
 * while they read the package's section. Files are looked up by exact path among the package's own, never on a disk
 * path, so no spelling of a path reaches another package or the API.
 */
export function useWebPackageSites(serverKey: Buffer): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith('/web-packages/')) return;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return endResponse(plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' }));
      const match = sitePath.exec(url.pathname);
      const path = match ? packagePath(match[3]!) : null;
      if (!match || path === null) return endResponse(plain(404, 'Not Found'));
      const packageId = Number(match[1]);
      const viewer = await grantViewer(serverKey, packageId, match[2]!);
      if (!viewer)
        return endResponse(
          plain(403, 'This launch link is not valid or has expired: open the package again from its section.'),
        );
      // The section is asked before the file, so that who may not open the package learns nothing of its paths.
      // A package that is gone, or whose section the user no longer sees, is not found; a closed section is a 403.
      const access = await accessTo(viewer, packageId);
      if (access === 'closed') return endResponse(plain(403, 'Only members of the course section open this package.'));
      if (access === 'missing') return endResponse(plain(404, 'Not Found'));
      const file = await findPackageFile(packageId, path);
      if (!file) return endResponse(plain(404, 'Not Found'));
      let range: ReturnType<typeof rangeOf>;
      try {
        range = rangeOf(request.headers.get('range'), file.size);
      } catch (error) {
        if (!(error instanceof RangeNotSatisfiableError)) throw error;
        return endResponse(plain(416, error.message, { 'content-range': `bytes */${file.size}` }));
      }
      const stream = await fileStore().read(file.storageKey, range ?? undefined);
      if (!stream) return endResponse(plain(404, 'Not Found'));
      if (request.method === 'HEAD') stream.destroy();
      const headers: Record<string, string> = {
        ...siteHeaders,
        'content-type': file.contentType,
        'content-length': String(range ? range.end - range.start + 1 : file.size),
        // Media players seek with ranges.
        'accept-ranges': 'bytes',
        // The URL holds a grant for one user: shared caches must not keep what it opens.
        'cache-control': 'private, max-age=3600',
      };
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${file.size}`;
      const body = request.method === 'HEAD' ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>);
      endResponse(new Response(body, { status: range ? 206 : 200, headers }));
    },
  };
}
