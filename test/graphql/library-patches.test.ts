import { createRequire } from 'node:module';
import * as executorModule from '@graphql-tools/executor';
import * as selectionMapperModule from '@pothos/selection-mapper';
import {
  type FieldNode,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
  buildSchema,
  parse,
} from 'graphql';
import { describe, expect, it } from 'vitest';

// patches/ changes how three packages of the GraphQL execution path work per field (docs/performance.md, "Eleventh
// round" and "Twelfth round"). Yoga loads their ES module builds and a CommonJS caller their CommonJS builds: both must carry the change.
const require = createRequire(import.meta.url);
const builds = {
  'ES module': { executor: executorModule, selectionMapper: selectionMapperModule },
  CommonJS: {
    executor: require('@graphql-tools/executor') as typeof executorModule,
    selectionMapper: require('@pothos/selection-mapper') as typeof selectionMapperModule,
  },
};

describe.each(Object.entries(builds))('the %s builds', (_build, { executor, selectionMapper }) => {
  const schema = buildSchema('type Query { item: Item page(limit: Int = 20): Int } type Item { x: Int y: Int }');
  const document = parse('{ item { x y } page }');
  const item = (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;

  /** What graphql-tools' executor adds to graphql-js 16's resolve info (graphql-js 17 has them). */
  type ResolveInfo = GraphQLResolveInfo & { getAbortSignal(): AbortSignal | undefined; getAsyncHelpers(): { promiseAll: unknown } };

  /** One execution, recording what every field's resolver was handed. */
  async function execution(signal: AbortSignal) {
    const seen: { field: string; args: Record<string, unknown>; info: ResolveInfo }[] = [];
    const result = await executor.execute({
      schema,
      document,
      signal,
      fieldResolver: (_source, args, _context, info) => {
        seen.push({ field: info.fieldName, args, info: info as ResolveInfo });
        return info.fieldName === 'item' ? {} : 1;
      },
    });
    expect(result).toEqual({ data: { item: { x: 1, y: 1 }, page: 1 } });
    return seen;
  }

  it('hand every field without arguments an object of its own, without reading the arguments given, and coerce the others', async () => {
    // A field without arguments has none to read: the patched executor builds no map of the ones in the document.
    let argumentReads = 0;
    const fieldNodes = [item, ...item.selectionSet!.selections] as FieldNode[];
    for (const node of fieldNodes) {
      const given = node.arguments;
      Object.defineProperty(node, 'arguments', { configurable: true, get: () => (argumentReads++, given) });
    }
    const seen = await execution(new AbortController().signal);
    expect(argumentReads).toBe(0);
    const without = seen.filter(({ field }) => field !== 'page').map(({ args }) => args);
    expect(without).toEqual([{}, {}, {}]);
    expect(new Set(without).size).toBe(3);
    expect(seen.find(({ field }) => field === 'page')?.args).toEqual({ limit: 20 });
  });

  it("share one pair of resolve-info helpers within an execution, answering with that execution's signal", async () => {
    const first = new AbortController().signal;
    const second = new AbortController().signal;
    const [one, other] = [await execution(first), await execution(second)];
    expect(new Set(one.map(({ info }) => info.getAbortSignal)).size).toBe(1);
    expect(one[0]!.info.getAbortSignal).not.toBe(other[0]!.info.getAbortSignal);
    expect(one.map(({ info }) => info.getAbortSignal())).toEqual(one.map(() => first));
    expect(other[0]!.info.getAbortSignal()).toBe(second);
    expect(one[0]!.info.getAsyncHelpers().promiseAll).toBeTypeOf('function');
  });

  describe('a scalar or enum field without a resolver of its own', () => {
    const leaves = buildSchema(`
      enum Color { RED }
      type Query { item: Item }
      type Item { text: String number: Int! flag: Boolean color: Color required: Int! called: Int late: Int arg(n: Int): Int }
    `);

    /** The item's fields as the default resolver reads them from `item`, and how often the signal was checked. */
    async function read(fields: string, item: Record<string, unknown>) {
      const signal = new AbortController().signal;
      const check = signal.throwIfAborted.bind(signal);
      let checks = 0;
      signal.throwIfAborted = () => (checks++, check());
      const result = await executor.execute({ schema: leaves, document: parse(`{ item { ${fields} } }`), rootValue: { item }, signal });
      return { result: JSON.parse(JSON.stringify(result)), checks };
    }

    it('is its plain value serialized, without the work of a resolved field', async () => {
      const plain = await read('text number flag color', { text: 'a', number: 2, flag: true, color: 'RED' });
      expect(plain.result).toEqual({ data: { item: { text: 'a', number: 2, flag: true, color: 'RED' } } });
      // A value the default resolver must call goes the whole way: for each field one check more of the signal,
      // which the fields' loop checks before every field and the whole way checks again.
      const called = await read('text number flag color', { text: () => 'a', number: () => 2, flag: () => true, color: () => 'RED' });
      expect(called.result).toEqual(plain.result);
      expect(called.checks - plain.checks).toBe(4);
    });

    it('answers anything else as the whole way does: null, a missing non-null, a value that does not serialize, a promise, arguments', async () => {
      const { result } = await read('text required color called late arg(n: 1)', {
        text: null,
        required: null,
        color: 'BLUE',
        called: () => 7,
        late: Promise.resolve(8),
        arg: 9,
      });
      expect(result.data).toEqual({ item: null });
      expect(result.errors.map(({ message, path, locations }: { message: string; path: string[]; locations: unknown[] }) => ({ message, path, located: locations.length }))).toEqual([
        { message: 'Cannot return null for non-nullable field Item.required.', path: ['item', 'required'], located: 1 },
      ]);
      const rest = await read('text color called late arg(n: 1)', { text: null, color: 'BLUE', called: () => 7, late: Promise.resolve(8), arg: 9 });
      expect(rest.result.data).toEqual({ item: { text: null, color: null, called: 7, late: 8, arg: 9 } });
      expect(rest.result.errors).toEqual([
        expect.objectContaining({ message: 'Enum "Color" cannot represent value: "BLUE"', path: ['item', 'color'], locations: [expect.any(Object)] }),
      ]);
    });
  });

  it('find a mapping scoped above a list by the path beneath it, list indices left out', () => {
    const context = {};
    const root = { prev: undefined, key: 'groups', typename: 'Query' };
    const items = { prev: root, key: 'items', typename: 'GroupPage' };
    const row = (index: number) => ({ prev: items, key: index, typename: undefined });
    const field = (index: number, key: string) => ({ prev: row(index), key, typename: 'Group' });
    const school = { nested: {} };
    const page = new GraphQLObjectType({ name: 'GroupPage', fields: { total: { type: GraphQLInt } } });
    selectionMapper.setRowMappings(context, { path: root, returnType: page } as never, { 'Group@items.school': school });
    for (const index of [0, 7]) {
      expect(selectionMapper.getLoaderMapping(context, field(index, 'school') as never, 'Group', {})).toBe(school);
      expect(selectionMapper.getLoaderMapping(context, field(index, 'building') as never, 'Group', {})).toBeNull();
    }
    // Nothing resolves beneath a scalar: no scope is kept for one, so a lookup beneath it reaches the scope above.
    const accessCode = field(3, 'accessCode');
    selectionMapper.setRowMappings(context, { path: accessCode, returnType: GraphQLString } as never, {});
    const beneath = { prev: accessCode, key: 'x', typename: 'String' };
    const above = { nested: {} };
    selectionMapper.setRowMappings(context, { path: root, returnType: page } as never, { 'String@items.accessCode.x': above });
    expect(selectionMapper.getLoaderMapping(context, beneath as never, 'String', {})).toBe(above);
  });
});
