import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';

const usage = `Usage: lectern <command> [options]

Commands:
  migrate                                  apply pending migrations and exit
  seed-demo                                create a demo district and print its credentials (both APIs)
  create-api-client --user <id> [--name n] issue OAuth consumer credentials acting as a user
  create-access-token --user <id> [--name n] [--days d]
                                           issue a bearer token for GraphQL front ends

The database comes from the environment, as for the server (DATABASE_URL, or the embedded one in DATA_DIR).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { user: { type: 'string' }, name: { type: 'string' }, days: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (error) {
  // Unknown options and options without their value: a message and the usage, not a stack trace.
  fail(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
}
const { positionals, values } = parsed;
const [command] = positionals;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!command) fail(usage);
if (!['migrate', 'seed-demo', 'create-api-client', 'create-access-token'].includes(command)) fail(`Unknown command: ${command}\n\n${usage}`);

// Arguments are checked before the database is opened (and migrated): a typo should fail fast and change nothing.
const needsUser = command === 'create-api-client' || command === 'create-access-token';
const userId = needsUser ? Number(values.user) : 0;
if (needsUser && !(values.user && /^\d+$/.test(values.user) && userId >= 1 && userId <= 2_147_483_647)) {
  fail('--user <id> is required and must be a numeric user id');
}
const days = command === 'create-access-token' && values.days !== undefined ? Number(values.days) : null;
if (days !== null && !(/^\d+$/.test(values.days!) && days > 0 && days <= 36_500)) fail('--days must be a positive whole number of days (at most 36500)');

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
// Loaded only now, so that usage and argument errors answer at once rather than after loading Prisma and PGlite.
const [{ boot }, { DataDirInUseError }, { baseUrlForPeople, demoCredentialsText, seedDemo }, { NotFoundError }, { createLogger }, { issueAccessToken, issueApiClient }] = await Promise.all([
  import('./boot'),
  import('./db/data-dir-lock'),
  import('./demo'),
  import('./core/errors'),
  import('./logging'),
  import('./modules/access/access.service'),
]);
// The CLI talks to a person: keep logs to warnings so its own output stands out.
const logger = createLogger({ logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
const { database, serverKey } = await boot(config, logger).catch((error) => {
  if (error instanceof DataDirInUseError) fail(error.message);
  throw error;
});
try {
  switch (command) {
    case 'migrate':
      console.log('Database is up to date.');
      break;
    case 'seed-demo': {
      const demo = await seedDemo(serverKey);
      console.log(demoCredentialsText(demo, baseUrlForPeople(config, config.port)));
      break;
    }
    case 'create-api-client': {
      const client = await issueApiClient(serverKey, { userId, name: values.name });
      console.log(`consumer key:    ${client.consumerKey}`);
      console.log(`consumer secret: ${client.consumerSecret}`);
      break;
    }
    case 'create-access-token': {
      const token = await issueAccessToken({ userId, name: values.name, expiresInDays: days });
      console.log(`bearer token: ${token.token}${token.expiresAt ? ` (expires ${token.expiresAt.toISOString()})` : ''}`);
      break;
    }
  }
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  // Not process.exit here: the finally block must close the database, or PGlite is left open mid-write.
  console.error(error.message);
  process.exitCode = 2;
} finally {
  await database.close();
}
