import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type HistoryRows, type TimedReading } from '../../src/history/stationHistory.js';
import { MAX_RAIN_PER_MINUTE_MM } from '../../src/history/rainPlausibility.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const options = { ...DEFAULT_HISTORY_OPTIONS, maxRainIncrementMm: 1e9 };

function reading(timeMs: number, parts: Partial<TimedReading> = {}): TimedReading {
  return { timeMs, values: {}, rainCounters: [], fingerprint: `${timeMs}:${JSON.stringify(parts)}`, dropped: [], ...parts };
}

/** Readings every `stepMin` minutes from `fromMs` to `toMs` carrying a zero rain delta and a temperature. */
function steady(fromMs: number, toMs: number, stepMin = 5, temp = 15): TimedReading[] {
  const out: TimedReading[] = [];
  for (let t = fromMs; t <= toMs; t += stepMin * MINUTE_MS) out.push(reading(t, { rainDeltaMm: 0, values: { temperature: temp } }));
  return out;
}

describe('StationHistory windows (examples)', () => {
  it('supplies rain windows and minutes since rain once the history covers them, exact across midnight', () => {
    const history = new StationHistory(options);
    const now = Date.parse('2026-06-02T00:30:00Z');
    for (const r of steady(now - 25 * 3_600_000, now)) history.ingest(r);
    history.ingest(reading(Date.parse('2026-06-01T23:50:00Z'), { rainDeltaMm: 1.2 }));
    history.ingest(reading(Date.parse('2026-06-02T00:10:00Z'), { rainDeltaMm: 0.8 }));
    const { input, withheld } = history.assemble(now);
    expect(input.rain_1h).toBeCloseTo(2.0, 9);
    expect(input.rain_24h).toBeCloseTo(2.0, 9);
    expect(input.minutes_since_rain).toBe(20);
    expect(input.min_temp_3h).toBe(15);
    expect(input.rain_14d).toBeUndefined();
    expect(withheld.rain_14d).toMatch(/history covers 7% of the last 14 d \(90% needed\)/);
    expect(input.min_temp_3d).toBeUndefined();
  });

  it('withholds stale current values and derives precipitation_rate from recent increments', () => {
    const history = new StationHistory(options);
    const now = T0 + 2 * 3_600_000;
    for (const r of steady(now - 3_600_000, now, 1)) history.ingest(r);
    history.ingest(reading(now - 5 * MINUTE_MS, { rainDeltaMm: 0.5, fingerprint: 'rain' }));
    history.ingest(reading(now - 40 * MINUTE_MS, { values: { humidity: 80 }, fingerprint: 'h' }));
    const assembly = history.assemble(now);
    expect(assembly.input.temperature).toBe(15);
    expect(assembly.input.humidity).toBeUndefined();
    expect(assembly.withheld.humidity).toBe('last value is 40 min old (limit 30 min)');
    expect(assembly.input.precipitation_rate).toBeCloseTo(2, 9);
    expect(assembly.derived).toEqual(['precipitation_rate']);
  });

  it('turns a lifetime counter into increments, ignores a reset by default and caps jumps', () => {
    const capped = new StationHistory({ ...DEFAULT_HISTORY_OPTIONS, maxRainIncrementMm: 10 });
    const totals = [100, 100.3, 100.9, 2.0, 2.4, 80];
    totals.forEach((totalMm, i) => capped.ingest(reading(T0 + i * MINUTE_MS, { rainCounters: [{ key: 'c', totalMm }] })));
    const rain = capped.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0);
    expect(rain).toBeCloseTo(0.3 + 0.6 + 0.4 + 10, 9);
    const counting = new StationHistory({ ...options, counterResetPolicy: 'count' });
    totals.slice(0, 4).forEach((totalMm, i) => counting.ingest(reading(T0 + i * MINUTE_MS, { rainCounters: [{ key: 'c', totalMm }] })));
    expect(counting.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(0.9 + 2.0, 9);
  });

  it('integrates a rain rate only when the station reports no amounts', () => {
    const history = new StationHistory(options);
    history.ingest(reading(T0, { values: { precipitation_rate: 6 } }));
    history.ingest(reading(T0 + 10 * MINUTE_MS, { values: { precipitation_rate: 0 } }));
    expect(history.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(1, 9);
    history.ingest(reading(T0 + 11 * MINUTE_MS, { rainDeltaMm: 0 }));
    history.ingest(reading(T0 + 12 * MINUTE_MS, { values: { precipitation_rate: 60 } }));
    history.ingest(reading(T0 + 13 * MINUTE_MS, { values: { precipitation_rate: 60 } }));
    expect(history.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(1, 9);
  });

  it('recognises a QoS 1 redelivery after a restart (same payload time), however late', () => {
    const history = new StationHistory(options);
    const packet = reading(T0, { rainDeltaMm: 0.5, fingerprint: 'weewx-loop-1' });
    expect(history.ingest(packet)).toBe('accepted');
    expect(history.ingest(reading(T0 + 3 * MINUTE_MS, { rainDeltaMm: 0.5, fingerprint: 'weewx-loop-1' }))).toBe('accepted');
    const restored = new StationHistory(options, history.rows());
    expect(restored.ingest({ ...packet })).toBe('duplicate');
    expect(restored.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(1.0, 9);
    // Same content as the newest stored reading 10 s later is a repeated radio packet; 11 s later it is a new reading.
    expect(restored.ingest({ ...packet, timeMs: T0 + 3 * MINUTE_MS + 10_000 })).toBe('duplicate');
    expect(restored.ingest({ ...packet, timeMs: T0 + 3 * MINUTE_MS + 11_000 })).toBe('accepted');
    // Behind the high-water mark everything counts as delivered, even content never seen (the documented price).
    expect(restored.ingest(reading(T0 + MINUTE_MS, { rainDeltaMm: 0.5, fingerprint: 'never-seen' }))).toBe('duplicate');
    expect(restored.rows().buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(1.5, 9);
  });

  it('survives a restart through its rows', () => {
    const history = new StationHistory(options);
    const now = T0 + 5 * 3_600_000;
    for (const r of steady(now - 4 * 3_600_000, now)) history.ingest(r);
    history.ingest(reading(now - 30 * MINUTE_MS, { rainDeltaMm: 3 }));
    const restored = new StationHistory(options, history.rows());
    expect(restored.assemble(now)).toEqual(history.assemble(now));
  });
});

// ---------- properties ----------

const NOW = T0 + RETENTION_MINUTES * MINUTE_MS;
const eventArb = fc.record({
  offsetMin: fc.integer({ min: 0, max: RETENTION_MINUTES + 60 }),
  second: fc.integer({ min: 0, max: 59 }),
  mm: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 20, noNaN: true })),
});

/**
 * A station's packet stream: contents come from a small pool, so the same content recurs at
 * other times (steady weather), and some packets are repeated a few seconds later (radio repeats,
 * some inside the 10 s duplicate window, some outside). The fingerprint is the content, as in the
 * parsers. Delivered in any order.
 */
const STREAM_NOW = T0 + 700 * MINUTE_MS;
const contentArb = fc.record({
  total: fc.constantFrom(10, 10.3, 11, 12.5),
  delta: fc.option(fc.constantFrom(0, 0.5, 1.2), { nil: undefined }),
  temp: fc.option(fc.constantFrom(-2, 8.5, 15), { nil: undefined }),
});
const packetArb = fc.record({
  content: contentArb,
  offsetS: fc.integer({ min: 0, max: 600 * 60 }),
  repeatAfterS: fc.option(fc.integer({ min: 1, max: 15 }), { nil: undefined }),
});
const streamArb = fc.array(packetArb, { minLength: 1, maxLength: 40 }).chain((packets) => {
  const readings = packets.flatMap(({ content, offsetS, repeatAfterS }) => {
    const at = STREAM_NOW - offsetS * 1000;
    const make = (timeMs: number): TimedReading => ({
      timeMs,
      fingerprint: JSON.stringify(content),
      values: content.temp === undefined ? {} : { temperature: content.temp },
      rainCounters: [{ key: 'c', totalMm: content.total }],
      ...(content.delta === undefined ? {} : { rainDeltaMm: content.delta }),
      dropped: [],
    });
    return repeatAfterS === undefined ? [make(at)] : [make(at), make(at + repeatAfterS * 1000)];
  });
  return fc.oneof(
    fc.constant([...readings].sort((a, b) => a.timeMs - b.timeMs)),
    fc.shuffledSubarray(readings, { minLength: readings.length }),
  );
});

describe('StationHistory properties', () => {
  it('window sums equal the sum of increments whose minute lies in the window', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 200 }), (events) => {
        const history = new StationHistory({ ...options, maxGapMinutes: 100_000 });
        const readings = events.map((e, i) =>
          reading(NOW - e.offsetMin * MINUTE_MS - e.second * 1000, { rainDeltaMm: e.mm, fingerprint: `e${i}` }),
        );
        for (const r of readings) history.ingest(r);
        // Zero-rain readings at both ends of 14 days so every window is covered (gap is huge).
        history.ingest(reading(NOW, { rainDeltaMm: 0, fingerprint: 'end' }));
        history.ingest(reading(NOW - (RETENTION_MINUTES - 1) * MINUTE_MS, { rainDeltaMm: 0, fingerprint: 'start' }));
        const { input } = history.assemble(NOW);
        const nowMinute = Math.floor(NOW / MINUTE_MS);
        for (const [field, minutes] of [
          ['rain_1h', 60],
          ['rain_12h', 720],
          ['rain_24h', 1440],
          ['rain_14d', RETENTION_MINUTES],
        ] as const) {
          const expected = readings
            .filter((r) => {
              const minute = Math.floor(r.timeMs / MINUTE_MS);
              return minute > nowMinute - minutes && minute <= nowMinute;
            })
            .reduce((sum, r) => sum + (r.rainDeltaMm ?? 0), 0);
          expect(input[field]).toBeCloseTo(expected, 2);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('counter resets and noise never produce negative rain, and increments never exceed the rises', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 500, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom('ignore' as const, 'count' as const),
        (totals, policy) => {
          const history = new StationHistory({ ...options, counterResetPolicy: policy });
          totals.forEach((totalMm, i) => history.ingest(reading(T0 + i * MINUTE_MS, { rainCounters: [{ key: 'c', totalMm }] })));
          const buckets = history.rows().buckets;
          for (const bucket of buckets) expect(bucket.rainMm).toBeGreaterThanOrEqual(0);
          let bound = 0;
          for (let i = 1; i < totals.length; i++) {
            const step = totals[i]! - totals[i - 1]!;
            // One reading a minute: each increment fills its own bucket, capped at the one-minute record.
            bound += Math.min(step >= 0 ? step : policy === 'count' ? totals[i]! : 0, MAX_RAIN_PER_MINUTE_MM);
          }
          expect(buckets.reduce((sum, b) => sum + b.rainMm, 0)).toBeCloseTo(bound, 3);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('is idempotent under duplicate deliveries: adjacent, late, out of order and shuffled', () => {
    fc.assert(
      fc.property(
        streamArb.chain((stream) =>
          fc.record({
            stream: fc.constant(stream),
            // Indices inside the stream; each redelivery comes `laterBy` deliveries after its original.
            late: fc.array(fc.record({ index: fc.nat({ max: stream.length - 1 }), laterBy: fc.nat({ max: stream.length }) }), {
              minLength: 1,
              maxLength: 30,
            }),
            // A burst of redeliveries at the end, in any order.
            burst: fc.shuffledSubarray(stream),
          }),
        ),
        ({ stream, late, burst }) => {
          const once = new StationHistory(options);
          for (const r of stream) once.ingest(r);

          const twice = new StationHistory(options);
          const delivered: Array<{ reading: TimedReading; redelivery: boolean }> = stream.map((r) => ({ reading: r, redelivery: false }));
          for (const { index, laterBy } of late) {
            const at = delivered.findIndex((d) => !d.redelivery && d.reading === stream[index]);
            delivered.splice(Math.min(at + 1 + laterBy, delivered.length), 0, { reading: { ...stream[index]! }, redelivery: true });
          }
          for (const r of burst) delivered.push({ reading: { ...r }, redelivery: true });
          for (const { reading: r, redelivery } of delivered) {
            const result = twice.ingest(r);
            if (redelivery) expect(result).toBe('duplicate');
          }
          expect(twice.rows()).toEqual(once.rows());
          expect(twice.assemble(STREAM_NOW)).toEqual(once.assemble(STREAM_NOW));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('replaying any subset of ingested readings after a restore changes nothing (redelivery after a restart)', () => {
    fc.assert(
      fc.property(
        streamArb.chain((stream) => fc.record({ stream: fc.constant(stream), replay: fc.shuffledSubarray(stream, { minLength: 1 }) })),
        fc.boolean(),
        ({ stream, replay }, viaChanges) => {
          const original = new StationHistory(options);
          for (const r of stream) original.ingest(r);
          // Restore from every row, or (like the store) from the batches takeChanges() handed out.
          const rows = viaChanges ? original.takeChanges() : original.rows();
          const restored = new StationHistory(options, JSON.parse(JSON.stringify(rows)) as HistoryRows);
          const before = restored.rows();
          expect(before).toEqual(original.rows());
          for (const r of replay) expect(restored.ingest({ ...r })).toBe('duplicate');
          expect(restored.rows()).toEqual(before);
          expect(restored.dirty).toBe(false);
          expect(restored.assemble(STREAM_NOW)).toEqual(original.assemble(STREAM_NOW));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('supplies a window exactly when readings cover at least 90% of it', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 120 }), fc.integer({ min: 1, max: 30 }), (offsets, gap) => {
        const history = new StationHistory({ ...options, maxGapMinutes: gap });
        for (const offset of offsets) history.ingest(reading(NOW - offset * MINUTE_MS, { rainDeltaMm: 0, values: { temperature: 10 } }));
        const { input } = history.assemble(NOW);
        // Reference: minute m is covered when it holds a reading, lies between two consecutive
        // readings at most `gap` apart, or follows the latest reading while that is at most `gap` old.
        const nowMinute = Math.floor(NOW / MINUTE_MS);
        const sampleMinutes = offsets.map((o) => nowMinute - o);
        const coveredMinutes = (windowLength: number) => {
          let covered = 0;
          for (let m = nowMinute - windowLength + 1; m <= nowMinute; m++) {
            const before = Math.max(...sampleMinutes.filter((s) => s <= m));
            const after = Math.min(...sampleMinutes.filter((s) => s >= m));
            const isSample = before === m;
            const between = Number.isFinite(before) && Number.isFinite(after) && after - before <= gap;
            const tail = Number.isFinite(before) && !Number.isFinite(after) && nowMinute - before <= gap;
            if (isSample || between || tail) covered++;
          }
          return covered / windowLength;
        };
        expect(input.rain_1h !== undefined).toBe(offsets.length > 0 && coveredMinutes(60) >= 0.9);
        expect(input.min_temp_3h !== undefined).toBe(offsets.length > 0 && coveredMinutes(180) >= 0.9);
        expect(input.rain_24h).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('StationHistory: what a reading says of its rain (lastIngestRainUnknown)', () => {
  const counter = (timeMs: number, totalMm: number, parts: Partial<TimedReading> = {}) =>
    reading(timeMs, { rainCounters: [{ key: 'c', totalMm }], ...parts });

  it('unknown for a counter without baseline, observed for a step or a delta, nothing said without rain', () => {
    const history = new StationHistory(options);
    history.ingest(counter(T0, 50));
    expect(history.lastIngestRainUnknown).toBe(true);
    expect(history.lastIngestRainMm).toBe(0);
    history.ingest(counter(T0 + MINUTE_MS, 53));
    expect(history.lastIngestRainUnknown).toBe(false);
    history.ingest(reading(T0 + 2 * MINUTE_MS, { values: { temperature: 12 } }));
    expect(history.lastIngestRainUnknown).toBeUndefined();
    // Older than the baseline: nothing to learn, nothing said.
    history.ingest(counter(T0 + 30_000, 51));
    expect(history.lastIngestRainUnknown).toBeUndefined();
    history.ingest(reading(T0 + 3 * MINUTE_MS, { rainDeltaMm: 0 }));
    expect(history.lastIngestRainUnknown).toBe(false);
    // A second counter seen for the first time makes the reading's rain unknown, whatever the first one says.
    history.ingest(
      reading(T0 + 4 * MINUTE_MS, {
        rainCounters: [
          { key: 'c', totalMm: 53 },
          { key: 'd', totalMm: 7 },
        ],
      }),
    );
    expect(history.lastIngestRainUnknown).toBe(true);
  });

  it('unknown for a step from a baseline beyond the retention (when it rained is unknown), known for no step', () => {
    const history = new StationHistory(options, { counters: [{ key: 'c', totalMm: 50, atMs: T0 }] });
    const later = T0 + (RETENTION_MINUTES + 60) * MINUTE_MS;
    history.ingest(counter(later, 50));
    expect(history.lastIngestRainUnknown).toBe(false);
    const again = new StationHistory(options, { counters: [{ key: 'c', totalMm: 50, atMs: T0 }] });
    again.ingest(counter(later, 53));
    expect(again.lastIngestRainUnknown).toBe(true);
    expect(again.lastIngestRainMm).toBe(0);
  });
});
