#!/usr/bin/env node
// Runs the command-line tool from its bundle, dist/src/cli.mjs, compiled by scripts/build.mjs beside the server's. The
// bundle is built first when it is missing or older than any file under src/ or prisma/ (a build takes well under a
// second), so a command never runs stale code and needs no TypeScript compiler at run time.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(projectRoot, 'dist/src/cli.mjs');

function newestChange(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const sources = ['src', 'prisma'].map((folder) => newestChange(join(projectRoot, folder)));
if (!existsSync(bundle) || statSync(bundle).mtimeMs < Math.max(...sources)) await import('../scripts/build.mjs');
await import(pathToFileURL(bundle).href);
