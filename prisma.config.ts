import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

// The Prisma CLI downloads its native schema engine before every command, which fails without internet. `generate`
// does not need it; pointing the CLI at a stub that exits 1 keeps generate working offline. Where the real engine is
// installed or downloadable, set PRISMA_SCHEMA_ENGINE_BINARY yourself or remove the stub.
const stub = fileURLToPath(new URL('./scripts/schema-engine-offline.mjs', import.meta.url));
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync(stub)) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/lectern' },
});
