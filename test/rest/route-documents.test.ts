import { print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema';
import { restRoutes } from '../../src/rest/routes';

describe('the /v1 route table', () => {
  it.each(restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s runs a GraphQL document valid against the schema, with one root field',
    (_name, route) => {
      expect(validate(schema, route.document).map((error) => error.message)).toEqual([]);
      const operations = route.document.definitions.filter((definition) => definition.kind === 'OperationDefinition');
      expect(operations).toHaveLength(1);
      expect(operations[0]!.selectionSet.selections).toHaveLength(1);
      expect(print(route.document)).not.toContain('@_unmask');
    },
  );

  it('declares each method and path once, with a summary and the responses it answers', () => {
    const keys = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of restRoutes) {
      expect(route.summary.length).toBeGreaterThan(5);
      expect(Object.keys(route.responses).length).toBeGreaterThan(0);
      if (route.method === 'POST' || route.method === 'PUT')
        expect(route.body ?? (route.rawBody ? 'raw bytes' : undefined)).toBeDefined();
    }
  });
});
