import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';

const usage = `Usage: lectern <command> [options]

Commands:
  migrate                                  apply pending migrations and exit
  seed-demo                                create a demo district and print its credentials (both APIs)
  create-api-client --user <id> [--name n] issue OAuth consumer credentials acting as a user
  create-access-token --user <id> [--name n] [--days d]
                                           issue a bearer token for GraphQL front ends
  webhooks listen [--port n] [--secret whsec_...]
                                           receive webhooks on 127.0.0.1 (port 4001 by default), check their
                                           signatures with the target's secret and print each event
  webhooks send-sample --target <id> --trigger <name> [--operation op]
                                           send a target a sample event of a trigger, signed as deliveries
                                           are, and print the receiver's status and latency
  backup <file> [--force]                  write the embedded database, uploaded files and server key into a zip
                                           (the server must be stopped; --force replaces an existing file)
  restore <file> [--force]                 restore such a zip into DATA_DIR (an empty folder, or --force to replace
                                           its database, files and key)
  check-key                                check that the server key decrypts every secret the database holds

The database comes from the environment, as for the server (DATABASE_URL, or the embedded one in DATA_DIR).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      user: { type: 'string' },
      name: { type: 'string' },
      days: { type: 'string' },
      port: { type: 'string' },
      secret: { type: 'string' },
      target: { type: 'string' },
      trigger: { type: 'string' },
      operation: { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  // Unknown options and options without their value: a message and the usage, not a stack trace.
  fail(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
}
const { positionals, values } = parsed;
const [command, subcommand] = positionals;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!command) fail(usage);
const known = [
  'migrate',
  'seed-demo',
  'create-api-client',
  'create-access-token',
  'webhooks listen',
  'webhooks send-sample',
  'backup',
  'restore',
  'check-key',
];
const named = command === 'webhooks' ? `${command} ${subcommand ?? ''}`.trim() : command;
if (!known.includes(named)) fail(`Unknown command: ${named}\n\n${usage}`);

// The receiver needs neither the configuration nor the database, so it runs beside a server on the same data folder.
if (named === 'webhooks listen') {
  const port = values.port === undefined ? 4001 : Number(values.port);
  if (values.port !== undefined && !(/^\d+$/.test(values.port) && port <= 65_535))
    fail('--port must be a port number (0 picks a free one)');
  // Also from the environment, so that the secret need not show in the process list.
  const secret = values.secret ?? process.env.LECTERN_WEBHOOK_SECRET ?? null;
  const { isSigningSecret, startWebhookListener } = await import('./webhooks/listen');
  if (secret !== null && !isSigningSecret(secret))
    fail('--secret must be a signing secret as the target shows it (whsec_ and base64)');
  const listener = await startWebhookListener({
    host: '127.0.0.1',
    port,
    secret,
    print: (line) => console.log(line),
  }).catch((error: Error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));
  const { port: bound } = listener.server.address() as { port: number };
  const checked = secret ? 'signatures checked' : 'signatures NOT checked: give --secret';
  console.log(`Listening for webhooks on http://127.0.0.1:${bound}/ (${checked}); Ctrl-C stops.`);
  await new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, resolve);
  });
  await listener.close();
  console.log('Stopped.');
  process.exit(0);
}

// Arguments are checked before the database is opened (and migrated): a typo should fail fast and change nothing.
const needsUser = command === 'create-api-client' || command === 'create-access-token';
const userId = needsUser ? Number(values.user) : 0;
if (needsUser && !(values.user && /^\d+$/.test(values.user) && userId >= 1 && userId <= 2_147_483_647)) {
  fail('--user <id> is required and must be a numeric user id');
}
const days = command === 'create-access-token' && values.days !== undefined ? Number(values.days) : null;
if (days !== null && !(/^\d+$/.test(values.days!) && days > 0 && days <= 36_500))
  fail('--days must be a positive whole number of days (at most 36500)');
const targetId = named === 'webhooks send-sample' ? Number(values.target) : 0;
if (named === 'webhooks send-sample') {
  if (!(values.target && /^\d+$/.test(values.target) && targetId >= 1 && targetId <= 2_147_483_647))
    fail('--target <id> is required and must be a numeric target id');
  if (!values.trigger) fail('--trigger <name> is required (the triggers GraphQL lists)');
}

const archive = command === 'backup' || command === 'restore' ? subcommand : undefined;
if ((command === 'backup' || command === 'restore') && !archive) fail(`${command} <file> needs the archive's path`);

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

// Backup and restore handle the data folder itself rather than a booted database: a backup copies the database as it
// is (without migrating it), and a restore fills a folder no server has opened yet.
if (command === 'backup' || command === 'restore') {
  const [{ BackupError, createBackup, restoreBackup }, { DataDirInUseError }] = await Promise.all([
    import('./ops/backup'),
    import('./db/data-dir-lock'),
  ]);
  try {
    const options = { force: values.force ?? false };
    if (command === 'backup') {
      const manifest = await createBackup(config, archive!, options);
      const key = manifest.serverKey === 'included' ? 'the server key' : 'not SECRET_KEY: keep it apart';
      const files = manifest.files.bucket
        ? `not the uploaded files (they are in ${manifest.files.bucket}: back up the bucket)`
        : `${manifest.files.count} uploaded files (${manifest.files.bytes} bytes)`;
      console.log(
        `Backed up the embedded database (migration ${manifest.migration ?? 'none'}), ${files} and ${key} to ${archive}.`,
      );
    } else {
      const restored = await restoreBackup(config, archive!, options);
      console.log(
        `Restored the backup of ${restored.createdAt} (Lectern ${restored.lecternVersion}, migration ` +
          `${restored.migration ?? 'none'}, ${restored.files.count} uploaded files) into ${config.dataDir}; the server ` +
          `key decrypts its ${restored.secretsChecked} stored secrets. Start the server on it; it applies any newer migrations.`,
      );
    }
  } catch (error) {
    if (!(error instanceof BackupError || error instanceof DataDirInUseError)) throw error;
    fail(error.message);
  }
  process.exit(0);
}
// Loaded only now, so that usage and argument errors answer at once rather than after loading Prisma and PGlite.
const [
  { boot },
  { DataDirInUseError },
  { baseUrlForPeople, demoCredentialsText, seedDemo },
  { NotFoundError, ValidationError },
  { createLogger },
  { issueAccessToken, issueApiClient },
  { UnknownTriggerError },
  { useWebhookAddressPolicy },
  { findSampleTarget, sendSampleEvent },
  { checkServerKey },
] = await Promise.all([
  import('./ops/boot'),
  import('./db/data-dir-lock'),
  import('./ops/demo'),
  import('./core/errors'),
  import('./http/logging'),
  import('./modules/access/access.service'),
  import('./webhooks/triggers'),
  import('./webhooks/address'),
  import('./webhooks/sample'),
  import('./ops/server-key-check'),
]);
// The CLI talks to a person: keep logs to warnings so its own output stands out.
const logger = createLogger({ logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
const { database, serverKey } = await boot(config, logger).catch((error) => {
  if (error instanceof DataDirInUseError) fail(error.message);
  throw error;
});
try {
  switch (named) {
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
      console.log(
        `bearer token: ${token.token}${token.expiresAt ? ` (expires ${token.expiresAt.toISOString()})` : ''}`,
      );
      break;
    }
    case 'check-key': {
      const { checked, failing } = await checkServerKey(serverKey);
      const source = config.secretKey ? 'SECRET_KEY' : `The server key in ${config.dataDir}`;
      if (failing.length === 0) {
        console.log(`${source} decrypts all ${checked} secrets the database holds.`);
      } else {
        console.error(
          `${source} does not decrypt ${failing.length} of the ${checked} secrets the database holds ` +
            `(${failing.slice(0, 5).join(', ')}${failing.length > 5 ? ', …' : ''}): it is not the key they were ` +
            'sealed with, so those API clients cannot sign requests and those webhooks cannot be signed.',
        );
        process.exitCode = 1;
      }
      break;
    }
    case 'webhooks send-sample': {
      // The same guard as the server's deliveries (WEBHOOK_ALLOW_HOSTS, WEBHOOK_ALLOW_HTTP).
      useWebhookAddressPolicy(config.webhooks);
      const sample = await sendSampleEvent(
        await findSampleTarget(targetId),
        { trigger: values.trigger!, operation: values.operation, actorId: null },
        serverKey,
      );
      const sent = `POST ${sample.url} ${sample.type} (webhook-id ${sample.webhookId})`;
      if (sample.statusCode === null) {
        console.log(`${sent}: no answer after ${sample.latencyMs} ms: ${sample.error}`);
        process.exitCode = 1;
      } else {
        console.log(
          `${sent}: ${sample.statusCode} in ${sample.latencyMs} ms${sample.responseBody ? `\n${sample.responseBody}` : ''}`,
        );
        // Scripts can tell a receiver that refused the sample, as a delivery would be retried.
        if (sample.statusCode < 200 || sample.statusCode >= 300) process.exitCode = 1;
      }
      break;
    }
  }
} catch (error) {
  if (!(error instanceof NotFoundError || error instanceof UnknownTriggerError || error instanceof ValidationError))
    throw error;
  // Not process.exit here: the finally block must close the database, or PGlite is left open mid-write.
  console.error(error.message);
  process.exitCode = 2;
} finally {
  await database.close();
}
