// Writes the committed files derived from the GraphQL schema: schema.graphql (the SDL of the API) and
// src/graphql/graphql-env.d.ts (the introspection gql.tada types documents against, see src/graphql/typed-document.ts).
// A test fails when either is stale: run `npm run schema`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, introspectionFromSchema, printSchema } from 'graphql';
import { extractIntrospectionHeader, minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';
import { sortedSchema } from '../src/graphql/schema';

export const schemaFile = new URL('../schema.graphql', import.meta.url);
export const introspectionFile = new URL('../src/graphql/graphql-env.d.ts', import.meta.url);

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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(schemaFile, printedSchema());
  writeFileSync(introspectionFile, printedIntrospection());
  console.log('schema.graphql and src/graphql/graphql-env.d.ts written');
}
