/**
 * A counter-only station's first answer: the first reading sets the counter's
 * baseline (no rate yet, said in withheld_fields); from the second reading on,
 * until 15 minutes are covered, the rate is the rain over the minutes covered
 * so far; then the 15-minute window as before. A station that reports its own rate has it
 * from the first reading.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type TimedReading } from '../../src/history/stationHistory.js';

const T0 = Date.parse('2026-06-01T10:00:00Z');
const SECOND = 1000;

function counterReading(timeMs: number, totalMm: number, values: TimedReading['values'] = { temperature: 15 }): TimedReading {
  return { timeMs, values, rainCounters: [{ key: 'wunderground/dailyrainin', totalMm }], fingerprint: `${timeMs}:${totalMm}`, dropped: [] };
}

describe('precipitation_rate of a counter-only station', () => {
  it('is withheld after the first reading, then the latest counter step, then the 15-minute window', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    history.ingest(counterReading(T0, 10));
    let assembly = history.assemble(T0 + SECOND);
    expect(assembly.input.precipitation_rate).toBeUndefined();
    expect(assembly.withheld.precipitation_rate).toMatch(/first reading only sets its baseline/);

    history.ingest(counterReading(T0 + 60 * SECOND, 10));
    assembly = history.assemble(T0 + 61 * SECOND);
    expect(assembly.input.precipitation_rate).toBe(0);
    expect(assembly.derived).toContain('precipitation_rate');
    expect(assembly.withheld.precipitation_rate).toBeUndefined();

    // One 0.254 mm tip in the one minute covered reads as 15 mm/h until more is covered: any rain blocks mowing.
    history.ingest(counterReading(T0 + 76 * SECOND, 10.254));
    expect(history.assemble(T0 + 77 * SECOND).input.precipitation_rate).toBeCloseTo(0.254 * 60, 3);
    history.ingest(counterReading(T0 + 4 * 60 * SECOND, 10.254));
    expect(history.assemble(T0 + 4 * 60 * SECOND).input.precipitation_rate).toBeCloseTo((0.254 * 60) / 4, 3);

    for (let t = T0 + 5 * 60 * SECOND; t <= T0 + 15 * 60 * SECOND; t += 60 * SECOND) history.ingest(counterReading(t, 10.254));
    // 15 minutes covered: the window's 0.254 mm in 15 min.
    const covered = history.assemble(T0 + 15 * 60 * SECOND);
    expect(covered.input.precipitation_rate).toBeCloseTo((0.254 * 60) / 15, 3);
    expect(covered.coverage.rain_1h).toBeLessThan(0.9);
  });

  it('books rain across a gap outside the rate window, and gives no rate once the readings stop', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    history.ingest(counterReading(T0, 10));
    history.ingest(counterReading(T0 + 2 * 3_600_000, 12));
    // The 2 mm fell some time in the two hours: booked at the gap's start, not as a rate now.
    expect(history.assemble(T0 + 2 * 3_600_000).input.precipitation_rate).toBe(0);
    const silentMs = (DEFAULT_HISTORY_OPTIONS.maxGapMinutes + 16) * 60 * SECOND;
    const stale = history.assemble(T0 + 2 * 3_600_000 + silentMs);
    expect(stale.input.precipitation_rate).toBeUndefined();
    expect(stale.withheld.precipitation_rate).toMatch(/no rain amount observed/);
  });

  it("a station's own rate counts from its first reading", () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS);
    history.ingest(counterReading(T0, 10, { temperature: 15, precipitation_rate: 1.2 }));
    const assembly = history.assemble(T0 + SECOND);
    expect(assembly.input.precipitation_rate).toBe(1.2);
    expect(assembly.derived).not.toContain('precipitation_rate');
  });
});
