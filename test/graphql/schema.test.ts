import { readFileSync } from 'node:fs';
import { getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType } from 'graphql';
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
    expect(possibleTypes.Error).toEqual(expect.arrayContaining(['NotFoundError', 'ValidationError']));
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

  it('gives each mutation result only the typed errors its service can return', () => {
    const mutations = sortedSchema().getMutationType()!.getFields();
    const members = (name: string) => {
      const type = getNamedType(mutations[name]!.type);
      return isUnionType(type) ? type.getTypes().map((member) => member.name) : [type.name];
    };
    expect(members('createUser')).toEqual(['ConflictError', 'NotFoundError', 'User', 'ValidationError']);
    expect(members('updateGroup')).toEqual(['Group', 'NotFoundError', 'ValidationError']);
    expect(members('deleteGroup')).toEqual(['Deleted', 'NotFoundError']);
    expect(members('setAttendance')).toEqual(['AttendanceUpdate', 'NotFoundError']);
    expect(members('sendSampleEvent')).toEqual([
      'NotFoundError',
      'SampleEventDelivery',
      'UnknownTriggerError',
      'ValidationError',
    ]);
    // Nothing it does can fail as a typed error: it answers with the feed itself.
    expect(members('createCalendarFeed')).toEqual(['IssuedCalendarFeed']);
  });
});
