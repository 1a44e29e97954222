import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema';

/** Every field paged by `start`/`limit`, as `Type.field`. */
const offsetLists = Object.values(schema.getTypeMap())
  .filter(isObjectType)
  .flatMap((type) =>
    Object.values(type.getFields())
      .filter((field) => field.args.some((arg) => arg.name === 'start'))
      .map((field) => ({ type, field })),
  );

describe('offset lists', () => {
  it('are all deprecated in favour of the connection beside them, which exists and is not', () => {
    expect(offsetLists).toHaveLength(29);
    for (const { type, field } of offsetLists) {
      // Mostly `Type.fieldConnection` beside `Type.field`; a connection that came first keeps its name (`User.sections`
      // beside `User.sectionList`).
      const connection = /page with `(\w+)`\.$/.exec(field.deprecationReason ?? '')?.[1] ?? `${field.name}Connection`;
      expect(field.deprecationReason, `${type.name}.${field.name}`).toBe(
        `Offset paging for the /v1 facade; page with \`${connection}\`.`,
      );
      const beside = type.getFields()[connection];
      expect(beside, `${type.name}.${connection}`).toBeDefined();
      expect(beside?.deprecationReason, `${type.name}.${connection}`).toBeUndefined();
      expect(beside?.type.toString(), `${type.name}.${connection}`).toMatch(/Connection!?$/);
    }
  });
});
