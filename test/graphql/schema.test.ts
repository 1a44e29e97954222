import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sortedSchema } from '../../src/graphql/schema';
import { introspectionFile, printedIntrospection, printedSchema, schemaFile } from '../../scripts/print-schema';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing the API)', () => {
    expect(readFileSync(schemaFile, 'utf8')).toBe(printedSchema());
  });

  it('has the introspection that types GraphQL documents in src/graphql/graphql-env.d.ts (run `npm run schema`)', () => {
    expect(readFileSync(introspectionFile, 'utf8')).toBe(printedIntrospection());
  });

  it('describes every public type and field', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(sortedSchema().getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Boolean', 'ID', 'Float'].includes(type.name)) continue;
      if (!type.description) undocumented.push(type.name);
      if ('getFields' in type) {
        for (const field of Object.values(type.getFields())) if (!field.description) undocumented.push(`${type.name}.${field.name}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
