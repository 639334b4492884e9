import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_SPECS } from '../../src/core/fields.js';
import { parseStationMessage } from '../../src/ingest/parse.js';
import type { StationConfig } from '../../src/ingest/types.js';

const STATIONS: StationConfig[] = [
  { id: 'r', name: 'R', format: 'rtl_433', topic: 't' },
  { id: 'e', name: 'E', format: 'ecowitt2mqtt', topic: 't' },
  { id: 'w', name: 'W', format: 'weewx', topic: 't' },
  { id: 'j', name: 'J', format: 'json', topic: 't', fields: { temperature: 'temperature_C', humidity: 'humidity', rain_total: 'rain_mm' }, timestampKey: 'time' },
  { id: 'f', name: 'F', format: 'fields', topic: 't/+' },
];
const RANGES = new Map<string, { min: number; max: number }>(FIELD_SPECS.map((spec) => [spec.name, spec]));
const KEYS = ['model', 'id', 'time', 'temperature_C', 'temperature_F', 'humidity', 'rain_mm', 'rain_in', 'wind_avg_m_s', 'outTemp_C', 'rain_cm', 'dateTime', 'usUnits', 'temp', 'totalrain', '__proto__', 'constructor'];
const valueArb = fc.oneof(fc.double(), fc.string({ maxLength: 12 }), fc.constantFrom(null, true, '1e999', '-9999', 'NaN', [], {}), fc.integer());
const objectArb = fc.dictionary(fc.constantFrom(...KEYS), valueArb, { maxKeys: 8 }).map((o) => JSON.stringify(o));

describe('ingest robustness', () => {
  it('never throws, and every value it returns is finite and inside the spec range', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATIONS), fc.oneof(objectArb, fc.string({ maxLength: 80 })), fc.constantFrom('t/temperature', 't/rain_total', 't/x'), (station, payload, topic) => {
        const outcome = parseStationMessage(station, topic, payload, { timeZone: 'Europe/Berlin' });
        if (outcome.kind !== 'reading') return;
        for (const [field, value] of Object.entries(outcome.reading.values)) {
          const range = RANGES.get(field)!;
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(range.min);
          expect(value).toBeLessThanOrEqual(range.max);
        }
        for (const counter of outcome.reading.rainCounters) expect(counter.totalMm).toBeGreaterThanOrEqual(0);
        if (outcome.reading.rainDeltaMm !== undefined) expect(outcome.reading.rainDeltaMm).toBeGreaterThanOrEqual(0);
        if (outcome.reading.payloadTimeMs !== undefined) expect(Number.isFinite(outcome.reading.payloadTimeMs)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
