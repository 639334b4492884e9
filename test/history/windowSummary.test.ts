/**
 * The incremental window summary against a full scan of every minute (the scan it replaced, kept
 * here as the model; it sums rain in micro-millimetres like the summary): equal for random
 * sequences of booked minutes, gaps, out-of-order and future minutes, prunes, clock steps (scans
 * at earlier and later minutes) and restarts (a summary rebuilt from the stored rows).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectForecast, type ForecastHour } from '../../src/core/forecastProjection.js';
import { MinuteColumns } from '../../src/history/minuteColumns.js';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type TimedReading } from '../../src/history/stationHistory.js';
import type { BucketRow } from '../../src/history/types.js';
import { MICRO_MM, WindowSummary, type WindowScan, type WindowStats } from '../../src/history/windowSummary.js';
import { MINUTE_MS, RAIN_WINDOWS, RATE_WINDOW_MINUTES, RETENTION_MINUTES, TEMPERATURE_WINDOWS } from '../../src/history/windows.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const BASE = 29_650_000; // a minute in 2026

/** The full scan: one backward pass over the last 14 days of minutes (the rule in windowSummary.ts). */
function fullScan(buckets: MinuteColumns, nowMinute: number, gap: number): WindowScan {
  const lengths = new Set<number>([RATE_WINDOW_MINUTES, ...RAIN_WINDOWS.map(([, m]) => m), ...TEMPERATURE_WINDOWS.map(([, m]) => m)]);
  const windows = new Map<number, WindowStats>();
  const rainSamples: number[] = [];
  const tempSamples: number[] = [];
  const first = buckets.lowerBound(nowMinute - RETENTION_MINUTES + 1 - gap);
  const last = buckets.lowerBound(nowMinute + 1) - 1;
  for (let index = last; index >= first; index--) {
    if (buckets.observedAt(index)) rainSamples.push(buckets.minuteAt(index));
    if (buckets.tempMinAt(index) !== null) tempSamples.push(buckets.minuteAt(index));
  }
  const rainCover = coverageCursor(rainSamples, nowMinute, gap);
  const tempCover = coverageCursor(tempSamples, nowMinute, gap);
  let rainMicro = 0;
  let rainCovered = 0;
  let tempCovered = 0;
  let tempMinC: number | null = null;
  let lastRainMinute: number | null = null;
  let coverageSinceRain = 0;
  let cursor = last;
  for (let count = 1; count <= RETENTION_MINUTES; count++) {
    const minute = nowMinute - count + 1;
    while (cursor >= first && buckets.minuteAt(cursor) > minute) cursor--;
    if (cursor >= first && buckets.minuteAt(cursor) === minute) {
      const bucketRain = buckets.rainAt(cursor);
      const bucketTemp = buckets.tempMinAt(cursor);
      if (bucketRain > 0 && lastRainMinute === null) {
        lastRainMinute = minute;
        coverageSinceRain = count > 1 ? rainCovered / (count - 1) : 1;
      }
      if (bucketTemp !== null) tempMinC = tempMinC === null ? bucketTemp : Math.min(tempMinC, bucketTemp);
      rainMicro += Math.round(bucketRain * MICRO_MM);
    }
    if (rainCover(minute)) rainCovered++;
    if (tempCover(minute)) tempCovered++;
    if (lengths.has(count))
      windows.set(count, { rainMm: rainMicro / MICRO_MM, rainCoverage: rainCovered / count, tempMinC, tempCoverage: tempCovered / count });
  }
  return { nowMinute, windows, lastRainMinute, coverageSinceRain, lastRainSample: rainSamples[0] ?? null };
}

function coverageCursor(samplesDescending: readonly number[], nowMinute: number, gap: number): (minute: number) => boolean {
  let index = 0;
  return (minute: number) => {
    while (index < samplesDescending.length && samplesDescending[index]! > minute) index++;
    const before = samplesDescending[index];
    if (before === undefined) return false;
    if (before === minute) return true;
    const after = index > 0 ? samplesDescending[index - 1] : undefined;
    if (after === undefined) return nowMinute - before <= gap;
    return after - before <= gap;
  };
}

function rowsOf(columns: MinuteColumns): BucketRow[] {
  const rows: BucketRow[] = [];
  for (let i = columns.first; i < columns.end; i++) rows.push(columns.row(i));
  return rows;
}

type Op =
  | { kind: 'run'; start: number; length: number; step: number; rainEvery: number; temp: boolean; observe: boolean }
  | { kind: 'rain'; minute: number; mm: number }
  | { kind: 'temp'; minute: number; celsius: number }
  | { kind: 'put'; minute: number; rainMm: number; observed: boolean; celsius: number | null }
  | { kind: 'prune'; minute: number }
  | { kind: 'scan'; minute: number }
  | { kind: 'restart' };

const minuteArb = fc.integer({ min: BASE - RETENTION_MINUTES - 200, max: BASE + 400 });
const mmArb = fc.integer({ min: 1, max: 5_000_000 }).map((micro) => micro / MICRO_MM);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      start: minuteArb,
      length: fc.integer({ min: 1, max: 3000 }),
      step: fc.integer({ min: 1, max: 40 }),
      rainEvery: fc.integer({ min: 0, max: 30 }),
      temp: fc.boolean(),
      observe: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rain' as const), minute: minuteArb, mm: mmArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('temp' as const),
      minute: minuteArb,
      celsius: fc.integer({ min: -200, max: 350 }).map((t) => t / 10),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      minute: minuteArb,
      rainMm: fc.oneof(fc.constant(0), mmArb),
      observed: fc.boolean(),
      celsius: fc.option(fc.integer({ min: -200, max: 350 }).map((t) => t / 10)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('prune' as const),
      minute: fc.integer({ min: BASE - RETENTION_MINUTES - 250, max: BASE - RETENTION_MINUTES + 600 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('scan' as const), minute: fc.integer({ min: BASE - 300, max: BASE + 500 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

/** Applies the ops to columns followed by a summary; every scan (and one at the end) against the full scan. */
function check(ops: readonly Op[], gap: number, endMinute: number): void {
  let columns = new MinuteColumns(1);
  let summary = new WindowSummary(columns, gap);
  const compare = (minute: number): void => {
    expect(summary.scan(minute)).toEqual(fullScan(columns, minute, gap));
  };
  for (const op of ops) {
    switch (op.kind) {
      case 'run':
        for (let minute = op.start, n = 0; minute < op.start + op.length; minute += op.step, n++) {
          const index = columns.upsert(minute);
          if (op.observe) columns.setObserved(index);
          if (op.rainEvery > 0 && n % op.rainEvery === 0) columns.setRain(index, columns.rainAt(index) + 0.3);
          if (op.temp) columns.setTempMin(index, Math.min(columns.tempMinAt(index) ?? 99, ((minute * 7) % 300) / 10));
        }
        break;
      case 'rain': {
        const index = columns.upsert(op.minute);
        columns.setRain(index, Math.round((columns.rainAt(index) + op.mm) * MICRO_MM) / MICRO_MM);
        columns.setObserved(index);
        break;
      }
      case 'temp':
        columns.setTempMin(columns.upsert(op.minute), op.celsius);
        break;
      case 'put':
        columns.put({ minute: op.minute, rainMm: op.rainMm, rainObserved: op.observed, tempMinC: op.celsius });
        break;
      case 'prune':
        columns.pruneBefore(op.minute);
        break;
      case 'scan':
        compare(op.minute);
        break;
      case 'restart':
        columns = MinuteColumns.from(rowsOf(columns));
        summary = new WindowSummary(columns, gap);
        break;
    }
  }
  compare(endMinute);
  compare(BASE);
  checkObserved(columns, summary, endMinute - RETENTION_MINUTES, endMinute);
}

/** The forecast's observed part against a sum over the rows, from minutes across the range and around it. */
function checkObserved(columns: MinuteColumns, summary: WindowSummary, first: number, last: number): void {
  const observed = summary.observed(first, last);
  const rows = rowsOf(columns).filter((row) => row.minute >= first && row.minute <= last);
  let index = rows.length;
  let rainMicro = 0;
  let lowest = Infinity;
  // Walk down from after the range: the rows from `from` on are summed as the walk passes them.
  for (let from = last + 2; from >= first - 2; from -= from > last - 200 ? 1 : 97) {
    while (index > 0 && rows[index - 1]!.minute >= from) {
      const row = rows[--index]!;
      rainMicro += Math.round(row.rainMm * MICRO_MM);
      lowest = Math.min(lowest, row.tempMinC ?? Infinity);
    }
    expect([observed.rainSince(from * MINUTE_MS - 1), observed.minTempSince(from * MINUTE_MS)]).toEqual([rainMicro / MICRO_MM, lowest]);
  }
}

// The model scans 14 days of minutes per comparison: 4 s of CPU on a quiet machine, over 20 s on a loaded one.
describe('WindowSummary (incremental rain and temperature windows)', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('equals a full scan for random bookings, gaps, prunes, clock steps and restarts', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: BASE - 100, max: BASE + 300 }),
        (ops, gap, end) => {
          check(ops, gap, end);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('equals a full scan over a dense 14-day history, minute by minute past the window edges', () => {
    const columns = MinuteColumns.from([]);
    const summary = new WindowSummary(columns, 15);
    for (let minute = BASE - RETENTION_MINUTES - 30; minute < BASE; minute++) {
      const index = columns.upsert(minute);
      columns.setObserved(index);
      columns.setTempMin(index, ((minute * 13) % 250) / 10);
      if (minute % 97 === 0) columns.setRain(index, 0.3);
    }
    for (let minute = BASE; minute < BASE + 200; minute++) {
      // a reading every other minute, a 30-minute outage, and the window edges moving past rain
      if (minute % 2 === 0 && (minute < BASE + 100 || minute > BASE + 130)) columns.setObserved(columns.upsert(minute));
      if (minute % 50 === 0) columns.pruneBefore(minute - RETENTION_MINUTES);
      expect(summary.scan(minute)).toEqual(fullScan(columns, minute, 15));
    }
  });

  it('reads the history at a clock stepped back: minutes beyond now stay out of every window', () => {
    const columns = MinuteColumns.from([]);
    const summary = new WindowSummary(columns, 15);
    for (let minute = BASE - 120; minute <= BASE + 60; minute++) columns.setObserved(columns.upsert(minute));
    columns.setRain(columns.upsert(BASE + 30), 2);
    const back = summary.scan(BASE);
    expect(back.windows.get(60)?.rainMm).toBe(0);
    expect(back.lastRainMinute).toBeNull();
    expect(back).toEqual(fullScan(columns, BASE, 15));
    expect(summary.scan(BASE + 60).windows.get(60)?.rainMm).toBe(2);
  });
});

describe('StationHistory windows across a restart', () => {
  it('assembles the same input from the stored rows as the history that booked them', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            stepS: fc.integer({ min: 5, max: 3600 }),
            rain: fc.integer({ min: 0, max: 3 }),
            temp: fc.integer({ min: -50, max: 300 }),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        fc.integer({ min: 0, max: 199 }),
        (steps, pruneAt) => {
          const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
          let timeMs = (BASE - 3000) * MINUTE_MS;
          let counter = 100;
          steps.forEach((step, i) => {
            timeMs += step.stepS * 1000;
            counter += step.rain / 10;
            const reading: TimedReading = {
              values: { temperature: step.temp / 10 },
              rainCounters: [{ key: 'gauge', totalMm: counter }],
              fingerprint: `${i}`,
              dropped: [],
              timeMs,
            };
            history.ingest(reading, timeMs);
            if (i === pruneAt) history.prune(timeMs + 13 * 24 * 3_600_000);
            history.assemble(timeMs);
          });
          const restored = new StationHistory(DEFAULT_HISTORY_OPTIONS, history.rows());
          // The forecast projection reads the same from the running sums as from a copy of the buckets.
          const hours: ForecastHour[] = Array.from({ length: 48 }, (_, h) => ({
            timeMs: (Math.floor(timeMs / 3_600_000) + h + 1) * 3_600_000,
            values: { temperature: 10 + (h % 7) },
            precipitationMm: h % 5 === 0 ? 0.4 : 0,
          }));
          const current = restored.assemble(timeMs).input;
          const fromMs = timeMs - RETENTION_MINUTES * MINUTE_MS;
          expect(projectForecast({ nowMs: timeMs, current, observed: restored.observed(fromMs, timeMs), hours })).toEqual(
            projectForecast({ nowMs: timeMs, current, observed: history.buckets(fromMs, timeMs), hours }),
          );
          for (const atMs of [timeMs, timeMs + 10 * MINUTE_MS, timeMs - 90 * MINUTE_MS, timeMs + 2 * 86_400_000]) {
            expect(restored.assemble(atMs)).toEqual(history.assemble(atMs));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
