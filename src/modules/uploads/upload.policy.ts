import { definePolicy } from '../../auth/policy';
import { findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';

/**
 * An upload is its uploader's until something attaches it: only they send its bytes, read it or attach it; to anyone
 * else it does not exist. Once attached, what attached it (an album's content) decides who sees the file.
 */
export const uploadPolicy = definePolicy('Upload', {
  use: (viewer: Viewer, upload: { ownerId: number }) => (upload.ownerId === viewer.id ? 'allow' : 'hide'),
  read: async (viewer: Viewer, id: number) => {
    const upload = await findByStorableId(id, (id) =>
      db().upload.findUnique({ where: { id }, select: { ownerId: true, discardedAt: true } }),
    );
    return upload && !upload.discardedAt && upload.ownerId === viewer.id ? 'allow' : 'hide';
  },
});

/** The uploads the viewer may use and attach: their own, stored and not yet attached (the SQL twin of `use`). */
export const attachableUploadsWhere = (viewer: Viewer) => ({
  ownerId: viewer.id,
  status: 'STORED' as const,
  attachedAt: null,
  discardedAt: null,
});
