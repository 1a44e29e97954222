/**
 * Prints the functions with the most self time in a V8 CPU profile (`node --cpu-prof`, or BENCH_CPU_PROF of
 * `npm run bench`), and how much of the time the thread was idle:
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [count]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name and place), in ms, and the profile's total, from the sampled stacks' leaves. */
export function selfTimes(profile: Profile): { total: number; entries: { name: string; ms: number }[] } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((nodeId, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const { functionName, url, lineNumber } = byNode.get(nodeId)!.callFrame;
    const place = url
      ? ` ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const name = `${functionName || '(anonymous)'}${place}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  });
  const entries = [...byFunction].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { total, entries };
}

/** The top `count` entries as printable lines, with their share of all samples. */
export function topLines(file: string, count = 20): string[] {
  const { total, entries } = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  return entries.slice(0, count).map((entry) => `${((entry.ms / total) * 100).toFixed(1).padStart(5)}%  ${entry.name}`);
}

if (process.argv[1]?.endsWith('profile-top.ts')) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [count]');
  console.log(topLines(file, Number(count ?? 20)).join('\n'));
}
