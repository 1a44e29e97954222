import { readFileSync } from 'node:fs';
import { isEnumType, isInputObjectType, isInterfaceType, isNonNullType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sortedSchema } from '../../src/graphql/schema';
import {
  introspectionFile,
  possibleTypesFile,
  printedIntrospection,
  printedPossibleTypes,
  printedSchema,
  schemaFile,
} from '../../scripts/print-schema';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing the API)', () => {
    expect(readFileSync(schemaFile, 'utf8')).toBe(printedSchema());
  });

  it('has the introspection that types GraphQL documents in src/graphql/graphql-env.d.ts (run `npm run schema`)', () => {
    expect(readFileSync(introspectionFile, 'utf8')).toBe(printedIntrospection());
  });

  it("has Apollo Client's possibleTypes in schema.possible-types.json (run `npm run schema`)", () => {
    const committed = readFileSync(possibleTypesFile, 'utf8');
    expect(committed).toBe(printedPossibleTypes());
    const possibleTypes = JSON.parse(committed) as Record<string, string[]>;
    expect(possibleTypes.Node).toEqual(expect.arrayContaining(['Group', 'School', 'User']));
    expect(possibleTypes.Realm).toEqual(['District', 'Group', 'School', 'Section', 'User']);
    expect(Object.values(possibleTypes).every((members) => members.length > 0)).toBe(true);
  });

  it('describes every public type, field, argument, input field and enum value', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(sortedSchema().getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Boolean', 'ID', 'Float'].includes(type.name)) continue;
      if (!type.description) undocumented.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : [])
            if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type))
        for (const value of type.getValues()) if (!value.description) undocumented.push(`${type.name}.${value.name}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('gives every mutation one shape: a nullable NamePayload with userErrors, from one NameInput', () => {
    const mutations = Object.values(sortedSchema().getMutationType()!.getFields());
    const shapes = mutations.map((field) => {
      const payload = field.type;
      const fields = isObjectType(payload) ? payload.getFields() : {};
      return {
        name: field.name,
        payload: String(payload),
        userErrors: fields.userErrors ? String(fields.userErrors.type) : null,
        nullableMembers: Object.values(fields).every(
          (member) => member.name === 'userErrors' || !isNonNullType(member.type),
        ),
        args: field.args.map((arg) => `${arg.name}: ${arg.type}`),
      };
    });
    const capitalized = (name: string) => name[0]!.toUpperCase() + name.slice(1);
    expect(shapes).toEqual(
      shapes.map(({ name, args }) => ({
        name,
        payload: `${capitalized(name)}Payload`,
        userErrors: '[UserError!]!',
        nullableMembers: true,
        // A mutation that acts on the viewer alone (createCalendarFeed) takes nothing.
        args: args.length ? [`input: ${capitalized(name)}Input!`] : [],
      })),
    );
    expect(shapes.length).toBeGreaterThan(60);
  });
});
