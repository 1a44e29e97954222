// `npm run migration:create -- <name>`: writes the next migration, the SQL that takes a database built by
// prisma/migrations to prisma/schema.prisma. Works offline, unlike `prisma migrate dev`, through the WebAssembly build
// of Prisma's schema engine with an in-memory PGlite shadow database.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultMigrationsDir, diffMigrationsToSchema } from '../src/db/schema-diff';

// Prisma's folder name: the UTC time as YYYYMMDDHHMMSS, then the name slugified with "_" and cut to 200 characters.
function migrationFolderName(name: string, now: Date): string {
  const timestamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([A-Z]+)([A-Z][a-z\d]+)/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z\d]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (!slug) throw new Error(`"${name}" has no letters or digits to name a migration with`);
  return `${timestamp}_${slug}`;
}

async function main(): Promise<number> {
  const name = process.argv.slice(2).join(' ').trim();
  if (!name) {
    console.error('usage: npm run migration:create -- <name>   (for example: add_group_codes)');
    return 1;
  }
  const folderName = migrationFolderName(name, new Date());
  const diff = await diffMigrationsToSchema();
  if (!diff.differs) {
    console.log('schema and migrations agree; nothing to write');
    return 0;
  }
  const folder = path.join(defaultMigrationsDir, folderName);
  await mkdir(folder); // fails if the folder exists rather than overwrite a migration
  const file = path.join(folder, 'migration.sql');
  await writeFile(file, diff.sql, 'utf8');
  console.log(path.relative(process.cwd(), file));
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
