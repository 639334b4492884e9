/**
 * Core: in-process calculate() calls per second on realistic inputs, compared
 * with the HTTP calculate route's req/s measured earlier in the same run.
 */
import { calculate, type CalculationContext, type RawInput } from '../src/core/index.js';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { realisticInputs } from './lib/inputs.js';
import { atLeast, measured, notMeasured, type Figure } from './lib/report.js';
import { median, ratio, round } from './lib/stats.js';

type Calculate = typeof calculate;

const CONTEXT_BASE: Omit<CalculationContext, 'nowMs'> = { timeZone: 'Europe/Berlin', hemisphere: 'north' };
// 2026-05-14 10:00 UTC: a mowing-season instant, so every check runs.
const BASE_NOW_MS = Date.UTC(2026, 4, 14, 10, 0, 0);

/** Calls calculate() over the inputs for about `durationMs`; returns calls per second. */
function runFor(calculate: Calculate, inputs: readonly RawInput[], durationMs: number): { callsPerSecond: number; okShare: number } {
  const started = performance.now();
  let calls = 0;
  let ok = 0;
  let elapsed = 0;
  do {
    // check the clock every 256 calls: reading it costs more than a call to a cheap function
    for (let i = 0; i < 256; i++) {
      const input = inputs[(calls + i) % inputs.length] as RawInput;
      const outcome = calculate(input, { ...CONTEXT_BASE, nowMs: BASE_NOW_MS + ((calls + i) % 3600) * 1000 });
      if (outcome.ok) ok++;
    }
    calls += 256;
    elapsed = performance.now() - started;
  } while (elapsed < durationMs);
  return { callsPerSecond: (calls / elapsed) * 1000, okShare: ok / calls };
}

export const coreBenchmark: Benchmark = {
  name: 'core',
  title: 'Core calculate() in-process',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const goal = atLeast(10);
    const inputs = realisticInputs(1000);
    const roundMs = context.quick ? 1000 : 2000;
    runFor(calculate, inputs, context.quick ? 500 : 1500); // warm-up: let V8 optimise
    const rounds = [1, 2, 3].map(() => runFor(calculate, inputs, roundMs));
    const callsPerSecond = median(rounds.map((r) => r.callsPerSecond));
    const okShare = median(rounds.map((r) => r.okShare));
    const figures: Figure[] = [
      measured('core.callsPerSecond', 'calculate() calls/s', callsPerSecond, 'calls/s', undefined, `${Math.round(okShare * 100)} % of inputs ok; 1000 inputs`),
    ];
    const http = context.earlier.get('http')?.get('http.calculate.rps');
    if (http?.value) {
      figures.push(
        measured('core.vsHttp', 'calculate() / HTTP calculate req/s', ratio(callsPerSecond, http.value), 'x', goal, `HTTP calculate ${Math.round(http.value)} req/s`),
      );
    } else {
      const reason = http ? (http.note ?? 'HTTP calculate not measured') : 'needs the http benchmark in the same run';
      figures.push(notMeasured('core.vsHttp', 'calculate() / HTTP calculate req/s', 'x', reason, goal));
    }
    return { figures, details: { rounds: rounds.map((r) => ({ callsPerSecond: round(r.callsPerSecond, 0), okShare: r.okShare })), roundMs } };
  },
};
