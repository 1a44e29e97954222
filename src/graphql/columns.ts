import type { GenericFieldRef } from '@pothos/core';
import { selectedFieldNames } from '@pothos/selection-mapper';
import type { GraphQLResolveInfo } from 'graphql';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import { longText } from './execution-bounds';
import { rowGlobalId } from './node-ids';

export type Model = keyof PrismaTypes & string;
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

/** A field of a model as the data model describes it (type, nullability, relation keys, `///` documentation). */
export const modelField = (model: Model, name: string) => datamodel[model]!.fields.find((field) => field.name === name);

/**
 * Exposes columns of a model under their own names, typed as the data model says (`id` and `<x>Id` as ID, text as
 * String, integers as Int, flags as Boolean, times as DateTime, nullable where the column is) and described by their
 * `///` documentation in prisma/schema.prisma. Enums, relations and computed or guarded fields are declared by hand.
 */
export function exposeColumns<Name extends Model>(t: ColumnExposer, model: Name, columns: readonly Column<Name>[]) {
  return Object.fromEntries(
    columns.map((name): [string, GenericFieldRef<unknown>] => {
      const column = modelField(model, name);
      if (!column?.documentation) throw new Error(`${model}.${name} needs a /// description in prisma/schema.prisma`);
      const options = { nullable: !column.isRequired };
      // Pothos checks each name against the model's shape; here the names come typed from the same model.
      const key = name as never;
      if (name === 'id')
        throw new Error(`${model}.id: a Node's id is global; expose the column as databaseId (exposeDatabaseId)`);
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

/**
 * A Node's `id`: the global id of the row's `id` column (base64 of `Type:databaseId`), answered without a promise
 * (src/graphql/node-ids.ts).
 */
export const nodeId = { field: 'id', extensions: { [rowGlobalId]: true } } as const;

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
export function exposeOptionalText<Name extends Model>(
  t: TextFieldMaker,
  model: Name,
  columns: readonly Column<Name>[],
) {
  return Object.fromEntries(
    columns.map((name): [string, GenericFieldRef<unknown>] => {
      const column = modelField(model, name);
      if (!column?.documentation) throw new Error(`${model}.${name} needs a /// description in prisma/schema.prisma`);
      if (column.type !== 'String' || !column.isRequired)
        throw new Error(`${model}.${name} is not a text column that holds '' when empty`);
      const resolve = (row: Record<string, unknown>) => (row[name] as string) || null;
      // Pothos types the resolver's row per model; here the name comes typed from the same model.
      return [name, t.string({ nullable: true, description: column.documentation, resolve } as never)];
    }),
  );
}

/**
 * Exposes a long text column (a body, a description, a comment) of at most `maxLength` characters, which its writes
 * validate: weighed by the cost model and counted against the answer's budget as it resolves (`longText`). A column
 * that holds '' when empty answers null for it, as exposeOptionalText's do. Described like exposeColumns.
 */
export function exposeLongText<Name extends Model>(
  t: TextFieldMaker,
  model: Name,
  name: Column<Name>,
  maxLength: number,
) {
  const column = modelField(model, name);
  if (!column?.documentation) throw new Error(`${model}.${name} needs a /// description in prisma/schema.prisma`);
  if (column.type !== 'String' || !column.isRequired) throw new Error(`${model}.${name} is not a text column`);
  const optional = column.hasDefaultValue;
  const field = longText(maxLength, (row: Record<string, unknown>) =>
    optional ? (row[name] as string) || null : (row[name] as string),
  );
  // Pothos types the resolver's row per model; here the name comes typed from the same model.
  return { [name]: t.string({ nullable: optional, description: column.documentation, ...field } as never) };
}

/** The part of a Prisma object's field builder that declares a field of another object type. */
interface ObjectFieldMaker {
  field(options: never): GenericFieldRef<unknown>;
}

/** Whether a selection asks only for what an object's own key answers without its row. */
function asksOnlyKeys(names: ReadonlySet<string>) {
  for (const name of names) if (name !== 'id' && name !== 'databaseId' && name !== '__typename') return false;
  return true;
}

/**
 * A to-one relation (such as a group's `school`) read through its foreign key when the document asks only for the
 * related object's ids (`school { id }`, as every /v1 route and most lists do): the object is made from the key column,
 * without the join `t.relation` adds to the parent's statement (for a page of 20 groups with three references, about
 * a third of the request's CPU). Anything more selected loads the relation with the parent, as `t.relation` does.
 * Typed, nullable and described as the data model says; `type` is the related model's object type.
 */
export function exposeReference<Name extends Model>(
  t: ObjectFieldMaker,
  model: Name,
  relation: keyof PrismaTypes[Name]['Relations'] & string,
  type: unknown,
) {
  const field = modelField(model, relation);
  const column = field?.relationFromFields?.[0];
  if (!field || !column || field.relationFromFields!.length !== 1)
    throw new Error(`${model}.${relation} is not a to-one relation with one key column`);
  // Pothos' own hook for a field's selection, as keysetRelatedConnection uses it: it is told what is selected beneath.
  const pothosPrismaSelect = (
    _args: unknown,
    _context: unknown,
    nestedSelection: (query: true) => unknown,
    selected: () => ReadonlySet<string>,
  ) =>
    asksOnlyKeys(selected())
      ? { select: { [column]: true } }
      : { select: { [column]: true, [relation]: nestedSelection(true) } };
  // Decided again from every node of the field, as merged for execution: another field may load part of the relation
  // for itself (a policy's facts), so a loaded relation does not mean this field's selection was loaded.
  const resolve = (row: Record<string, unknown>, _args: unknown, context: object, info: GraphQLResolveInfo) =>
    asksOnlyKeys(selectedFieldNames(context, info))
      ? row[column] == null
        ? null
        : { id: row[column] }
      : row[relation];
  return t.field({
    type,
    nullable: !field.isRequired,
    description: field.documentation,
    extensions: { pothosPrismaSelect },
    resolve,
  } as never);
}
