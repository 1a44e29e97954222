import type { MaybePromise } from '../auth/maybe-promise';
import { brandWithType } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLError } from 'graphql';
import { isStorableId } from '../auth/realms';
import type { Viewer } from '../auth/viewer';
import { httpError } from '../core/errors';
import { decodeGlobalId } from '../core/global-id';
import { db } from '../db/database';
import type PrismaTypes from '../generated/pothos-types';
import { type Context, builder } from './builder';

type Model = keyof PrismaTypes & string;

/** The most ids one `nodes` call takes: a page of a client's cache, not a bulk export. */
export const maxNodesPerRequest = 100;

/** The ids among `ids` the viewer may see, by the rule of the type's own query (`group(id)` for a Group). */
export type VisibleIds = (viewer: Viewer, ids: number[]) => Promise<Iterable<number>>;

/** What `nodes` and `readById` need of a Prisma delegate: one row by its id, or the rows of a set of ids. */
interface NodeDelegate {
  findUnique(args: object): Promise<{ id: number } | null>;
  findMany(args: object): Promise<{ id: number }[]>;
}

/** The Prisma delegate of a model: `db().group` for Group. */
export const delegateOf = (model: Model) =>
  (db() as unknown as Record<string, NodeDelegate>)[model[0]!.toLowerCase() + model.slice(1)]!;

const visibility = new Map<string, VisibleIds>();

/**
 * Declares who may refetch objects of a Node type through `node` and `nodes`: the same rule as its own query, which
 * registers it (objectQuery, realmObjectQuery) or states it beside it. A Node type with no rule answers null for every
 * id, so a type can never be read through `node` past its policy.
 */
export function registerNodeVisibility(type: Model, visibleIds: VisibleIds) {
  if (visibility.has(type)) throw new Error(`${type} already has a node visibility rule`);
  visibility.set(type, visibleIds);
}

/** Visibility by a rule about one id at a time (a policy's `read`); the checks run together, so memoised loads batch. */
export const visibleByEach =
  (visible: (viewer: Viewer, id: number) => MaybePromise<boolean>): VisibleIds =>
  async (viewer, ids) => {
    const verdicts = await Promise.all(ids.map((id) => readableUnlessRefused(() => visible(viewer, id))));
    return ids.filter((_id, index) => verdicts[index]);
  };

/**
 * Visibility through what each object belongs to (an item's album, an assignment's section): the owners of the ids in
 * one statement, then one check per distinct owner, as the owner's list query checks it.
 */
export function visibleThrough<Row extends { id: number }>(
  model: Model,
  owner: { select: object; of: (row: Row) => number },
  readable: (viewer: Viewer, ownerId: number) => MaybePromise<boolean>,
): VisibleIds {
  return visibleThroughAll<Row>(model, [{ ...owner, readable }]);
}

/**
 * Visibility through several owners at once (a membership: its group and its user): the owners of the ids in one
 * statement, one check per distinct owner of each kind, and an id is visible when every one of its owners is.
 */
export function visibleThroughAll<Row extends { id: number }>(
  model: Model,
  owners: {
    select: object;
    of: (row: Row) => number;
    readable: (viewer: Viewer, ownerId: number) => MaybePromise<boolean>;
  }[],
): VisibleIds {
  return async (viewer, ids) => {
    const select = Object.assign({ id: true }, ...owners.map((owner) => owner.select));
    const rows = (await delegateOf(model).findMany({ where: { id: { in: ids } }, select })) as Row[];
    const visibleOwners = await Promise.all(
      owners.map(async (owner) => {
        const ownerIds = [...new Set(rows.map(owner.of))];
        const verdicts = await Promise.all(
          ownerIds.map((id) => readableUnlessRefused(() => owner.readable(viewer, id))),
        );
        return new Set(ownerIds.filter((_id, index) => verdicts[index]));
      }),
    );
    return rows
      .filter((row) => owners.every((owner, index) => visibleOwners[index]!.has(owner.of(row))))
      .map((row) => row.id);
  };
}

/**
 * A refusal (403: the viewer knows the object's realm but may not read inside it) is null for `node`, as Relay
 * expects of what the viewer cannot see; any other failure propagates.
 */
export function hiddenWhenRefused(error: unknown): false {
  if (error instanceof GraphQLError && (error.extensions.http as { status?: number } | undefined)?.status === 403)
    return false;
  throw error;
}

/** A read check's answer, a refusal (thrown at once or by a promise) counted as hidden. */
const readableUnlessRefused = (check: () => MaybePromise<boolean>) =>
  Promise.resolve().then(check).catch(hiddenWhenRefused);

/**
 * Loads the objects global ids name, in their order: null for an id that is not a global id, names no Node type, no
 * object, or one the viewer may not see. Per type: the visibility rule, then one statement for the visible ids with
 * the selection of the whole request (relations included), so a page of mixed types costs statements per type, not
 * per id.
 */
async function loadNodes(
  ids: readonly string[],
  context: Context,
  info: GraphQLResolveInfo,
): Promise<(object | null)[]> {
  const viewer = context.viewer!;
  const wanted = new Map<string, Set<number>>();
  const decoded = ids.map((value) => {
    const global = decodeGlobalId(value);
    if (!global || !visibility.has(global.type) || !isStorableId(global.id)) return null;
    if (!wanted.has(global.type)) wanted.set(global.type, new Set());
    wanted.get(global.type)!.add(global.id);
    return global;
  });
  const loaded = new Map<string, object>();
  await Promise.all(
    [...wanted].map(async ([type, idSet]) => {
      const visible = [...(await visibility.get(type)!(viewer, [...idSet]))];
      if (visible.length === 0) return;
      const query = await queryFromInfo({ context, info, typeName: type, awaitSelections: true });
      const rows = await delegateOf(type as Model).findMany({ ...query, where: { id: { in: visible } } });
      for (const row of rows) {
        // The Node interface resolves an object's type by this brand; a Prisma row does not say which model it is.
        brandWithType(row, type as never);
        loaded.set(`${type}:${row.id}`, row);
      }
    }),
  );
  return decoded.map((global) => (global && loaded.get(`${global.type}:${global.id}`)) ?? null);
}

const NodeInterface = builder.nodeInterfaceRef();

builder.queryFields((t) => ({
  node: t.withAuth({ authenticated: true }).field({
    type: NodeInterface,
    nullable: true,
    description:
      'The object a global id (an `id` of any Node) names; null when the id names nothing, is not a global id, or names ' +
      "an object the viewer may not see (by the same rules as the object's own query, such as `group(id)`).",
    args: { id: t.arg.id({ required: true, description: "A global id, as a Node's `id` answers it." }) },
    resolve: async (_root, args, context, info) => (await loadNodes([String(args.id)], context, info))[0] as never,
  }),
  nodes: t.withAuth({ authenticated: true }).field({
    type: [NodeInterface],
    nullable: { list: false, items: true },
    description: `The objects global ids name, in the order given, each null where \`node\` would answer null; at most ${maxNodesPerRequest} ids.`,
    args: { ids: t.arg.idList({ required: true, description: `Global ids, at most ${maxNodesPerRequest}.` }) },
    resolve: (_root, args, context, info) => {
      if (args.ids.length > maxNodesPerRequest) {
        throw httpError(
          400,
          'BAD_USER_INPUT',
          `nodes takes at most ${maxNodesPerRequest} ids; ${args.ids.length} were given`,
        );
      }
      return loadNodes(args.ids.map(String), context, info) as never;
    },
  }),
}));
