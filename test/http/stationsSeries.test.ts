/** The history endpoint's pure parts: query limits, the step grid and the downsampling. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BucketRow } from '../../src/history/stationHistory.js';
import { MAX_HISTORY_POINTS, downsample, parseHistoryQuery, stepGrid } from '../../src/http/stationsSeries.js';
import type { RecordedSeries } from '../../src/station/chartRecorder.js';

const bucket = (minute: number, rainMm: number, tempMinC: number | null = null, rainObserved = true): BucketRow => ({
  minute,
  rainMm,
  rainObserved,
  tempMinC,
});

type Minute = { minute: number } & Partial<Record<RecordedSeries, number>>;
const minutes = (rows: Minute[]) => (visit: (minute: number, value: (series: RecordedSeries) => number) => void) => {
  for (const row of rows) visit(row.minute, (series) => row[series] ?? Number.NaN);
};

describe('parseHistoryQuery', () => {
  it.each([
    [undefined, undefined, { hours: 48, stepMinutes: 10 }],
    ['24', '1m', { hours: 24, stepMinutes: 1 }],
    [336, '10m', { hours: 336, stepMinutes: 10 }],
    ['336', '7m', { hours: 336, stepMinutes: 7 }],
    ['1', '24h', { hours: 1, stepMinutes: 1440 }],
    ['48', '2h', { hours: 48, stepMinutes: 120 }],
  ])('hours=%s step=%s is accepted', (hours, step, expected) => {
    expect(parseHistoryQuery(hours, step)).toEqual({ ok: true, ...expected });
  });

  it.each([
    ['0', '10m'],
    ['337', '10m'],
    ['-1', '10m'],
    ['2.5', '10m'],
    ['', '10m'],
    [['1', '2'], '10m'],
    ['1e400', '10m'],
    ['48', '0m'],
    ['48', '25h'],
    ['48', '1441m'],
    ['48', '10s'],
    ['48', '10'],
    ['48', 'm'],
    ['48', '01m'],
    ['48', ''],
    ['336', '6m'],
  ])('hours=%s step=%s is refused', (hours, step) => {
    expect(parseHistoryQuery(hours, step)).toMatchObject({ ok: false });
  });

  it('accepts exactly the ranges within the point limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 336 }), fc.integer({ min: 1, max: 1440 }), (hours, step) => {
        const parsed = parseHistoryQuery(String(hours), `${step}m`);
        expect(parsed.ok).toBe(Math.ceil((hours * 60) / step) <= MAX_HISTORY_POINTS);
      }),
    );
  });
});

describe('stepGrid', () => {
  it('ends at the first step boundary after the current minute and covers the range', () => {
    // 12:34 → steps of 10 minutes end at 12:40; 2 h back is 10:40.
    const now = 12 * 60 + 34;
    expect(stepGrid(now, 2, 10)).toEqual({ firstMinute: 10 * 60 + 40, stepMinutes: 10, points: 12 });
    // Exactly on a boundary, the current minute still belongs to the last step.
    expect(stepGrid(12 * 60, 1, 10)).toEqual({ firstMinute: 11 * 60 + 10, stepMinutes: 10, points: 6 });
  });
});

describe('downsample', () => {
  const grid = { firstMinute: 1000, stepMinutes: 10, points: 3 };

  it('sums rain per step, null where no reading reported rain; ignores buckets outside the grid', () => {
    const series = downsample(
      grid,
      [bucket(999, 5), bucket(1000, 0.2), bucket(1009, 0.3), bucket(1015, 0, 12, false), bucket(1020, 0), bucket(1030, 7)],
      minutes([]),
    );
    expect(series.time).toEqual([60_000, 60_600, 61_200]);
    expect(series.rain_mm).toEqual([0.5, null, 0]);
  });

  it('averages recorded temperature and humidity, falls back to the lowest stored temperature, keeps the last index', () => {
    const series = downsample(
      grid,
      [bucket(1001, 0, 9.5), bucket(1002, 0, 9.1), bucket(1012, 0, 8.4)],
      minutes([
        { minute: 1001, temperature: 10, humidity: 60, dew_point: 2.5, index: 50 },
        { minute: 1005, temperature: 11, humidity: 63, index: 55 },
        { minute: 1025, humidity: 80 },
      ]),
    );
    expect(series.temperature).toEqual([10.5, 8.4, null]);
    expect(series.humidity).toEqual([62, null, 80]);
    expect(series.dew_point).toEqual([2.5, null, null]);
    expect(series.index).toEqual([55, null, null]);
  });

  it('keeps the total rain of the buckets inside the grid', () => {
    const rows = fc.array(
      fc.record({ minute: fc.integer({ min: 900, max: 1100 }), rainMm: fc.integer({ min: 0, max: 500 }).map((n) => n / 100) }),
      { maxLength: 80 },
    );
    fc.assert(
      fc.property(rows, (generated) => {
        const unique = [...new Map(generated.map((row) => [row.minute, bucket(row.minute, row.rainMm)])).values()];
        const series = downsample(grid, unique, minutes([]));
        const inside = unique.filter((row) => row.minute >= 1000 && row.minute < 1030).reduce((sum, row) => sum + row.rainMm, 0);
        const total = series.rain_mm.reduce<number>((sum, mm) => sum + (mm ?? 0), 0);
        expect(total).toBeCloseTo(inside, 1);
      }),
    );
  });
});
