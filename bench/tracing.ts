/**
 * What Prometheus metrics and OpenTelemetry traces cost on the hot path, in one run: four server processes of this
 * checkout on one PostgreSQL database (1,000 groups, as `npm run bench` seeds it) — both off, metrics on
 * (`METRICS_TOKEN`; nothing scrapes, as scraping every 15 s costs next to nothing), traces on with every trace sampled
 * (sampler 1.0) and with one in ten (0.1, `parentbased_traceidratio`), metrics off for both — loaded in turn with short loads whose order rotates every round, so that a
 * machine whose speed drifts slows all three alike. The two with traces export them over OTLP/HTTP (protobuf, the
 * SDK's default batch processor) to a sink in the bench's own process that reads each export and answers 200, as a
 * collector would. Prints, per target, the CPU ms per request of each server (from /proc), the median ratio of each
 * traced one to the untraced one over the rounds, req/s, and the spans' export traffic.
 *
 *   npm run bench:tracing                              # BENCH_DATABASE_URL as for `npm run bench`
 *   BENCH_TRACING_ROUNDS=6 BENCH_TRACING_SECONDS=3 BENCH_ONLY='object|create' npm run bench:tracing
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import {
  benchDatabase,
  cpuMs,
  createGroupBody,
  graphqlGroupsQuery,
  seedGroups,
  startServerProcess,
  stopProcesses,
} from './support';

const rounds = Number(process.env.BENCH_TRACING_ROUNDS ?? 4);
const seconds = Number(process.env.BENCH_TRACING_SECONDS ?? 3);
const only = process.env.BENCH_ONLY?.split('|');
const port = Number(process.env.BENCH_PORT ?? 4555);
// The untraced server must not inherit a configuration from the shell that runs the bench.
for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];

/** The OTLP sink: counts the exports and their bytes, and answers each with an empty (successful) response. */
const exported = { requests: 0, bytes: 0 };
const sink = createServer((request, response) => {
  request.on('data', (chunk: Buffer) => (exported.bytes += chunk.length));
  request.on('end', () => {
    exported.requests++;
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const traced = (ratio: string) => ({
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: ratio,
});
const variants = [
  { name: 'off', env: {} as Record<string, string>, port },
  { name: 'metrics', env: { METRICS_TOKEN: randomBytes(16).toString('hex') }, port: port + 1 },
  { name: 'sampler 1.0', env: traced('1.0'), port: port + 2 },
  { name: 'sampler 0.1', env: traced('0.1'), port: port + 3 },
];
const isTraced = (index: number) => 'OTEL_TRACES_EXPORTER' in variants[index]!.env;

const database = benchDatabase();
const groups = 1000;
const secretKey = randomBytes(32).toString('hex');
const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
try {
  await database.create();
  const seeded = await seedGroups(database.url, secretKey, groups);
  for (const variant of variants) {
    servers.push(
      await startServerProcess({
        databaseUrl: database.url,
        port: variant.port,
        env: { SECRET_KEY: secretKey, ...variant.env },
      }),
    );
  }
  const targets = [
    {
      name: 'GraphQL list, Bearer',
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: graphqlGroupsQuery(0) }),
    },
    { name: 'GET /v1/groups list, Bearer', method: 'GET', path: '/v1/groups?start=0&limit=20' },
    // Each request another of the groups, at random, as clients ask.
    { name: 'GET /v1/groups/{id} object, Bearer', method: 'GET', path: '/v1/groups/500', anyGroup: true },
    {
      name: 'POST /v1/groups create, Bearer',
      method: 'POST',
      path: '/v1/groups',
      body: createGroupBody(seeded.schoolId),
    },
  ].filter((target) => !only || only.some((part) => target.name.includes(part)));

  type Target = (typeof targets)[number];
  async function load(index: number, target: Target, duration: number) {
    const headers = {
      accept: 'application/json',
      authorization: `Bearer ${seeded.token}`,
      ...(target.body ? { 'content-type': 'application/json' } : {}),
    };
    const before = await cpuMs(servers[index]!.pid!);
    const result = await autocannon({
      url: `http://127.0.0.1:${variants[index]!.port}`,
      connections: 10,
      duration,
      requests: [
        {
          method: target.method as 'GET' | 'POST',
          path: target.path,
          body: target.body,
          setupRequest: (request) => ({
            ...request,
            path: target.anyGroup ? `/v1/groups/${1 + randomInt(groups)}` : target.path,
            headers,
          }),
        },
      ],
    });
    if (result.non2xx || result.errors)
      throw new Error(`${variants[index]!.name}, ${target.name}: ${result.non2xx} not 2xx, ${result.errors} errors`);
    return {
      cpu: ((await cpuMs(servers[index]!.pid!)) - before) / result.requests.total,
      rps: result.requests.average,
    };
  }

  // Warm-up: JIT, pools, caches.
  for (const target of targets) for (const index of variants.keys()) await load(index, target, 2);
  const exportedBefore = { ...exported };
  const runs = targets.map(() => variants.map(() => [] as { cpu: number; rps: number }[]));
  let tracedRequests = 0;
  for (let round = 0; round < rounds; round++) {
    const order = [...variants.keys()].map((_, shift) => (shift + round) % variants.length);
    for (const [t, target] of targets.entries()) {
      for (const index of order) {
        const run = await load(index, target, seconds);
        runs[t]![index]!.push(run);
        if (isTraced(index)) tracedRequests += run.rps * seconds;
      }
    }
  }

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `${rounds} rounds of ${seconds} s per target and server, 10 connections; CPU ms/req of the server process`,
  );
  console.log(
    `${'target'.padEnd(36)} ${variants.map((v) => `${v.name} CPU`.padStart(16)).join('')} ${variants
      .slice(1)
      .map((v) => `${v.name} ×`.padStart(14))
      .join('')} ${variants.map((v) => `${v.name} req/s`.padStart(18)).join('')}`,
  );
  for (const [t, target] of targets.entries()) {
    const [off, ...on] = runs[t]!;
    console.log(
      `${target.name.padEnd(36)} ${runs[t]!.map((r) =>
        mean(r.map((run) => run.cpu))
          .toFixed(3)
          .padStart(16),
      ).join('')} ` +
        `${on
          .map((r) =>
            median(r.map((run, round) => run.cpu / off![round]!.cpu))
              .toFixed(3)
              .padStart(14),
          )
          .join('')} ` +
        `${runs[t]!.map((r) =>
          mean(r.map((run) => run.rps))
            .toFixed(0)
            .padStart(18),
        ).join('')}`,
    );
  }
  // Let the batch processors send what they hold (every 5 s by default) before reading the sink's totals.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const exports = exported.requests - exportedBefore.requests;
  const kib = (exported.bytes - exportedBefore.bytes) / 1024;
  console.log(
    `OTLP exports received while measuring: ${exports} requests, ${kib.toFixed(0)} KiB (${((kib * 1024) / tracedRequests).toFixed(0)} bytes per request the two traced servers served)`,
  );
} finally {
  await stopProcesses(servers);
  await database.drop();
  sink.close();
}
