/**
 * `npm run bench [-- --quick] [name …]`: runs the benchmarks (all, or the
 * named ones) in a fixed order, prints one table per benchmark and writes
 * each result plus a combined file to bench/results/.
 */
import { join } from 'node:path';
import { accessLinesBenchmark } from './accessLines.bench.js';
import { coreBenchmark } from './core.bench.js';
import { householdBenchmark } from './household.bench.js';
import { httpBenchmark } from './http.bench.js';
import { parseArgs } from './lib/args.js';
import { memoryBenchmark } from './memory.bench.js';
import { memoryStartBenchmark } from './memoryStart.bench.js';
import { mqttBenchmark } from './mqtt.bench.js';
import { multiInstanceBenchmark } from './multiInstance.bench.js';
import { reconnectBenchmark } from './reconnect.bench.js';
import { slowSubscriberBenchmark } from './slowSubscriber.bench.js';
import { readingPathBenchmark } from './readingPath.bench.js';
import { readingFloorBenchmark } from './readingFloor.bench.js';
import { recomputeBenchmark } from './recompute.bench.js';
import { forecastBenchmark } from './forecast.bench.js';
import { startupBenchmark } from './startup.bench.js';
import { writesBenchmark } from './writes.bench.js';
import { storageBenchmark } from './storage.bench.js';
import type { Benchmark, BenchContext } from './lib/benchmark.js';
import { machineInfo, renderTable, resultsPath, writeJson, type BenchResult, type Figure } from './lib/report.js';

const repoRoot = join(import.meta.dirname, '..', '..');

// Order matters: core compares itself with the HTTP figures measured before it.
const BENCHMARKS: readonly Benchmark[] = [
  httpBenchmark,
  accessLinesBenchmark,
  coreBenchmark,
  recomputeBenchmark,
  readingPathBenchmark,
  readingFloorBenchmark,
  forecastBenchmark,
  mqttBenchmark,
  writesBenchmark,
  storageBenchmark,
  memoryBenchmark,
  memoryStartBenchmark,
  reconnectBenchmark,
  slowSubscriberBenchmark,
  startupBenchmark,
  householdBenchmark,
  multiInstanceBenchmark,
];

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { resultsDir: join(repoRoot, 'bench', 'results') });
  const unknown = options.only.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  const selected = BENCHMARKS.filter((b) => options.only.length === 0 || options.only.includes(b.name));
  const startedAt = new Date();
  const context: BenchContext = {
    quick: options.quick,
    repoRoot,
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
    daemonNodeArgs: options.daemonNodeArgs,
    earlier: new Map(),
  };
  const machine = machineInfo();
  process.stdout.write(
    `# mowability benchmarks ${startedAt.toISOString()}${options.quick ? ' (quick)' : ''}\n` +
      `machine: ${machine.nproc} × ${machine.cpuModel}, ${machine.totalMemoryMb} MB, node ${machine.node} ${machine.arch}` +
      `${options.daemonNodeArgs.length > 0 ? `; daemon node flags: ${options.daemonNodeArgs.join(' ')}` : ''}\n\n`,
  );
  const results: BenchResult[] = [];
  for (const benchmark of selected) {
    context.log(`running ${benchmark.name}`);
    const started = performance.now();
    let result: BenchResult;
    try {
      const outcome = await benchmark.run(context);
      result = {
        name: benchmark.name,
        title: benchmark.title,
        figures: outcome.figures,
        details: outcome.details,
        durationMs: performance.now() - started,
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      context.log(`${benchmark.name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
      const figure: Figure = {
        id: `${benchmark.name}.error`,
        label: 'benchmark error',
        value: null,
        unit: '',
        goal: null,
        pass: false,
        note: message,
      };
      result = { name: benchmark.name, title: benchmark.title, figures: [figure], details: {}, durationMs: performance.now() - started };
    }
    context.earlier.set(benchmark.name, new Map(result.figures.map((f) => [f.id, f])));
    results.push(result);
    process.stdout.write(`${renderTable(result)}\n`);
    writeJson(resultsPath(options.resultsDir, benchmark.name, startedAt), { startedAt, quick: options.quick, machine, ...result });
  }
  const figures = results.flatMap((r) => r.figures);
  const summary = {
    pass: figures.filter((f) => f.pass === true).length,
    fail: figures.filter((f) => f.pass === false).length,
    notMeasured: figures.filter((f) => f.value === null && f.goal !== null).length,
  };
  const combined = {
    startedAt,
    finishedAt: new Date(),
    quick: options.quick,
    daemonNodeArgs: options.daemonNodeArgs,
    machine,
    summary,
    results,
  };
  writeJson(resultsPath(options.resultsDir, 'combined', startedAt), combined);
  writeJson(join(options.resultsDir, 'latest.json'), combined);
  process.stdout.write(
    `summary: ${summary.pass} PASS, ${summary.fail} FAIL, ${summary.notMeasured} not measured; JSON in ${options.resultsDir}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
