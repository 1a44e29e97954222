import { isInputObjectType, isNonNullType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { membersOf } from '../../src/core/validation';
import { inputDeclaration, isRequiredMember } from '../../src/graphql/inputs';
import { sortedSchema } from '../../src/graphql/schema';

const inputTypes = Object.values(sortedSchema().getTypeMap()).filter(isInputObjectType);

describe('GraphQL inputs and their validation', () => {
  it('finds the input types', () => {
    expect(inputTypes.length).toBeGreaterThan(40);
  });

  // Adding a member to only one side (a field to the input type, or a member to the schema) fails here, and so does a
  // schema that would drop a member it does not know rather than refuse it.
  it.each(inputTypes.map((type) => [type.name, type] as const))(
    '%s is declared by its validation schema',
    (name, type) => {
      const schema = inputDeclaration(name);
      expect(schema, `${name} is not made with inputFromSchema`).toBeDefined();
      const members: Record<string, z.ZodType> = membersOf(schema!);
      const fields = type.getFields();
      expect(Object.keys(fields).sort()).toEqual(Object.keys(members).sort());
      for (const [member, field] of Object.entries(fields)) {
        expect(isNonNullType(field.type), `${name}.${member} non-null`).toBe(isRequiredMember(members[member]!));
      }
      const unknown = schema!
        .safeParse({ notAMember: 1 })
        .error?.issues.filter((issue) => issue.code === 'unrecognized_keys');
      expect(unknown).toEqual([expect.objectContaining({ keys: ['notAMember'] })]);
    },
  );

  it('refuses to derive an input from a schema that would drop unknown members', async () => {
    const { inputFromSchema } = await import('../../src/graphql/inputs');
    expect(() => inputFromSchema('LooseInput', z.object({ a: z.string().describe('A.') }), 'Loose.')).toThrow(
      /strict object/,
    );
  });
});
