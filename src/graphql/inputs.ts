/**
 * GraphQL input types derived from the zod schemas that validate them, so that a member is declared once: its name,
 * its type, whether it may be left out, and its description (`.describe()` on the member). Services still validate
 * with the same schema, after they authorize.
 */
import type { InputTypeParam } from '@pothos/core';
import { z } from 'zod';
import { idOfNamedType, isIdMember } from '../core/validation';
import { builder } from './builder';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type NamedInputType = InputTypeParam<Types>;

/** Each input type's declaration, by GraphQL name: what test/graphql/input-validation.test.ts holds the schema to. */
const declarations = new Map<string, z.ZodType>();

export const inputDeclaration = (name: string) => declarations.get(name);

const wrapperTypes = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The member without its wrappers (left out, null, transforms: the type a client sends), and its description. */
function unwrap(member: z.ZodType): { core: z.ZodType; description: string | undefined } {
  let node = member;
  let description: string | undefined;
  for (;;) {
    description ??= z.globalRegistry.get(node)?.description;
    if (isIdMember(node)) return { core: node, description };
    const def = node._zod.def as z.core.$ZodTypeDef & { innerType?: z.ZodType; in?: z.ZodType };
    if (wrapperTypes.has(def.type) && def.innerType) node = def.innerType;
    else if (def.type === 'pipe' && def.in) node = def.in;
    else return { core: node, description };
  }
}

/** The GraphQL scalar of a member's core; enums, objects and mixed unions need their GraphQL type named. */
function scalarOf(core: z.ZodType): 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | undefined {
  if (isIdMember(core)) return 'ID';
  const def = core._zod.def as z.core.$ZodTypeDef & { options?: z.ZodType[] };
  switch (def.type) {
    case 'string':
      return 'String';
    case 'number':
      return (core as z.ZodNumber).isInt ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'union': {
      // Text literals beside text (an empty string allowed besides an email) are text; a literal alone is an enum's.
      const kinds = new Set(
        def.options!.flatMap((option) => {
          const inner = unwrap(option).core;
          const { type, values } = inner._zod.def as z.core.$ZodTypeDef & { values?: unknown[] };
          if (type === 'null' || type === 'undefined') return [];
          return [
            type === 'literal' && values!.every((value) => typeof value === 'string') ? 'String' : scalarOf(inner),
          ];
        }),
      );
      return kinds.size === 1 ? [...kinds][0] : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether the member may not be left out (as zod's objects judge it: not `.optional()`, `.nullish()` or defaulted),
 * which makes the GraphQL field non-null. A member whose check refuses it left out (`requiredInItem`) stays nullable.
 */
export const isRequiredMember = (member: z.ZodType) => member._zod.optin !== 'optional';

/**
 * The GraphQL type of members zod cannot name, and only of those: enums, nested inputs (a list's item type for a list),
 * and unions of several kinds.
 */
export type NamedTypes<Schema extends z.ZodType> = { [Member in keyof z.output<Schema>]?: NamedInputType };

/**
 * The GraphQL input type of an object schema (`createInput`, `updateInput` or a strict `z.object`): a field per
 * member, typed from the member (ids marked by `nodeId`), non-null unless it may be left out.
 */
export function inputFromSchema<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
  description: string,
  types?: NamedTypes<Schema>,
) {
  const def = schema._zod.def as z.core.$ZodTypeDef & { shape?: Record<string, z.ZodType>; catchall?: z.ZodType };
  if (def.type !== 'object' || def.catchall?._zod.def.type !== 'never') {
    throw new Error(`${name}: declare it with a strict object schema, so that a member it does not know is refused`);
  }
  declarations.set(name, schema);
  const named = (types ?? {}) as Record<string, NamedInputType | undefined>;
  return builder.inputRef<z.input<Schema> & object>(name).implement({
    description,
    // Typed by the schema's input rather than by these fields, which are made at run time.
    fields: (t) =>
      Object.fromEntries(
        Object.entries(def.shape!).map(([member, memberSchema]) => {
          const { core, description } = unwrap(memberSchema);
          if (!description) throw new Error(`${name}.${member}: describe the member (.describe())`);
          const list = core._zod.def.type === 'array';
          const item = list ? unwrap((core._zod.def as z.core.$ZodArrayDef).element as z.ZodType).core : core;
          const scalar = scalarOf(item);
          // Named only where the member cannot say it, so that the name cannot contradict the schema.
          if (scalar && named[member])
            throw new Error(`${name}.${member}: the schema gives its type (${scalar}); do not name it in \`types\``);
          const type = named[member] ?? scalar;
          if (!type) throw new Error(`${name}.${member}: name its GraphQL type in \`types\``);
          return [
            member,
            t.field({ type: list ? [type] : type, required: isRequiredMember(memberSchema), description } as never),
          ];
        }),
      ) as never,
  });
}

/** The input of an update, in which every member may be left out: described as such for `what` ("a blog post"). */
export function changesInput<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
  what: string,
  types?: NamedTypes<Schema>,
) {
  return inputFromSchema(name, schema, `Changes to ${what}; members left out keep their values.`, types);
}

/**
 * An input schema with members beside its own: the id of the object an update changes, the realm a new object
 * belongs to. A mutation's resolver takes them out before handing the rest to the service, which validates it.
 */
export function withMembers<Schema extends z.ZodType, Extra extends Record<string, z.ZodType>>(
  schema: Schema,
  extra: Extra,
) {
  const extended = (schema as unknown as z.ZodObject).extend(extra);
  return extended as unknown as z.ZodType<
    z.output<Schema> & z.output<z.ZodObject<Extra>>,
    z.input<Schema> & z.input<z.ZodObject<Extra>>
  >;
}

/** The member naming the object a mutation changes or deletes: its global id or its databaseId. */
export const objectIdMember = (description: string) => idOfNamedType.describe(description);

/** The input of a mutation that only names its object, such as a delete. */
export const objectIdInput = (description: string) => z.strictObject({ id: objectIdMember(description) });
