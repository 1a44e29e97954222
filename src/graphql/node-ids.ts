import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { encodeGlobalId } from '../core/global-id';

/** The extension that marks a Node's `id` as the global id of its row's `id` column (`nodeId`, src/graphql/columns.ts). */
export const rowGlobalId = 'lecternRowGlobalId';

/**
 * Answers a Node's `id` without a promise. Pothos' relay plugin resolves every global id through an async function, so
 * a page of objects whose other fields answer synchronously still takes the executor's promise path for every row
 * (docs/performance.md, "Dependency patches and Node workarounds"). A marked field is encoded here as the relay plugin
 * encodes it (`encodeGlobalId`, its `encodeGlobalID` option), from the row's `id` and the type's GraphQL name; the
 * other plugins still wrap the resolver as they wrap any field's.
 */
export class SynchronousNodeIdsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (!fieldConfig.extensions?.[rowGlobalId]) return fieldConfig;
    const type = fieldConfig.parentType;
    // Every marked field belongs to a Prisma node whose row has an `id` column (`nodeId`).
    return { ...fieldConfig, resolve: (row) => encodeGlobalId(type, (row as { id: number }).id) };
  }
}

const pluginName = 'synchronousNodeIds';
SchemaBuilder.registerPlugin(pluginName, SynchronousNodeIdsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      synchronousNodeIds: SynchronousNodeIdsPlugin<Types>;
    }
  }
}

export default pluginName;
