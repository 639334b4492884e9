/**
 * `node dist-bench/bench/heapDiff.js BEFORE.heapsnapshot AFTER.heapsnapshot [--top N] [--retainers GROUP …]`
 *
 * Compares two V8 heap snapshots of the same process (e.g. the soak's at 10 and 60 minutes, taken with
 * `--heapsnapshot-signal=SIGUSR2`): the totals, then the groups (constructors; closures, arrays and native
 * objects by name; strings, numbers and code by type) whose self size and whose count grew most. With
 * `--retainers GROUP` it also lists, in both snapshots, what holds the nodes of that group (repeatable).
 *
 * Snapshots of a large heap are large JSON: give node room, e.g. `node --max-old-space-size=2048 …`.
 */
import { readFileSync } from 'node:fs';
import { report, retainersOf, summarise, type HeapSnapshotJson, type HeapSummary } from './lib/heapSnapshot.js';

interface Options {
  before: string;
  after: string;
  top: number;
  retainers: string[];
}

function parseOptions(argv: readonly string[]): Options {
  const files: string[] = [];
  let top = 25;
  const retainers: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--top') top = Number(argv[++i]);
    else if (arg === '--retainers') retainers.push(String(argv[++i]));
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 2)
    throw new Error('usage: node dist-bench/bench/heapDiff.js BEFORE.heapsnapshot AFTER.heapsnapshot [--top N] [--retainers GROUP …]');
  if (!Number.isInteger(top) || top <= 0) throw new Error('--top needs a positive whole number');
  return { before: files[0] as string, after: files[1] as string, top, retainers };
}

const load = (path: string): HeapSnapshotJson => JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotJson;

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  const snapshots = [load(options.before), load(options.after)];
  const [before, after] = snapshots.map(summarise) as [HeapSummary, HeapSummary];
  process.stdout.write(`${options.before} → ${options.after}\n\n${report(before, after, options.top)}\n`);
  for (const group of options.retainers) {
    for (const [label, snapshot] of [
      ['before', snapshots[0]],
      ['after', snapshots[1]],
    ] as const) {
      process.stdout.write(`\nWhat holds ${group} (${label}):\n`);
      for (const { retainer, count } of retainersOf(snapshot as HeapSnapshotJson, group, options.top))
        process.stdout.write(`  ${count}\t${retainer}\n`);
    }
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
