// Compiles the server into one JavaScript file, dist/src/main.mjs (with its source map), which `npm start` and the
// Docker image run: it starts in about 60% of the time tsx takes and holds about 70 MiB less (docs/performance.md,
// eighth round). Packages stay imports of node_modules. The file sits two folders deep, as src/db/*.ts do, so the
// paths they resolve from their own location (prisma/migrations) hold in it too.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const result = await build({
  absWorkingDir: projectRoot,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/src/main.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  write: false,
  logLevel: 'warning',
});

// Written beside the old files and renamed over them, so that a server starting meanwhile reads a whole file.
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const partial = `${file.path}.${process.pid}.tmp`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
