// Writes schema.graphql, the committed SDL of the GraphQL API. A test fails when it is stale: run `npm run schema`.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { sortedSchema } from '../src/graphql/schema';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchema(sortedSchema())}\n`);
console.log('schema.graphql written');
