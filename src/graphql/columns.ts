import type { GenericFieldRef } from '@pothos/core';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';

type Model = keyof PrismaTypes & string;
type Column<Name extends Model> = keyof PrismaTypes[Name]['Shape'] & string;

/** The part of a Prisma object's field builder that exposes columns. */
interface ColumnExposer {
  exposeID(name: never, options: object): GenericFieldRef<unknown>;
  exposeString(name: never, options: object): GenericFieldRef<unknown>;
  exposeInt(name: never, options: object): GenericFieldRef<unknown>;
  exposeBoolean(name: never, options: object): GenericFieldRef<unknown>;
  expose(name: never, options: object): GenericFieldRef<unknown>;
}

const datamodel = getDatamodel().datamodel.models;

/**
 * Exposes columns of a model under their own names, typed as the data model says (`id` and `<x>Id` as ID, text as
 * String, integers as Int, flags as Boolean, times as DateTime, nullable where the column is) and described by their
 * `///` documentation in prisma/schema.prisma. Enums, relations and computed or guarded fields are declared by hand.
 */
export function exposeColumns<Name extends Model>(t: ColumnExposer, model: Name, columns: readonly Column<Name>[]) {
  const fields = datamodel[model]!.fields;
  return Object.fromEntries(
    columns.map((name): [string, GenericFieldRef<unknown>] => {
      const column = fields.find((field) => field.name === name);
      if (!column?.documentation) throw new Error(`${model}.${name} needs a /// description in prisma/schema.prisma`);
      const options = { nullable: !column.isRequired };
      // Pothos checks each name against the model's shape; here the names come typed from the same model.
      const key = name as never;
      if (name === 'id') throw new Error(`${model}.id: a Node's id is global; expose the column as databaseId (exposeDatabaseId)`);
      // A reference by id is a foreign key: the database id, as /v1 has it. Front ends select the object instead.
      if (column.type === 'Int' && name.endsWith('Id')) {
        const object = `\`${name.slice(0, -2)}\``;
        const description = `${column.documentation} A database id, as /v1 has it; ${object}, where the type has it, is the object with its global id.`;
        return [name, t.exposeID(key, { ...options, description })];
      }
      switch (column.type) {
        case 'String':
          return [name, t.exposeString(key, options)];
        case 'Int':
          return [name, t.exposeInt(key, options)];
        case 'Boolean':
          return [name, t.exposeBoolean(key, options)];
        case 'DateTime':
          return [name, t.expose(key, { ...options, type: 'DateTime' })];
        default:
          throw new Error(`${model}.${name} is a ${column.type} column: expose it by hand`);
      }
    }),
  );
}

/** A Node's `id`: the global id Pothos relay encodes from the row's `id` column (base64 of `Type:databaseId`). */
export const nodeId = { field: 'id' } as const;

/** A Node's `databaseId`: the row's own id, the one /v1 uses and `<x>Id` references hold. */
export function exposeDatabaseId(t: ColumnExposer) {
  return t.exposeID('id' as never, {
    description: 'The database id: what /v1 and references such as `schoolId` use. `id` is the global id.',
  });
}

/** The part of a Prisma object's field builder that declares a computed text field. */
interface TextFieldMaker {
  string(options: never): GenericFieldRef<unknown>;
}

/**
 * Exposes optional text columns, which hold '' when there is no value (what /v1 renders, and what its writes store),
 * as nullable Strings that answer null for it: GraphQL tells "no value" apart from text. Described like exposeColumns.
 */
export function exposeOptionalText<Name extends Model>(t: TextFieldMaker, model: Name, columns: readonly Column<Name>[]) {
  const fields = datamodel[model]!.fields;
  return Object.fromEntries(
    columns.map((name): [string, GenericFieldRef<unknown>] => {
      const column = fields.find((field) => field.name === name);
      if (!column?.documentation) throw new Error(`${model}.${name} needs a /// description in prisma/schema.prisma`);
      if (column.type !== 'String' || !column.isRequired) throw new Error(`${model}.${name} is not a text column that holds '' when empty`);
      const resolve = (row: Record<string, unknown>) => (row[name] as string) || null;
      // Pothos types the resolver's row per model; here the name comes typed from the same model.
      return [name, t.string({ nullable: true, description: column.documentation, resolve } as never)];
    }),
  );
}
