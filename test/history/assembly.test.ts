import { describe, expect, it } from 'vitest';
import type { FieldName } from '../../src/core/fields.js';
import type { CurrentField } from '../../src/ingest/types.js';
import { assembleInput, round, type AssemblySource } from '../../src/history/assembly.js';
import { MinuteColumns } from '../../src/history/minuteColumns.js';
import { WindowSummary } from '../../src/history/windowSummary.js';
import type { BucketRow, LatestRow } from '../../src/history/types.js';
import { MINUTE_MS, minuteOf } from '../../src/history/windows.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

function source(parts: Partial<AssemblySource> = {}): AssemblySource {
  return {
    latest: new Map<CurrentField, LatestRow>(),
    windows: new WindowSummary(MinuteColumns.from([]), 15),
    options: { freshnessMs: 30 * MINUTE_MS, maxGapMinutes: 15 },
    rainSeen: false,
    lastReadingAtMs: null,
    plausible: (_field, value) => value,
    ...parts,
  };
}

/** One observed, dry minute bucket for each of the last `minutes` minutes, plus `rainMm` in the newest one. */
function observedMinutes(minutes: number, rainMm: number): WindowSummary {
  const now = minuteOf(NOW);
  const rows: BucketRow[] = [];
  for (let m = now - minutes + 1; m <= now; m++)
    rows.push({ minute: m, rainMm: m === now ? rainMm : 0, rainObserved: true, tempMinC: null });
  return new WindowSummary(MinuteColumns.from(rows), 15);
}

describe('assembleInput', () => {
  it('supplies a fresh current value and withholds a stale one, naming its age and the limit', () => {
    const latest = new Map<CurrentField, LatestRow>([
      ['temperature', { field: 'temperature', value: 18, atMs: NOW - 5 * MINUTE_MS }],
      ['humidity', { field: 'humidity', value: 70, atMs: NOW - 45 * MINUTE_MS }],
    ]);
    const { input, withheld, lastReadingAtMs } = assembleInput(source({ latest, lastReadingAtMs: NOW - 5 * MINUTE_MS }), NOW);
    expect(input.temperature).toBe(18);
    expect(input.humidity).toBeUndefined();
    expect(withheld.humidity).toBe('last value is 45 min old (limit 30 min)');
    expect(lastReadingAtMs).toBe(NOW - 5 * MINUTE_MS);
  });

  it('supplies no rain windows before any rain amount was seen', () => {
    const { input, withheld, coverage } = assembleInput(source(), NOW);
    expect(input.rain_1h).toBeUndefined();
    expect(withheld.rain_1h).toBeUndefined();
    expect(coverage.rain_1h).toBeUndefined();
  });

  it('passes covered rain windows through `plausible` and derives the rate from the last minutes', () => {
    const seen: FieldName[] = [];
    const plausible = (field: FieldName, value: number): number => {
      seen.push(field);
      return value;
    };
    const { input, derived, coverage, withheld } = assembleInput(
      source({ windows: observedMinutes(120, 1.5), rainSeen: true, plausible }),
      NOW,
    );
    expect(input.rain_1h).toBe(1.5);
    expect(coverage.rain_1h).toBe(1);
    expect(input.minutes_since_rain).toBe(0);
    expect(derived).toEqual(['precipitation_rate']);
    expect(input.precipitation_rate).toBeGreaterThan(0);
    expect(seen).toContain('rain_1h');
    expect(seen).toContain('precipitation_rate');
    expect(withheld.rain_24h).toMatch(/history covers 8% of the last 1 d \(90% needed\)/);
  });

  it('rounds to three decimals by default', () => {
    expect(round(1.23456)).toBe(1.235);
    expect(round(1.23456, 1)).toBe(1.2);
  });
});
