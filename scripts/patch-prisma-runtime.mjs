/**
 * Runs after every install (`postinstall`, after patch-package) and changes two things in Prisma's client runtime.
 *
 * 1. Prisma's query interpreter renders a statement's SQL from its cached query plan again on every execution. A plan's
 *    SQL template is a list of fragments (text and parameters); rendering walks it three times through generators,
 *    copying each fragment (about 2 µs per fragment: a group's INSERT took 100 µs, a create's four statements 240 µs, a
 *    tenth of its CPU). A template made only of text and scalar parameters renders to the same text and parameter types
 *    every time, so this remembers them per plan node (a WeakMap: they go with the plan when Prisma's plan cache drops
 *    it) and hands each execution its own values. Templates with lists of parameters (`IN (...)`, multi-row inserts),
 *    whose text depends on the values, are rendered as before. docs/performance.md, "Sixth throughput round".
 * 2. Every call of the client returns a "PrismaPromise", an object literal with a `spec` getter. On Node 20 an object
 *    literal with a getter of its own gets a hidden class of its own, and that hidden class (in the old generation)
 *    keeps the getter's closure, the query's promise and its result from the young generation until the next full
 *    collection: every request's rows were copied twice and then promoted. `spec` becomes a plain property with the
 *    same value. docs/performance.md, "Fourteenth round".
 *
 * Prisma's runtime is minified, one line of 100 KB, so a patch-package diff would carry the line twice; this replaces
 * each piece by its anchor instead. An anchor not found (an upgraded @prisma/client) fails the install: the change must
 * be redone or dropped, never silently lost.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const expectedVersion = '7.10.0';
const marker = '__lecternRenderedSql';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@prisma/client/package.json'));
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
if (version !== expectedVersion) {
  throw new Error(`scripts/patch-prisma-runtime.mjs is written for @prisma/client ${expectedVersion}, found ${version}: redo or drop it`);
}

/** The CommonJS and ESM builds, each with the minified names of its SQL interpreter, renderer and error class. */
const builds = [
  { file: 'runtime/client.js', interpret: 'Di', render: 'Od', error: 'X' },
  { file: 'runtime/client.mjs', interpret: 'Ai', render: 'vd', error: 'K' },
];

const limitError = '"The query parameter limit supported by your database is exceeded.","P2029"';

/** Change 1: the SQL of plain templates remembered per plan node. */
function rememberRenderedSql(source, { file, interpret, render, error }) {
  if (source.includes(marker)) return source;
  const head = `function ${interpret}(e,t,r,n){let i=e.args.map(`;
  const templateCase = `case"templateSql":return(e.chunkable?`;
  const start = source.indexOf(head);
  const at = source.indexOf(templateCase, start);
  const renderer = `function ${render}(e,t,r,n){let i="",o={placeholderNumber:1}`;
  if (start < 0 || at < 0 || at - start > 200 || !source.includes(renderer) || !source.includes(`throw new ${error}(${limitError})`)) {
    throw new Error(`scripts/patch-prisma-runtime.mjs: the SQL interpreter of @prisma/client/${file} is not where it was; redo or drop the patch`);
  }
  // `i` holds this execution's values, `n` the driver's limit of parameters per statement.
  const remembered =
    `case"templateSql":{let c=${marker}.get(e);` +
    `if(c===void 0){c=__lecternIsPlain(e)?${render}(e.fragments,e.placeholderFormat,i,e.argTypes):null;c&&(c={sql:c.sql,argTypes:c.argTypes});${marker}.set(e,c)}` +
    `if(c!==null){if(n!==void 0&&i.length>n)throw new ${error}(${limitError});return[{sql:c.sql,args:i,argTypes:c.argTypes}]}}`;
  // A template renders the same whatever its values when every fragment is text or one scalar parameter, one per value.
  const helpers =
    `var ${marker}=new WeakMap();function __lecternIsPlain(e){let p=0;for(let f of e.fragments){if(f.type==="parameter")p++;else if(f.type!=="stringChunk")return!1}` +
    `return p===e.args.length&&Array.isArray(e.argTypes)&&e.argTypes.length===p&&e.argTypes.every(a=>a?.arity==="scalar")}`;
  return source.slice(0, start) + helpers + source.slice(start, at) + remembered + source.slice(at + 'case"templateSql":'.length);
}

/** Change 2: a PrismaPromise's `spec` a plain property rather than a getter. */
function plainPromiseSpec(source, { file }) {
  const getter = 'return{get spec(){return n},then(s,a){return o().then(s,a)}';
  const plain = 'return{spec:n,then(s,a){return o().then(s,a)}';
  if (source.includes(plain)) return source;
  if (source.split(getter).length !== 2) {
    throw new Error(`scripts/patch-prisma-runtime.mjs: the PrismaPromise of @prisma/client/${file} is not what it was; redo or drop the patch`);
  }
  return source.replace(getter, plain);
}

for (const build of builds) {
  const path = join(packageDir, build.file);
  const source = readFileSync(path, 'utf8');
  const patched = plainPromiseSpec(rememberRenderedSql(source, build), build);
  if (patched !== source) writeFileSync(path, patched);
}
console.log(`Prisma runtime: SQL of plain templates rendered once per plan, PrismaPromise.spec a plain property (@prisma/client ${version})`);
