import { type MaybePromise, thenMaybe } from './maybe-promise';
import type { PrivacyLevel, RealmType } from '../generated/prisma/enums';
import type { Viewer } from './viewer';

/** The owner of a realm-scoped resource: a district, school (or building), user, section or group. */
export interface RealmRef {
  type: RealmType;
  id: number;
}

/** Where a realm sits in the district, as far as policies care. */
export interface RealmFacts {
  districtId: number;
  /** Top-level school; null for a district. */
  schoolId: number | null;
  buildingId: number | null;
  userId?: number;
  /** For a user realm: whether that user is a district administrator. */
  userIsDistrictAdmin?: boolean;
  /** For a user realm: whether that user's account is inactive (hidden from all but their administrators). */
  userIsInactive?: boolean;
  sectionId?: number;
  group?: { id: number; privacyLevel: PrivacyLevel };
}

/**
 * What the viewer may do in a realm: `hidden` (its existence is private: 404), `visible` (known to exist, contents
 * closed: 403), `read`, or `administer` (create, change and delete what the realm owns).
 */
export type Access = 'hidden' | 'visible' | 'read' | 'administer';

export const accessRank: Record<Access, number> = { hidden: 0, visible: 1, read: 2, administer: 3 };

/** The columns that place a row (a user, a group) in its school, building and district. */
export const placementSelection = {
  id: true,
  schoolId: true,
  buildingId: true,
  school: { select: { districtId: true } },
} as const;

type Placed = { schoolId: number; buildingId: number | null; school: { districtId: number } };

/**
 * Where a row selected with `placementSelection` sits, as realm facts. Spread it after a literal's own properties, not
 * before them (docs/adding-a-resource.md: young garbage).
 */
export const placementOf = (row: Placed) => ({
  districtId: row.school.districtId,
  schoolId: row.schoolId,
  buildingId: row.buildingId,
});

/** What the module owning a kind of realm tells the access engine: how to find one, and who may do what in it. */
export interface RealmKind {
  type: RealmType;
  /** Lower-case noun for messages, such as "group". */
  noun: string;
  /** Null when no realm of this kind has the id. */
  load(id: number): Promise<RealmFacts | null>;
  /**
   * The facts of a realm the viewer's own record places them in (their district, school, building, themselves), or
   * null: read with their credential, they need no statement of their own (see `accessTo`).
   */
  viewersOwn?(viewer: Viewer, id: number): RealmFacts | null;
  access(viewer: Viewer, facts: RealmFacts): Access | Promise<Access>;
}

const kinds = new Map<RealmType, RealmKind>();

/** Each realm-owning module's policy registers its kind; the access engine stays free of resource rules. */
export function registerRealmKind(kind: RealmKind): void {
  kinds.set(kind.type, kind);
}

function kindOf(type: RealmType): RealmKind {
  const kind = kinds.get(type);
  if (!kind) throw new Error(`No policy registered for realm type ${type}`);
  return kind;
}

export const realmNoun = (type: RealmType) => kindOf(type).noun;
/** The realm's GraphQL type name, as not-found errors give it. */
export const realmName = (type: RealmType) => realmNoun(type).replace(/^./, (letter) => letter.toUpperCase());

/** Ids are 32-bit integers in the database: a larger one names nothing (and would make the query fail). */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 0 && id <= 2_147_483_647;

/** Looks a row up by an id from input: an id the database cannot hold names nothing, so the answer is null. */
export async function findByStorableId<T>(
  id: number | string,
  lookup: (id: number) => Promise<T | null>,
): Promise<T | null> {
  const value = Number(id);
  return isStorableId(value) ? lookup(value) : null;
}

type RealmAccess = { access: Access; facts: RealmFacts } | null;

/**
 * The viewer's access to a realm, or null when the realm does not exist. Memoised per request, and answered without a
 * promise once known (see `knownRealm`). A realm the viewer's own record places them in is answered from that record,
 * which the credential cache holds for at most its `maxAgeMs` (1 s), as it holds the viewer's role: a create in the
 * viewer's own school sends its INSERT alone (docs/performance.md, "Mechanisms").
 */
export function accessTo(viewer: Viewer, realm: RealmRef): MaybePromise<RealmAccess> {
  return viewer.memo(`realm:${realm.type}:${realm.id}`, () => {
    const own = kindOf(realm.type).viewersOwn?.(viewer, realm.id);
    return own ? accessWith(viewer, realm, own) : loadedAccess(viewer, realm);
  });
}

async function loadedAccess(viewer: Viewer, realm: RealmRef): Promise<RealmAccess> {
  const facts = isStorableId(realm.id) ? await kindOf(realm.type).load(realm.id) : null;
  return facts && accessWith(viewer, realm, facts);
}

const accessWith = (viewer: Viewer, realm: RealmRef, facts: RealmFacts): MaybePromise<RealmAccess> =>
  thenMaybe(kindOf(realm.type).access(viewer, facts), (access) => ({ access, facts }));

/**
 * Hands the engine the facts of a realm whose row a resolver has already loaded (a field of a listed object), so that
 * asking the policy about each object of a page costs no statement per object, and no promise when the rule answers
 * from the facts alone (an administrator's).
 */
export function knownRealm(viewer: Viewer, realm: RealmRef, facts: RealmFacts): void {
  // A rule that fails is reported to whoever asks for the verdict (`memo` keeps it from being an unhandled rejection).
  void viewer.memo(`realm:${realm.type}:${realm.id}`, () => accessWith(viewer, realm, facts));
}

/** The facts of a realm an authorized operation works on (its existence already established by the policy). */
export async function realmFacts(viewer: Viewer, realm: RealmRef): Promise<RealmFacts> {
  const result = await accessTo(viewer, realm);
  if (!result) throw new Error(`${realm.type} ${realm.id} vanished after it was authorized`);
  return result.facts;
}
