import { type MaybePromise, isPromise } from './maybe-promise';
import { perTurnLoader } from '../db/per-turn-loader';
import type { Prisma } from '../generated/prisma/client';
import type { Role } from '../generated/prisma/enums';
import { db } from '../db/database';
import { liveOAuth2AccessTokens } from '../oauth2/tokens';

export interface ViewerUser {
  id: number;
  role: Role;
  districtId: number;
  /** The top-level school the user belongs to. */
  schoolId: number;
  buildingId: number | null;
  triggerAdmin: boolean;
}

export type Credential =
  | { kind: 'oauth'; consumerKey: string }
  | { kind: 'bearer'; tokenId: number }
  /** An app acting for the user who approved it (three-legged OAuth 1.0a): the app's key and the access token. */
  | { kind: 'app'; consumerKey: string; accessTokenId: number }
  /** An OAuth 2.0 access token (src/oauth2/): its record's id, the SHA-256 of the token. */
  | { kind: 'oauth2'; recordId: string };

/**
 * A per-user map (realm id -> admin) of the users whose requests ask for it in one turn of the event loop, read with
 * one statement for them all (see `perTurnLoader`). Each request gets a map of its own, which it may add to
 * (`joinedGroup`).
 */
function rolesReadTogether<Row extends { userId: number; admin: boolean }>(
  read: (userIds: number[]) => Promise<Row[]>,
  realmIdOf: (row: Row) => number,
) {
  return perTurnLoader<number, Map<number, boolean>>(async (userIds) => {
    const byUser = new Map<number, Row[]>();
    for (const row of await read([...new Set(userIds)])) {
      const rows = byUser.get(row.userId);
      if (rows) rows.push(row);
      else byUser.set(row.userId, [row]);
    }
    return userIds.map((userId) => new Map((byUser.get(userId) ?? []).map((row) => [realmIdOf(row), row.admin])));
  });
}

const groupRolesOf = rolesReadTogether(
  (userIds) =>
    db().groupMembership.findMany({
      where: { userId: { in: userIds } },
      select: { userId: true, groupId: true, admin: true },
    }),
  (row) => row.groupId,
);

const sectionRolesOf = rolesReadTogether(
  (userIds) =>
    db().enrollment.findMany({
      where: { userId: { in: userIds }, status: 'ACTIVE' },
      select: { userId: true, sectionId: true, admin: true },
    }),
  (row) => row.sectionId,
);

/**
 * The authenticated user behind one request. Membership lookups are memoised here, so a request that checks many
 * objects loads the viewer's groups and sections once.
 */
export class Viewer {
  private groupRoles?: Promise<Map<number, boolean>>;
  private sectionRoles?: Promise<Map<number, boolean>>;
  private readonly memos = new Map<string, unknown>();

  constructor(
    readonly user: ViewerUser,
    readonly credential: Credential,
  ) {}

  /**
   * Runs `load` once per key for this request; permission checks of the same realm share one lookup. Once a promise
   * settles its value replaces it, so later checks (one per row of a page) answer without waiting on a promise.
   */
  memo<T>(key: string, load: () => MaybePromise<T>): MaybePromise<T> {
    if (this.memos.has(key)) return this.memos.get(key) as MaybePromise<T>;
    const value = load();
    this.memos.set(key, value);
    if (isPromise(value)) {
      value.then(
        (settled) => this.memos.get(key) === value && this.memos.set(key, settled),
        () => {}, // the caller awaiting `value` sees the failure
      );
    }
    return value;
  }

  get id() {
    return this.user.id;
  }

  isDistrictAdmin(districtId: number) {
    return this.user.role === 'DISTRICT_ADMIN' && this.user.districtId === districtId;
  }

  /** District admins administer every school of their district; school admins their own school and its buildings. */
  isSchoolAdmin(districtId: number, schoolId: number) {
    return this.isDistrictAdmin(districtId) || (this.user.role === 'SCHOOL_ADMIN' && this.user.schoolId === schoolId);
  }

  /** Group id -> whether the viewer administers it, for every group the viewer belongs to. */
  groupMemberships(): Promise<Map<number, boolean>> {
    this.groupRoles ??= groupRolesOf.load(this.id);
    return this.groupRoles;
  }

  /**
   * Records a membership the viewer's request has just committed (a group it created): a map loaded before the commit
   * does not hold it, and one loaded later reads it from the database.
   */
  joinedGroup(groupId: number, admin: boolean): void {
    this.groupRoles = this.groupRoles?.then((roles) => roles.set(groupId, admin));
  }

  /**
   * Sets the viewer's group memberships when they were loaded together with other viewers' (a group's subscribers
   * re-checked for one event, in one statement). Only for a viewer asked about those groups alone: the map names no
   * other group.
   */
  useGroupMemberships(roles: Map<number, boolean>): void {
    this.groupRoles = Promise.resolve(roles);
  }

  /** Section id -> whether the viewer administers it (a teacher enrollment), for every active enrollment. */
  sectionEnrollments(): Promise<Map<number, boolean>> {
    this.sectionRoles ??= sectionRolesOf.load(this.id);
    return this.sectionRoles;
  }
}

/** The user columns a Viewer is made of. */
export const viewerUserSelection = {
  id: true,
  role: true,
  schoolId: true,
  buildingId: true,
  triggerAdmin: true,
  school: { select: { districtId: true } },
} satisfies Prisma.UserSelect;

/**
 * The credentials that still act: those of an active user. An inactive user's (issue 40's disabled user, the
 * platform's inactive one) are refused as unknown ones are, wherever a credential is looked up.
 */
export const ofActiveUser = { user: { deactivatedAt: null } } satisfies Prisma.AccessTokenWhereInput &
  Prisma.ApiClientWhereInput;

export function toViewerUser(user: Prisma.UserGetPayload<{ select: typeof viewerUserSelection }>): ViewerUser {
  return {
    id: user.id,
    role: user.role,
    districtId: user.school.districtId,
    schoolId: user.schoolId,
    buildingId: user.buildingId,
    triggerAdmin: user.triggerAdmin,
  };
}

/**
 * The credential's viewer as the database has it now, with nothing memoised; null once the credential is revoked or
 * expired. A Viewer memoises access for its lifetime, which for a long-lived subscription would be forever, so
 * subscriptions re-check with a fresh one. One statement (the credential with its user).
 */
export async function currentViewer(
  credential: Credential,
): Promise<{ viewer: Viewer; expiresAt: Date | null } | null> {
  if (credential.kind === 'app' || credential.kind === 'oauth2')
    return (await currentViewers([credential])).get(credential) ?? null;
  const found =
    credential.kind === 'bearer'
      ? await db().accessToken.findUnique({
          where: { id: credential.tokenId, ...ofActiveUser },
          select: { expiresAt: true, user: { select: viewerUserSelection } },
        })
      : await db()
          .apiClient.findUnique({
            where: { consumerKey: credential.consumerKey, ...ofActiveUser },
            select: { user: { select: viewerUserSelection } },
          })
          .then((client) => client && { ...client, expiresAt: null });
  if (!found || (found.expiresAt && found.expiresAt.getTime() <= Date.now())) return null;
  return { viewer: new Viewer(toViewerUser(found.user), credential), expiresAt: found.expiresAt };
}

export type CurrentViewer = { viewer: Viewer; expiresAt: Date | null };

/**
 * currentViewer for many credentials at once, by credential: one statement per kind of credential rather than one
 * per credential (the subscribers of a realm re-checked for one event). Null for a revoked or expired credential.
 */
export async function currentViewers(credentials: Credential[]): Promise<Map<Credential, CurrentViewer | null>> {
  const tokenIds = credentials.flatMap((credential) => (credential.kind === 'bearer' ? [credential.tokenId] : []));
  const consumerKeys = credentials.flatMap((credential) =>
    credential.kind === 'oauth' ? [credential.consumerKey] : [],
  );
  const appTokenIds = credentials.flatMap((credential) =>
    credential.kind === 'app' ? [credential.accessTokenId] : [],
  );
  const oauth2RecordIds = credentials.flatMap((credential) =>
    credential.kind === 'oauth2' ? [credential.recordId] : [],
  );
  const [tokens, clients, appTokens, oauth2Tokens] = await Promise.all([
    tokenIds.length
      ? db().accessToken.findMany({
          where: { id: { in: tokenIds }, ...ofActiveUser },
          select: { id: true, expiresAt: true, user: { select: viewerUserSelection } },
        })
      : [],
    consumerKeys.length
      ? db().apiClient.findMany({
          where: { consumerKey: { in: consumerKeys }, ...ofActiveUser },
          select: { consumerKey: true, user: { select: viewerUserSelection } },
        })
      : [],
    appTokenIds.length
      ? db().appAccessToken.findMany({
          where: { id: { in: appTokenIds }, authorization: { user: { deactivatedAt: null } } },
          select: { id: true, authorization: { select: { user: { select: viewerUserSelection } } } },
        })
      : [],
    oauth2RecordIds.length ? liveOAuth2AccessTokens(oauth2RecordIds) : [],
  ]);
  const byToken = new Map(tokens.map((token) => [token.id, token]));
  const byClient = new Map(clients.map((client) => [client.consumerKey, { ...client, expiresAt: null }]));
  const byAppToken = new Map(
    appTokens.map((token) => [token.id, { user: token.authorization.user, expiresAt: null as Date | null }]),
  );
  const byOAuth2Token = new Map(oauth2Tokens.map((token) => [token.id, token]));
  const now = Date.now();
  return new Map(
    credentials.map((credential) => {
      const found =
        credential.kind === 'bearer'
          ? byToken.get(credential.tokenId)
          : credential.kind === 'app'
            ? byAppToken.get(credential.accessTokenId)
            : credential.kind === 'oauth2'
              ? byOAuth2Token.get(credential.recordId)
              : byClient.get(credential.consumerKey);
      if (!found || (found.expiresAt && found.expiresAt.getTime() <= now)) return [credential, null];
      return [credential, { viewer: new Viewer(toViewerUser(found.user), credential), expiresAt: found.expiresAt }];
    }),
  );
}
