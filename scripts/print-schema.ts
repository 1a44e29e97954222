// Writes the committed files derived from the GraphQL schema: schema.graphql (the SDL of the API),
// src/graphql/graphql-env.d.ts (the introspection gql.tada types documents against, see src/graphql/typed-document.ts)
// and schema.possible-types.json (what Apollo Client's InMemoryCache needs to match fragments on interfaces and unions,
// docs/front-end.md). A test fails when any is stale: run `npm run schema`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, introspectionFromSchema, isAbstractType, printSchema } from 'graphql';
import { extractIntrospectionHeader, minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';
import { sortedSchema } from '../src/graphql/schema';

export const schemaFile = new URL('../schema.graphql', import.meta.url);
export const introspectionFile = new URL('../src/graphql/graphql-env.d.ts', import.meta.url);
export const possibleTypesFile = new URL('../schema.possible-types.json', import.meta.url);

/** Kept by editors, whose gql.tada plugin rewrites the file with the same output when schema.graphql changes. */
const header = `/* eslint-disable */
/* prettier-ignore */
// Generated from the schema by \`npm run schema\` (scripts/print-schema.ts); do not edit.
`;

export const printedSchema = () => `${printSchema(sortedSchema())}\n`;

/**
 * What the gql.tada CLI and editor plugin (tsconfig.json) write to `tadaOutputLocation` from schema.graphql, byte for byte,
 * so an editor never rewrites the committed file; computed here from the schema object, without files, network or LSP.
 * Built from the printed SDL rather than the schema object directly, as the latter also lists unused built-in scalars.
 */
export const printedIntrospection = () => {
  const committed = existsSync(introspectionFile) ? readFileSync(introspectionFile, 'utf8') : '';
  return outputIntrospectionFile(minifyIntrospection(introspectionFromSchema(buildSchema(printedSchema()))), {
    fileType: '.d.ts',
    shouldPreprocess: true,
    preamble: extractIntrospectionHeader(committed) ?? header,
  });
};

/**
 * Apollo Client's `possibleTypes`: each interface and union (`Node`, `Error`, each mutation's result union) with the
 * object types that can stand for it, sorted so the file changes only when the schema does.
 */
export const printedPossibleTypes = () => {
  const schema = sortedSchema();
  const possibleTypes: Record<string, string[]> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isAbstractType(type) || type.name.startsWith('__')) continue;
    possibleTypes[type.name] = schema
      .getPossibleTypes(type)
      .map((member) => member.name)
      .sort();
  }
  const sorted = Object.fromEntries(Object.entries(possibleTypes).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(schemaFile, printedSchema());
  writeFileSync(introspectionFile, printedIntrospection());
  writeFileSync(possibleTypesFile, printedPossibleTypes());
  console.log('schema.graphql, src/graphql/graphql-env.d.ts and schema.possible-types.json written');
}
