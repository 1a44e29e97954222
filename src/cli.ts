import { parseArgs } from 'node:util';
import { boot } from './boot';
import { ConfigError, loadConfig } from './config';
import { seedDemo } from './demo';
import { createLogger } from './logging';
import { issueAccessToken, issueApiClient } from './modules/access/access.service';

const usage = `Usage: lectern <command> [options]

Commands:
  migrate                                  apply pending migrations and exit
  seed-demo                                create a demo district and print API credentials
  create-api-client --user <id> [--name n] issue OAuth consumer credentials acting as a user
  create-access-token --user <id> [--name n] [--days d]
                                           issue a bearer token for GraphQL front ends

The database comes from the environment, as for the server (DATABASE_URL, or the embedded one in DATA_DIR).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { user: { type: 'string' }, name: { type: 'string' }, days: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const [command] = positionals;
if (values.help || !command) {
  console.log(usage);
  process.exit(command ? 0 : 2);
}
if (!['migrate', 'seed-demo', 'create-api-client', 'create-access-token'].includes(command)) fail(`Unknown command: ${command}\n\n${usage}`);

const userId = () => {
  if (!values.user || !/^\d+$/.test(values.user)) fail('--user <id> is required and must be a numeric user id');
  return Number(values.user);
};

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
// The CLI talks to a person: keep logs to warnings so its own output stands out.
const logger = createLogger({ logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
const { database, serverKey } = await boot(config, logger);
try {
  switch (command) {
    case 'migrate':
      console.log('Database is up to date.');
      break;
    case 'seed-demo': {
      const { districtId, client } = await seedDemo(serverKey);
      console.log(`Demo district ${districtId} created. Its district administrator's API credentials:`);
      console.log(`  consumer key:    ${client.consumerKey}`);
      console.log(`  consumer secret: ${client.consumerSecret}`);
      console.log(`Try: GET /v1/users/me, /v1/groups, /v1/districts/${districtId}/posts (OAuth 1.0a, two-legged).`);
      break;
    }
    case 'create-api-client': {
      const client = await issueApiClient(serverKey, { userId: userId(), name: values.name });
      console.log(`consumer key:    ${client.consumerKey}`);
      console.log(`consumer secret: ${client.consumerSecret}`);
      break;
    }
    case 'create-access-token': {
      const days = values.days === undefined ? null : Number(values.days);
      if (days !== null && !(Number.isInteger(days) && days > 0)) fail('--days must be a positive whole number');
      const token = await issueAccessToken({ userId: userId(), name: values.name, expiresInDays: days });
      console.log(`bearer token: ${token.token}${token.expiresAt ? ` (expires ${token.expiresAt.toISOString()})` : ''}`);
      break;
    }
  }
} catch (error) {
  if (error instanceof Error && error.name === 'NotFoundError') fail(error.message);
  throw error;
} finally {
  await database.close();
}
