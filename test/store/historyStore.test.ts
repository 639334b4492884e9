import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bucketKey,
  bucketMinute,
  bucketSlot,
  countersPatch,
  decodeCounters,
  decodeLatest,
  decodeRecent,
  latestPatch,
  MAX_SLOT,
} from '../../src/store/historyStore.js';

describe('history row formats (migration 9)', () => {
  it('bucket keys order by minute, then slot, and split back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000_000 }),
        fc.integer({ min: 0, max: MAX_SLOT }),
        fc.integer({ min: 0, max: MAX_SLOT }),
        (minute, slot, other) => {
          const key = bucketKey(minute, slot);
          expect([bucketMinute(key), bucketSlot(key)]).toEqual([minute, slot]);
          expect(bucketKey(minute + 1, other)).toBeGreaterThan(key);
          expect(Math.sign(bucketKey(minute, other) - key)).toBe(Math.sign(other - slot));
        },
      ),
    );
  });

  it('latest values and counter baselines round-trip through their JSON exactly', () => {
    const latest = [
      { field: 'temperature' as const, value: 0.1 + 0.2, atMs: 1_781_000_000_123 },
      { field: 'humidity' as const, value: 70, atMs: 1_781_000_000_000 },
    ];
    const counters = [
      { key: 'Fineoffset-WH24/100/rain_mm', totalMm: 123.4, atMs: 1_781_000_000_123 },
      { key: '__proto__', totalMm: 1e-7, atMs: 5 },
    ];
    expect(decodeLatest(latestPatch(latest))).toEqual(latest);
    expect(decodeCounters(countersPatch(counters))).toEqual(counters);
  });

  it('skips damaged entries and unknown fields instead of failing the start', () => {
    expect(decodeLatest('{"temperature":[12,5],"nonsense":[1,2],"humidity":"x","wind_speed":[1],"solar":[1,null]}')).toEqual([
      { field: 'temperature', value: 12, atMs: 5 },
    ]);
    expect(decodeCounters('not json')).toEqual([]);
    expect(decodeCounters('[1,2]')).toEqual([]);
    expect(decodeRecent('[[1,2],[3],"x",[4,5]]')).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(decodeRecent('{')).toEqual([]);
  });
});
