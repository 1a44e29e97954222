import { createRequire } from 'node:module';
import * as selectionMapperModule from '@pothos/selection-mapper';
import { GraphQLInt, GraphQLObjectType, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';

// patches/@pothos+selection-mapper+0.1.0.patch (docs/dependency-patches.md): fails when the installed package does not
// carry it. Yoga's side loads the ES module build and a CommonJS caller the CommonJS build: both must.
const require = createRequire(import.meta.url);
const builds = {
  'ES module': selectionMapperModule,
  CommonJS: require('@pothos/selection-mapper') as typeof selectionMapperModule,
};

describe.each(Object.entries(builds))("the selection mapper's %s build", (_build, selectionMapper) => {
  const root = { prev: undefined, key: 'groups', typename: 'Query' };
  const items = { prev: root, key: 'items', typename: 'GroupPage' };
  const row = (index: number) => ({ prev: items, key: index, typename: undefined });
  const field = (index: number, key: string) => ({ prev: row(index), key, typename: 'Group' });
  const page = new GraphQLObjectType({ name: 'GroupPage', fields: { total: { type: GraphQLInt } } });

  it('finds a mapping scoped above a list by the path beneath it, list indices left out', () => {
    const context = {};
    const school = { nested: {} };
    selectionMapper.setRowMappings(context, { path: root, returnType: page } as never, {
      'Group@items.school': school,
    });
    for (const index of [0, 7]) {
      expect(selectionMapper.getLoaderMapping(context, field(index, 'school') as never, 'Group', {})).toBe(school);
      expect(selectionMapper.getLoaderMapping(context, field(index, 'building') as never, 'Group', {})).toBeNull();
    }
  });

  it('keeps no scope for a scalar, beneath which nothing resolves', () => {
    // Unpatched, the scalar's empty scope is kept and a lookup beneath it stops there (null).
    const context = {};
    const accessCode = field(3, 'accessCode');
    selectionMapper.setRowMappings(context, { path: accessCode, returnType: GraphQLString } as never, {});
    const beneath = { prev: accessCode, key: 'x', typename: 'String' };
    const above = { nested: {} };
    selectionMapper.setRowMappings(context, { path: root, returnType: page } as never, {
      'String@items.accessCode.x': above,
    });
    expect(selectionMapper.getLoaderMapping(context, beneath as never, 'String', {})).toBe(above);
  });
});
