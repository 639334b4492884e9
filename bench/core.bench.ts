/**
 * Core: in-process calculate() on realistic inputs: CPU time per call (the goal) and calls per
 * second, compared with the HTTP calculate route's req/s measured earlier in the same run. With
 * BENCH_BASELINE_ROOT (a built checkout of an older version: its dist/core/index.js; several
 * separated by commas) each older calculate() runs in interleaved rounds in the same process, and
 * the ratios are printed; the answers are first compared byte for byte over the inputs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { calculate, type RawInput } from '../src/core/index.js';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { realisticInputs } from './lib/inputs.js';
import { atLeast, atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { median, ratio, round } from './lib/stats.js';

type Calculate = typeof calculate;

// 2026-05-14 10:00 UTC: a mowing-season instant, so every check runs.
const BASE_NOW_MS = Date.UTC(2026, 4, 14, 10, 0, 0);
const BASELINE_ROOTS = (process.env.BENCH_BASELINE_ROOT ?? '')
  .split(',')
  .map((root) => root.trim())
  .filter((root) => root !== '');

interface Round {
  callsPerSecond: number;
  /** CPU time (user + system) per call, µs: steadier than wall time on a shared machine. */
  cpuMicros: number;
  okShare: number;
}

/** Calls calculate() over the inputs for about `durationMs`. */
function runFor(calculate: Calculate, inputs: readonly RawInput[], durationMs: number): Round {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let calls = 0;
  let ok = 0;
  let elapsed = 0;
  do {
    // check the clock every 256 calls: reading it costs more than a call to a cheap function
    for (let i = 0; i < 256; i++) {
      const input = inputs[(calls + i) % inputs.length] as RawInput;
      // A literal context, as the HTTP route and calculationContext() build it (a spread copy is slow to read in V8).
      const outcome = calculate(input, {
        timeZone: 'Europe/Berlin',
        hemisphere: 'north',
        nowMs: BASE_NOW_MS + ((calls + i) % 3600) * 1000,
      });
      if (outcome.ok) ok++;
    }
    calls += 256;
    elapsed = performance.now() - started;
  } while (elapsed < durationMs);
  const cpu = process.cpuUsage(cpuStart);
  return { callsPerSecond: (calls / elapsed) * 1000, cpuMicros: (cpu.user + cpu.system) / calls, okShare: ok / calls };
}

interface Baseline {
  root: string;
  calculate: Calculate;
  rounds: Round[];
}

async function loadBaselines(): Promise<Baseline[]> {
  const baselines: Baseline[] = [];
  for (const root of BASELINE_ROOTS) {
    const module = (await import(pathToFileURL(join(root, 'dist', 'core', 'index.js')).href)) as { calculate: Calculate };
    baselines.push({ root, calculate: module.calculate, rounds: [] });
  }
  return baselines;
}

/** Figures against one baseline; the first keeps the keys of a single-baseline run, the others are numbered. */
function baselineFigures(baseline: Baseline, index: number, cpuMicros: number, inputs: readonly RawInput[]): Figure[] {
  const suffix = index === 0 ? '' : String(index + 1);
  const baseMicros = median(baseline.rounds.map((r) => r.cpuMicros));
  return [
    measured(
      `core.vsBaseline${suffix}`,
      'baseline CPU per call / calculate() CPU per call',
      ratio(baseMicros, cpuMicros),
      'x',
      undefined,
      `baseline ${baseMicros.toFixed(1)} µs (rounds ${baseline.rounds.map((r) => r.cpuMicros.toFixed(1)).join('/')}); ${baseline.root}`,
    ),
    measured(
      `core.baselineDifferences${suffix}`,
      'inputs answered differently from the baseline',
      differences(calculate, baseline.calculate, inputs),
      'inputs',
      atMost(0),
      `3 instants per input, JSON compared; ${baseline.root}`,
    ),
  ];
}

/** Indexes of inputs whose answers differ between the two builds (a few instants each). */
function differences(current: Calculate, baseline: Calculate, inputs: readonly RawInput[]): number {
  let differing = 0;
  inputs.forEach((input, i) => {
    for (const offsetMs of [0, 1_234_567, 200 * 86_400_000]) {
      const context = { timeZone: 'Europe/Berlin', hemisphere: 'north' as const, nowMs: BASE_NOW_MS + offsetMs + i * 1000 };
      if (JSON.stringify(current(input, context)) !== JSON.stringify(baseline(input, context))) {
        differing++;
        return;
      }
    }
  });
  return differing;
}

export const coreBenchmark: Benchmark = {
  name: 'core',
  title: 'Core calculate() in-process',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const inputs = realisticInputs(1000);
    const roundMs = context.quick ? 1000 : 2000;
    const baselines = await loadBaselines();
    runFor(calculate, inputs, context.quick ? 500 : 1500); // warm-up: let V8 optimise
    for (const baseline of baselines) runFor(baseline.calculate, inputs, context.quick ? 500 : 1500);
    const rounds: Round[] = [];
    for (let i = 0; i < (baselines.length > 0 ? 5 : 3); i++) {
      rounds.push(runFor(calculate, inputs, roundMs));
      for (const baseline of baselines) baseline.rounds.push(runFor(baseline.calculate, inputs, roundMs));
    }
    const callsPerSecond = median(rounds.map((r) => r.callsPerSecond));
    const cpuMicros = median(rounds.map((r) => r.cpuMicros));
    const okShare = median(rounds.map((r) => r.okShare));
    const figures: Figure[] = [
      measured(
        'core.cpuMicrosPerCall',
        'calculate() CPU per call',
        cpuMicros,
        'µs',
        atMost(8),
        `rounds ${rounds.map((r) => r.cpuMicros.toFixed(1)).join('/')} µs`,
      ),
      measured(
        'core.callsPerSecond',
        'calculate() calls/s',
        callsPerSecond,
        'calls/s',
        undefined,
        `${Math.round(okShare * 100)} % of inputs ok; 1000 inputs`,
      ),
    ];
    baselines.forEach((baseline, i) => figures.push(...baselineFigures(baseline, i, cpuMicros, inputs)));
    const http = context.earlier.get('http')?.get('http.calculate.rps');
    const goal = atLeast(10);
    if (http?.value) {
      figures.push(
        measured(
          'core.vsHttp',
          'calculate() / HTTP calculate req/s',
          ratio(callsPerSecond, http.value),
          'x',
          goal,
          `HTTP calculate ${Math.round(http.value)} req/s`,
        ),
      );
    } else {
      const reason = http ? (http.note ?? 'HTTP calculate not measured') : 'needs the http benchmark in the same run';
      figures.push(notMeasured('core.vsHttp', 'calculate() / HTTP calculate req/s', 'x', reason, goal));
    }
    return {
      figures,
      details: {
        rounds: rounds.map((r) => ({ callsPerSecond: round(r.callsPerSecond, 0), cpuMicros: round(r.cpuMicros, 2), okShare: r.okShare })),
        roundMs,
        baseline: BASELINE_ROOTS.length > 0 ? BASELINE_ROOTS.join(',') : null,
      },
    };
  },
};
