/**
 * The history after the wall clock stepped: readings stamped by a clock that was ahead (a day, a
 * year) must not hide new readings, stay "fresh", swallow rain or refuse readings as duplicates.
 * Time is injected: `nowMs` is the wall clock at arrival, as StationIngest passes it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type HistoryRows, type TimedReading } from '../../src/history/stationHistory.js';
import { DuplicateFilter } from '../../src/history/fingerprints.js';
import { MINUTE_MS } from '../../src/history/windows.js';

const REAL = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
const AHEAD = REAL + DAY;

/** A station message without its own time: stamped at arrival, like the daemon does. */
function arrival(atMs: number, temperature: number, totalMm: number, extra: Partial<TimedReading> = {}): TimedReading {
  return {
    timeMs: atMs,
    values: { temperature },
    rainCounters: [{ key: 'c', totalMm }],
    fingerprint: JSON.stringify({ temperature, totalMm }),
    dropped: [],
    ...extra,
  };
}

/** A day of readings every 5 min under a clock one day ahead, up to `AHEAD`. */
function historyAhead(): StationHistory {
  const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
  for (let t = AHEAD - 2 * 3_600_000; t <= AHEAD; t += 5 * MINUTE_MS) expect(history.ingest(arrival(t, 22, 100), t)).toBe('accepted');
  return history;
}

describe('history after a backward clock step', () => {
  it('new readings supersede current values stamped in the future; future values are never fresh', () => {
    const history = historyAhead();
    // The clock stepped back a day: at REAL the values stamped AHEAD lie a day in the future.
    const stale = history.assemble(REAL + MINUTE_MS);
    expect(stale.input.temperature).toBeUndefined();
    expect(stale.withheld.temperature).toMatch(/stamped 1439 min in the future/);
    expect(history.ingest(arrival(REAL + MINUTE_MS, 14, 100), REAL + MINUTE_MS)).toBe('accepted');
    expect(history.assemble(REAL + 2 * MINUTE_MS).input.temperature).toBe(14);
    expect(history.lastReadingAtMs).toBe(REAL + MINUTE_MS);
  });

  it('a rain-counter baseline stamped in the future does not hide new rain, and the rain is counted once', () => {
    const history = historyAhead();
    // Steady readings after the step, then 4 mm.
    for (let t = REAL - 60 * MINUTE_MS; t <= REAL; t += 5 * MINUTE_MS) history.ingest(arrival(t, 14, 100), t);
    history.ingest(arrival(REAL + MINUTE_MS, 14, 104), REAL + MINUTE_MS);
    // A redelivery of the same total later changes nothing.
    history.ingest(arrival(REAL + 2 * MINUTE_MS, 14, 104), REAL + 2 * MINUTE_MS);
    const { input } = history.assemble(REAL + 3 * MINUTE_MS);
    expect(input.rain_1h).toBe(4);
    expect(input.minutes_since_rain).toBe(2);
    // Without the clock (nowMs unknown) the old rule holds: an older reading does not move the baseline.
    const old = historyAhead();
    old.ingest(arrival(REAL, 14, 104));
    expect(old.rows().counters).toEqual([{ key: 'c', totalMm: 100, atMs: AHEAD }]);
  });

  it('a rain rate stamped in the future is not integrated over negative time', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    const rate = (atMs: number, mmH: number): TimedReading => ({
      timeMs: atMs,
      values: { precipitation_rate: mmH },
      rainCounters: [],
      fingerprint: `${atMs}`,
      dropped: [],
    });
    history.ingest(rate(AHEAD, 6), AHEAD);
    history.ingest(rate(REAL, 6), REAL);
    history.ingest(rate(REAL + 10 * MINUTE_MS, 6), REAL + 10 * MINUTE_MS);
    expect(history.rows().buckets.reduce((sum, bucket) => sum + bucket.rainMm, 0)).toBeCloseTo(1, 9);
  });

  it('a restart after the step does not drop new readings as duplicates; a redelivery stays a duplicate', () => {
    const before = historyAhead();
    const restored = new StationHistory(DEFAULT_HISTORY_OPTIONS, JSON.parse(JSON.stringify(before.rows())) as HistoryRows);
    // The same message again at its stored time (a QoS 1 redelivery under the old clock).
    expect(restored.ingest(arrival(AHEAD, 22, 100), AHEAD)).toBe('duplicate');
    // The clock is back: new readings are new.
    expect(restored.ingest(arrival(REAL, 14, 100), REAL)).toBe('accepted');
    expect(restored.ingest(arrival(REAL + 5 * MINUTE_MS, 14, 101), REAL + 5 * MINUTE_MS)).toBe('accepted');
    // A radio repeat of the new reading within the window is still one.
    expect(restored.ingest(arrival(REAL + 5 * MINUTE_MS + 3000, 14, 101), REAL + 5 * MINUTE_MS + 3000)).toBe('duplicate');
    const rainSinceStep = restored.buckets(REAL, REAL + 6 * MINUTE_MS).reduce((sum, bucket) => sum + bucket.rainMm, 0);
    expect(rainSinceStep).toBe(1);
    // The repaired high-water mark is what gets stored: a later restart starts from the real time.
    expect(restored.takeChanges().duplicates?.highWaterMs).toBe(REAL + 5 * MINUTE_MS + 0);
  });

  it('clockStepped repairs a future floor at once and reports whether it did', () => {
    const history = historyAhead();
    expect(history.clockStepped(AHEAD)).toBe(false);
    expect(history.clockStepped(REAL)).toBe(true);
    expect(history.rows().duplicates).toBeNull();
    expect(history.clockStepped(REAL)).toBe(false);
  });
});

describe('DuplicateFilter.repair', () => {
  it('keeps entries and a floor at or before the limit, forgets those beyond', () => {
    const filter = new DuplicateFilter(10_000, { highWaterMs: 5_000_000, recent: [[4_999_000, 7]] });
    filter.seen('a', 6_000_000);
    filter.seen('b', 7_000_000);
    expect(filter.repair(8_000_000)).toBe(false);
    expect(filter.repair(6_500_000)).toBe(true);
    expect(filter.state?.highWaterMs).toBe(6_000_000);
    expect(filter.seen('b', 7_000_000)).toBe(false);
    // The floor (5 000 000) was not beyond the limit and still refuses older readings.
    expect(filter.seen('z', 4_000_000)).toBe(true);
    expect(filter.repair(1_000)).toBe(true);
    expect(filter.state).toBeNull();
    expect(filter.seen('z', 4_000_000)).toBe(false);
  });

  it('repairs itself on the next reading when its floor lies beyond now', () => {
    const filter = new DuplicateFilter(10_000, { highWaterMs: AHEAD, recent: [] });
    expect(filter.seen('x', REAL - MINUTE_MS)).toBe(true);
    expect(filter.seen('x', REAL, REAL)).toBe(false);
    expect(filter.dirty).toBe(true);
  });
});

describe('history after a forward clock step', () => {
  it('books the next counter step in its own minute, not at the start of a year-long gap that never was', () => {
    const YEAR = 365 * DAY;
    const behind = REAL - YEAR;
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    history.ingest(arrival(behind, 15, 100), behind);
    // An old baseline (an hour before the old clock's now) stays where it is.
    const untouched = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    untouched.ingest(arrival(behind - 3_600_000, 15, 100), behind - 3_600_000);
    expect(untouched.clockStepped(REAL, YEAR)).toBe(false);
    expect(history.clockStepped(REAL, YEAR)).toBe(true);
    history.ingest(arrival(REAL + MINUTE_MS, 15, 101), REAL + MINUTE_MS);
    expect(history.buckets(REAL, REAL + MINUTE_MS).reduce((sum, bucket) => sum + bucket.rainMm, 0)).toBe(1);
    // Without the step the history would file that millimetre a year ago, outside every window.
    const unaware = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    unaware.ingest(arrival(behind, 15, 100), behind);
    unaware.ingest(arrival(REAL + MINUTE_MS, 15, 101), REAL + MINUTE_MS);
    expect(unaware.buckets(REAL, REAL + MINUTE_MS).reduce((sum, bucket) => sum + bucket.rainMm, 0)).toBe(0);
  });
});
