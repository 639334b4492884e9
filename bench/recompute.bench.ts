/**
 * Recompute: one reading's path in-process, 10 stations × 14 days of one-minute history: the
 * history books the reading (StationHistory.ingest), assembles the calculation input with its rain
 * and temperature windows (StationHistory.assemble) and the core calculates (calculate()), with a
 * prune every simulated 10 minutes, at a station's pace (one reading per 16 s per station).
 * Reports CPU per reading. With BENCH_BASELINE_ROOT (a built checkout of an older version: its
 * dist/), the older history and core run the same readings in interleaved rounds in the same
 * process, and every assembly and answer of the first round is compared between the two.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { calculate } from '../src/core/index.js';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type TimedReading } from '../src/history/stationHistory.js';
import type { BucketRow } from '../src/history/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../src/history/windows.js';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { seededRandom } from './lib/inputs.js';
import { atMost, measured, type Figure } from './lib/report.js';
import { median, ratio, round } from './lib/stats.js';

const STATION_COUNT = 10;
const STATION_PACE_MS = 16_000;
const PRUNE_EVERY_MS = 10 * MINUTE_MS;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
// 2026-05-14 10:00 UTC: a mowing-season instant, so every check runs.
const START_MS = Date.UTC(2026, 4, 14, 10, 0, 0);

interface Build {
  History: typeof StationHistory;
  calculate: typeof calculate;
}

interface Station {
  id: string;
  history: StationHistory;
  counterMm: number;
}

/** 14 days of minutes as a Pi holds them (bench/lib/seedHistory.ts's shape), ending before `endMs`. */
function seedBuckets(endMs: number, seed: number): BucketRow[] {
  const random = seededRandom(seed);
  const lastMinute = Math.floor(endMs / MINUTE_MS) - 1;
  const rows: BucketRow[] = [];
  for (let minute = lastMinute - RETENTION_MINUTES + 1; minute <= lastMinute; minute++) {
    rows.push({ minute, rainMm: random() < 0.02 ? 0.3 : 0, rainObserved: true, tempMinC: Math.round((5 + random() * 20) * 10) / 10 });
  }
  return rows;
}

function stations(build: Build): Station[] {
  return Array.from({ length: STATION_COUNT }, (_, i) => ({
    id: `station-${i}`,
    history: new build.History(DEFAULT_HISTORY_OPTIONS, {
      buckets: seedBuckets(START_MS, 14 + i),
      counters: [{ key: `rain/${i}`, totalMm: 123.4, atMs: START_MS - 16_000 }],
    }),
    counterMm: 123.4,
  }));
}

/** The n-th reading of the run: station n mod 10, at its pace; rain on the counter now and then. */
function nextReading(station: Station, n: number, random: () => number): TimedReading {
  const timeMs = START_MS + Math.floor(n / STATION_COUNT) * STATION_PACE_MS + (n % STATION_COUNT) * 1000;
  if (random() < 0.05) station.counterMm = Math.round((station.counterMm + 0.3) * 10) / 10;
  const values = {
    temperature: Math.round((12 + 6 * random()) * 10) / 10,
    humidity: Math.round(60 + 30 * random()),
    wind_speed: Math.round(random() * 60) / 10,
  };
  return {
    values,
    rainCounters: [{ key: `rain/${n % STATION_COUNT}`, totalMm: station.counterMm }],
    fingerprint: `${n}`,
    dropped: [],
    timeMs,
  };
}

/** One reading's path: book, assemble, calculate. Returns what the comparison needs. */
function oneReading(build: Build, station: Station, reading: TimedReading): string {
  station.history.ingest(reading, reading.timeMs);
  const assembly = station.history.assemble(reading.timeMs);
  const outcome = build.calculate(assembly.input, { nowMs: reading.timeMs, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: {} });
  return `${JSON.stringify(assembly)}${JSON.stringify(outcome)}`;
}

interface Round {
  cpuMicrosPerReading: number;
  answers: string[];
}

/** `count` readings over fresh stations; keeps the answers when asked (the comparison round). */
function runRound(build: Build, count: number, keepAnswers: boolean): Round {
  const all = stations(build);
  const random = seededRandom(2026);
  const answers: string[] = [];
  let lastPruneMs = START_MS;
  const cpuStart = process.cpuUsage();
  for (let n = 0; n < count; n++) {
    const station = all[n % STATION_COUNT]!;
    const reading = nextReading(station, n, random);
    const answer = oneReading(build, station, reading);
    if (keepAnswers) answers.push(answer);
    if (reading.timeMs - lastPruneMs >= PRUNE_EVERY_MS) {
      for (const s of all) s.history.prune(reading.timeMs);
      lastPruneMs = reading.timeMs;
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  return { cpuMicrosPerReading: (cpu.user + cpu.system) / count, answers };
}

async function loadBaseline(): Promise<Build | undefined> {
  if (!BASELINE_ROOT) return undefined;
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(BASELINE_ROOT, 'dist', path)).href)) as T;
  const history = await load<{ StationHistory: typeof StationHistory }>('history/stationHistory.js');
  const core = await load<{ calculate: typeof calculate }>('core/index.js');
  return { History: history.StationHistory, calculate: core.calculate };
}

export const recomputeBenchmark: Benchmark = {
  name: 'recompute',
  title: 'Recompute in-process: one reading through history and core (10 stations × 14 days)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const current: Build = { History: StationHistory, calculate };
    const baseline = await loadBaseline();
    // A simulated hour and a bit per round: the history's windows move past their edges many times.
    const count = context.quick ? 1_500 : 6_000;
    const rounds: Round[] = [];
    const baseRounds: Round[] = [];
    const first = runRound(current, count, baseline !== undefined);
    const baseFirst = baseline ? runRound(baseline, count, true) : undefined;
    const differing = baseFirst ? first.answers.filter((answer, i) => answer !== baseFirst.answers[i]).length : null;
    for (let i = 0; i < (context.quick ? 3 : 5); i++) {
      rounds.push(runRound(current, count, false));
      if (baseline) baseRounds.push(runRound(baseline, count, false));
    }
    const cpuMicros = median(rounds.map((r) => r.cpuMicrosPerReading));
    const figures: Figure[] = [
      measured(
        'recompute.cpuMicrosPerReading',
        'CPU per reading (ingest + assemble + calculate)',
        cpuMicros,
        'µs',
        atMost(1000),
        `rounds ${rounds.map((r) => r.cpuMicrosPerReading.toFixed(0)).join('/')} µs; ${count} readings per round`,
      ),
    ];
    if (baseline) {
      const baseMicros = median(baseRounds.map((r) => r.cpuMicrosPerReading));
      figures.push(
        measured(
          'recompute.vsBaseline',
          'baseline CPU per reading / CPU per reading',
          ratio(baseMicros, cpuMicros),
          'x',
          undefined,
          `baseline ${baseMicros.toFixed(0)} µs (rounds ${baseRounds.map((r) => r.cpuMicrosPerReading.toFixed(0)).join('/')}); ${BASELINE_ROOT}`,
        ),
        measured(
          'recompute.baselineDifferences',
          'readings answered differently from the baseline',
          differing ?? 0,
          'readings',
          atMost(0),
          `assembly and calculate() answer compared as JSON, ${count} readings`,
        ),
      );
    }
    return {
      figures,
      details: {
        count,
        rounds: rounds.map((r) => round(r.cpuMicrosPerReading, 1)),
        baseRounds: baseRounds.map((r) => round(r.cpuMicrosPerReading, 1)),
        baseline: BASELINE_ROOT ?? null,
      },
    };
  },
};
