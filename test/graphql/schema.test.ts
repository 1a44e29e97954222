import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sortedSchema } from '../../src/graphql/schema';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing the API)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(`${printSchema(sortedSchema())}\n`);
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
