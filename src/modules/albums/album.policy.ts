import { type Verdict, definePolicy, forbid, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';

/** What the rules read of an album: where it is and its settings. */
export interface AlbumFacts {
  realm: RealmRef;
  published: boolean;
  settingComments: boolean;
  settingMemberPost: boolean;
}

const administers = async (viewer: Viewer, realm: RealmRef) =>
  (await realmVerdict(viewer, realm, 'administer')) === 'allow';

/** A member of the realm: enrolled in the section, or in the group (readers of an open group need not be members). */
async function isMember(viewer: Viewer, realm: RealmRef): Promise<boolean> {
  const roles = realm.type === 'GROUP' ? await viewer.groupMemberships() : await viewer.sectionEnrollments();
  return roles.has(realm.id);
}

/** Readers of the realm see its published albums; an unpublished one exists only for the realm's administrators. */
async function readAlbum(viewer: Viewer, album: AlbumFacts): Promise<Verdict> {
  const verdict = await realmVerdict(viewer, album.realm, 'read');
  if (verdict !== 'allow' || album.published) return verdict;
  return (await administers(viewer, album.realm)) ? 'allow' : 'hide';
}

/** Once the album is visible: its realm's administrators may, and `also` decides for everyone else. */
async function adminOr(viewer: Viewer, album: AlbumFacts, also: () => Promise<Verdict> | Verdict): Promise<Verdict> {
  const verdict = await readAlbum(viewer, album);
  if (verdict !== 'allow') return verdict;
  return (await administers(viewer, album.realm)) ? 'allow' : also();
}

/** The realms albums live in (spec 4.1). */
export const albumRealms = ['SECTION', 'GROUP'] as const;

const albumAdminsOnly = forbid('Only the administrators of its section or group change this album');

export const albumPolicy = definePolicy('Album', {
  /** Albums are kept in sections and groups only: any other realm's albums are refused, as on the platform. */
  keepIn: (_viewer: Viewer, realm: RealmRef) =>
    (albumRealms as readonly string[]).includes(realm.type)
      ? 'allow'
      : forbid(`Albums are kept in sections and groups, not in a ${realm.type.toLowerCase()}`),
  read: readAlbum,
  /** Albums are made by the administrators of the section (its teachers) or group. */
  create: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'administer'),
  update: (viewer: Viewer, album: AlbumFacts) => adminOr(viewer, album, () => albumAdminsOnly),
  delete: (viewer: Viewer, album: AlbumFacts) => adminOr(viewer, album, () => albumAdminsOnly),
  /** `setting_member_post` lets the realm's members who do not administer it add content. */
  addContent: (viewer: Viewer, album: AlbumFacts) =>
    adminOr(viewer, album, async () =>
      album.settingMemberPost && (await isMember(viewer, album.realm))
        ? 'allow'
        : forbid("Only the administrators of this album's section or group add content to it"),
    ),
  /** A caption is changed, and an item deleted, by the realm's administrators or whoever added the item. */
  changeContent: (viewer: Viewer, item: { album: AlbumFacts; creatorId: number | null }) =>
    adminOr(viewer, item.album, () =>
      item.creatorId === viewer.id
        ? 'allow'
        : forbid("Only who added this item, or the album's administrators, change it"),
    ),
  /** `setting_comments` 0 closes the album's content to comments, for everyone. */
  comment: async (viewer: Viewer, album: AlbumFacts) => {
    const verdict = await readAlbum(viewer, album);
    if (verdict !== 'allow') return verdict;
    return album.settingComments ? 'allow' : forbid('Comments are turned off for this album');
  },
  deleteComment: (viewer: Viewer, comment: { album: AlbumFacts; authorId: number }) =>
    adminOr(viewer, comment.album, () =>
      comment.authorId === viewer.id
        ? 'allow'
        : forbid("Only the comment's author, or the album's administrators, delete it"),
    ),
});

/** Whether the viewer administers the realm: they see its unpublished albums. */
export const seesUnpublished = administers;
