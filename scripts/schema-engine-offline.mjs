#!/usr/bin/env node
// Stands in for Prisma's native schema engine where it cannot be downloaded. Failing loudly matters: an engine
// that "succeeds" would make `prisma migrate deploy` report success while applying nothing.
console.error('schema engine not available offline: Lectern applies migrations itself (`npx lectern migrate`)');
process.exit(1);
