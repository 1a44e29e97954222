/**
 * Webhook delivery numbers on this machine, with the worker, a local receiver and PostgreSQL all here:
 *
 * 1. throughput: EVENTS committed events fanned out to TARGETS subscribed targets and sent; prints deliveries/s;
 * 2. latency: events committed at RATE per second for SECONDS seconds while the worker runs; prints the time from
 *    each commit until the receiver has the event object (p50, p99, max).
 *
 *   npm run bench:webhooks -- [--events 5000] [--targets 8] [--rate 500] [--seconds 5]
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres); a temporary
 * database is created on it and dropped.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/database';
import { recordEvent, writeTransaction } from '../src/outbox/record';
import { useWebhookAddressPolicy } from '../src/webhooks/address';
import { createWebhookWorker } from '../src/webhooks/worker';
import '../src/graphql/schema';
import { groupEvents } from '../src/modules/groups/group.service';
import { encryptSecret } from '../src/auth/secrets';
import { newSigningSecret } from '../src/webhooks/signing';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    targets: { type: 'string', default: '8' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '5' },
  },
});
const [events, targets, rate, seconds] = [values.events, values.targets, values.rate, values.seconds].map(Number) as [
  number,
  number,
  number,
  number,
];

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `lectern_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;

const arrivals = new Map<string, number>();
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.set(`${request.url}:${request.headers['webhook-id']}`, performance.now());
    response.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const port = (receiver.address() as AddressInfo).port;
useWebhookAddressPolicy({ allowHosts: new Set(['127.0.0.1']), allowHttp: true });

const database = await openDatabase({ databaseUrl: url.href, dataDir: 'memory://' });
try {
  await database.migrate();
  const prisma = database.prisma;
  const serverKey = randomBytes(32);
  const district = await prisma.district.create({ data: { title: 'Bench district' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench school' } });
  const group = await prisma.group.create({
    data: { schoolId: school.id, title: 'Bench group', accessCode: 'BENCH-CODE1' },
  });
  for (let index = 0; index < targets; index++) {
    await prisma.triggerTarget.create({
      data: {
        schoolId: school.id,
        url: `http://127.0.0.1:${port}/t${index}`,
        secret: encryptSecret(newSigningSecret(), serverKey),
        subscriptions: { create: { trigger: 'group' } },
      },
    });
  }
  const scope = { districtId: district.id, schoolId: school.id };
  const worker = createWebhookWorker({ serverKey, linkBase: 'http://127.0.0.1', idleMs: 2 });

  // 1. Throughput: the events are committed first, then the worker drains them.
  const realm = { type: 'GROUP' as const, id: group.id };
  for (let done = 0; done < events; done += 500) {
    await writeTransaction(async (tx) => {
      for (let index = done; index < Math.min(events, done + 500); index++) {
        await recordEvent(tx, groupEvents.update, { realm, objectId: group.id, actorId: null, scope });
      }
    });
  }
  const started = performance.now();
  worker.start();
  while (arrivals.size < events * targets) await new Promise((resolve) => setTimeout(resolve, 5));
  const elapsed = (performance.now() - started) / 1000;
  await worker.stop();
  const sent = arrivals.size;
  console.log(
    `throughput: ${sent} deliveries (${events} events x ${targets} targets) in ${elapsed.toFixed(2)} s: ${Math.round(sent / elapsed)} deliveries/s`,
  );

  // 2. Latency: commits at a steady rate while the worker runs.
  arrivals.clear();
  const committed = new Map<string, number>();
  worker.start();
  const total = rate * seconds;
  const begin = performance.now();
  for (let index = 0; index < total; index++) {
    const due = begin + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await writeTransaction((tx) =>
      recordEvent(tx, groupEvents.update, { realm, objectId: group.id, actorId: null, scope }),
    );
    const at = performance.now();
    const last = await prisma.domainEvent.findFirstOrThrow({ orderBy: { id: 'desc' }, select: { id: true } });
    committed.set(`evt_${last.id}`, at);
  }
  const expected = committed.size * targets;
  while (arrivals.size < expected) await new Promise((resolve) => setTimeout(resolve, 20));
  await worker.stop();
  const latencies = [...arrivals]
    .map(([key, at]) => at - committed.get(key.slice(key.indexOf(':') + 1))!)
    .sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(
    `latency at ${rate} events/s x ${targets} targets for ${seconds} s (${latencies.length} deliveries): ` +
      `p50 ${percentile(50)} ms, p99 ${percentile(99)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
  );
} finally {
  await database.close();
  receiver.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
