import { type Policy, type Verdict, can } from '../auth/policy';
import { type RealmFacts, type RealmRef, isStorableId, knownRealm } from '../auth/realms';
import type { Viewer } from '../auth/viewer';
import type PrismaTypes from '../generated/pothos-types';
import { builder } from './builder';
import { RealmInput, parseId, realmRef } from './realm';
import { findIfVisible } from './visible';
import { type DirectRows, readById } from './reads-by-id';
import { delegateOf, hiddenWhenRefused, registerNodeVisibility, visibleByEach } from './nodes';
import type { RealmType } from '../generated/prisma/enums';

type Model = keyof PrismaTypes & string;

/** A policy that says who may read an object of its kind, by id. */
type ReadPolicy = Policy<{ read: (viewer: Viewer, id: number) => Verdict | Promise<Verdict> }>;

/**
 * The realm an object is (a group, a user) when its policy's `read` is that realm's access: the columns the access
 * rule reads, and its facts from a row that has them; and how its rows are read without Prisma, if they are (see
 * `readById`).
 */
interface RealmOfRow {
  type: RealmType;
  selection: Record<string, unknown>;
  facts: (row: never) => RealmFacts;
  direct?: DirectRows;
}

/**
 * A Prisma query with `extra` (a select map) loaded too: merged into its `select`, or, in include mode where every
 * column is loaded, its relations added to the `include`; relations both name are merged the same way.
 */
function withSelected(query: PrismaQuery, extra: Record<string, unknown>): PrismaQuery {
  if (query.select) return { ...query, select: mergeSelections(query.select, extra) };
  const relations = Object.fromEntries(Object.entries(extra).filter(([, value]) => typeof value === 'object'));
  return { ...query, include: mergeSelections(query.include ?? {}, relations) };
}

/** A Prisma query's selection: `select` (these columns and relations) or `include` (every column, and these relations). */
export type PrismaQuery = { select?: Record<string, unknown>; include?: Record<string, unknown> };

function mergeSelections(map: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...map };
  for (const [key, value] of Object.entries(extra)) {
    const present = merged[key];
    // `true` selects a column, or a relation with all its columns, which holds whatever the extra selects of it.
    if (present === true) continue;
    merged[key] =
      !present || value === true
        ? value
        : withSelected(present as PrismaQuery, (value as { select: Record<string, unknown> }).select);
  }
  return merged;
}

/**
 * `<name>(id)`: one object, or null when it does not exist or its policy does not let the viewer read it, so that a
 * hidden object and a missing one look the same.
 */
export function objectQuery<Name extends Model>(name: string, type: Name, policy: ReadPolicy, realm?: RealmOfRow) {
  // Read together with the same object queries of concurrent requests (see `readById`).
  const find = (selection: PrismaQuery, id: number) =>
    readById<PrismaTypes[Name]['Shape']>(type, selection, id, realm?.direct);
  builder.queryField(name, (t) =>
    t.withAuth({ authenticated: true }).prismaField({
      type: type as Model,
      nullable: true,
      description: `The ${type} with this id; null when it does not exist or the viewer may not see it.`,
      args: { id: t.arg.id({ required: true, description: `${type} id: its global id or its databaseId.` }) },
      resolve: async (query, _root, args, { viewer }) => {
        const id = parseId(args.id, type);
        if (!realm)
          return findIfVisible(query, can(viewer, policy, 'read', id), (selection) => find(selection, id)) as never;
        // The row and the facts its access rule reads in one statement; a hidden row is loaded but not answered.
        const selection = withSelected(query, realm.selection); // the query is read on the null paths too (see findIfVisible)
        if (!isStorableId(id)) return null;
        const row = await find(selection, id);
        if (!row) return null;
        knownRealm(viewer, { type: realm.type, id }, realm.facts(row as never));
        return ((await can(viewer, policy, 'read', id)) ? row : null) as never;
      },
    }),
  );
  registerNodeVisibility(
    type,
    visibleByEach((viewer, id) => can(viewer, policy, 'read', id)),
  );
}

/**
 * `<name>(realm, id)`: one object a realm owns, or null when it or its realm does not exist or is hidden from the
 * viewer (`readable` answers false, or throws a 403 when the realm's contents are closed to them).
 */
export function realmObjectQuery<Name extends RealmOwnedModel>(
  name: string,
  type: Name,
  options: {
    description: string;
    readable: (viewer: Viewer, realm: RealmRef) => Promise<boolean>;
    /** Which of the realm's objects the viewer is shown, when not all of them (unpublished pages). */
    shown?: (viewer: Viewer, realm: RealmRef) => Promise<object>;
  },
) {
  const delegate = () => delegateOf(type) as unknown as RealmOwnedDelegate;
  const shownWhere = async (viewer: Viewer, realm: RealmRef) =>
    options.shown ? [await options.shown(viewer, realm)] : [];
  builder.queryField(name, (t) =>
    t.withAuth({ authenticated: true }).prismaField({
      type: type as Model,
      nullable: true,
      description: options.description,
      args: {
        realm: t.arg({
          type: RealmInput,
          required: true,
          description: `The realm (district, school, user, section or group) the ${type} belongs to.`,
        }),
        id: t.arg.id({ required: true, description: `${type} id: its global id or its databaseId.` }),
      },
      resolve: (query, _root, args, { viewer }) => {
        const realm = realmRef(args.realm);
        const id = parseId(args.id, type);
        const visible = options.readable(viewer, realm).then((readable) => readable && isStorableId(id));
        return findIfVisible(query, visible, async (selection) =>
          delegate().findFirst({
            ...selection,
            where: { AND: [{ id, realmType: realm.type, realmId: realm.id }, ...(await shownWhere(viewer, realm))] },
          }),
        ) as never;
      },
    }),
  );
  // For `node`: the realms of the ids first, then the same two checks per distinct realm (not per id).
  registerNodeVisibility(type, async (viewer, ids) => {
    const rows = await delegate().findMany({
      where: { id: { in: ids } },
      select: { id: true, realmType: true, realmId: true },
    });
    const byRealm = new Map<string, { realm: RealmRef; ids: number[] }>();
    for (const row of rows) {
      const key = `${row.realmType}:${row.realmId}`;
      if (!byRealm.has(key)) byRealm.set(key, { realm: { type: row.realmType, id: row.realmId }, ids: [] });
      byRealm.get(key)!.ids.push(row.id);
    }
    const visible = await Promise.all(
      [...byRealm.values()].map(async ({ realm, ids: realmIds }) => {
        if (!(await options.readable(viewer, realm).catch(hiddenWhenRefused))) return [];
        if (!options.shown) return realmIds;
        const where = { AND: [{ id: { in: realmIds } }, await options.shown(viewer, realm)] };
        return (await delegate().findMany({ where, select: { id: true } })).map((row) => row.id);
      }),
    );
    return visible.flat();
  });
}

/** Models a realm owns through `realmType` and `realmId` columns. */
type RealmOwnedModel = 'BlogPost' | 'Page' | 'CalendarEvent';

/** What realmObjectQuery needs of such a model's Prisma delegate. */
interface RealmOwnedDelegate {
  findFirst(args: object): Promise<unknown>;
  findMany(args: object): Promise<{ id: number; realmType: RealmType; realmId: number }[]>;
}
