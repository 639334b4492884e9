import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_OPTIONS, StationHistory } from '../../src/history/stationHistory.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-06-15T08:00:00Z');

describe('StationHistory.buckets', () => {
  it('returns copies of the buckets in the range, oldest first, both ends included', () => {
    const history = new StationHistory(DEFAULT_HISTORY_OPTIONS, {
      buckets: [3, 1, 2, 5].map((m) => ({ minute: T0 / MINUTE + m, rainMm: m / 10, rainObserved: true, tempMinC: 10 + m })),
    });
    const rows = history.buckets(T0 + MINUTE, T0 + 3 * MINUTE + 59_000);
    expect(rows.map((row) => row.rainMm)).toEqual([0.1, 0.2, 0.3]);
    rows[0]!.rainMm = 99;
    expect(history.buckets(T0 + MINUTE, T0 + MINUTE)[0]!.rainMm).toBe(0.1);
    expect(history.buckets(T0 + 6 * MINUTE, T0 + 9 * MINUTE)).toEqual([]);
  });
});
