import type { Role } from '../generated/prisma/enums';
import { db } from '../db/database';

export interface ViewerUser {
  id: number;
  role: Role;
  districtId: number;
  /** The top-level school the user belongs to. */
  schoolId: number;
  buildingId: number | null;
  triggerAdmin: boolean;
}

export type Credential = { kind: 'oauth'; consumerKey: string } | { kind: 'bearer'; tokenId: number };

/**
 * The authenticated user behind one request. Membership lookups are memoised here, so a request that checks many
 * objects loads the viewer's groups and sections once.
 */
export class Viewer {
  private groupRoles?: Promise<Map<number, boolean>>;
  private sectionRoles?: Promise<Map<number, boolean>>;
  private readonly memos = new Map<string, Promise<unknown>>();

  constructor(
    readonly user: ViewerUser,
    readonly credential: Credential,
  ) {}

  /** Runs `load` once per key for this request; permission checks of the same realm share one lookup. */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    let value = this.memos.get(key) as Promise<T> | undefined;
    if (!value) {
      value = load();
      this.memos.set(key, value);
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
    return (
      this.isDistrictAdmin(districtId) || (this.user.role === 'SCHOOL_ADMIN' && this.user.schoolId === schoolId)
    );
  }

  /** Group id -> whether the viewer administers it, for every group the viewer belongs to. */
  groupMemberships(): Promise<Map<number, boolean>> {
    this.groupRoles ??= db()
      .groupMembership.findMany({ where: { userId: this.id }, select: { groupId: true, admin: true } })
      .then((rows) => new Map(rows.map((row) => [row.groupId, row.admin])));
    return this.groupRoles;
  }

  /** Section id -> whether the viewer administers it (a teacher enrollment), for every active enrollment. */
  sectionEnrollments(): Promise<Map<number, boolean>> {
    this.sectionRoles ??= db()
      .enrollment.findMany({ where: { userId: this.id, status: 'ACTIVE' }, select: { sectionId: true, admin: true } })
      .then((rows) => new Map(rows.map((row) => [row.sectionId, row.admin])));
    return this.sectionRoles;
  }
}
