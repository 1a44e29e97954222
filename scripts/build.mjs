// Compiles the server and the command-line tool, dist/src/main.mjs and dist/src/cli.mjs (with their source maps):
// `npm start` and the Docker image run the first, bin/lectern.mjs the second. Against tsx, the server starts in about
// 60% of the time and holds about 70 MiB less (docs/performance.md). Packages stay imports of node_modules. What the two
// share, and what the CLI imports only for some commands, goes in chunks beside them (`chunk-<hash>.mjs`), so that a
// light command (`--help`, `webhooks listen`) loads only its own code. Every file sits two folders deep, as src/db/*.ts
// do, so the paths they resolve from their own location (prisma/migrations) hold in them too.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const result = await build({
  absWorkingDir: projectRoot,
  entryPoints: ['src/main.ts', 'src/cli.ts'],
  outdir: 'dist/src',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  write: false,
  logLevel: 'warning',
});

// Written beside the old files and renamed over them, chunks before the entry points that import them, so that a
// process starting meanwhile reads whole files of one build. Chunks of earlier builds go once nothing new refers to them.
const isChunk = (path) => basename(path).startsWith('chunk-');
const files = [...result.outputFiles].sort((a, b) => Number(isChunk(b.path)) - Number(isChunk(a.path)));
for (const file of files) {
  mkdirSync(dirname(file.path), { recursive: true });
  const partial = `${file.path}.${process.pid}.tmp`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
const outdir = join(projectRoot, 'dist/src');
const current = new Set(files.map((file) => file.path));
for (const name of readdirSync(outdir)) {
  if (isChunk(name) && !current.has(join(outdir, name))) rmSync(join(outdir, name), { force: true });
}

// GraphiQL's assets, minified and compressed once here rather than by a server as it starts (src/http/graphiql.ts).
const { tsImport } = await import('tsx/esm/api');
const { buildGraphiQLAssets } = await tsImport('../src/http/graphiql.ts', import.meta.url);
await buildGraphiQLAssets();
