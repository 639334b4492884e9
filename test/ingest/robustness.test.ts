import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_SPECS } from '../../src/core/fields.js';
import { parseStationMessage } from '../../src/ingest/parse.js';
import { CURRENT_FIELDS, RAIN_INPUT_FIELDS, type ParseOutcome, type StationConfig } from '../../src/ingest/types.js';
import { payloadLines, payloadText } from '../helpers/mqttPayloads.js';

const RANGES = new Map<string, { min: number; max: number }>(FIELD_SPECS.map((spec) => [spec.name, spec]));
const NUM_RUNS = 2000;
const context = { timeZone: 'Europe/Berlin' };

type Payload = Record<string, unknown>;
const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/payloads/', import.meta.url));
const files = readdirSync(FIXTURE_DIR);
const rtl433Events = files
  .filter((file) => file.startsWith('rtl433-json__'))
  .flatMap((file) => payloadLines(file).map((line) => JSON.parse(line) as Payload));
const weewxPackets = files.filter((file) => file.startsWith('weewx-mqtt__')).map((file) => JSON.parse(payloadText(file)) as Payload);
const ecowittPayloads = files
  .filter((file) => file.startsWith('ecowitt2mqtt-published__topic-json__'))
  .map((file) => JSON.parse(payloadText(file)) as Payload);

/** Each real capture with the station that reads it. */
const SOURCES: ReadonlyArray<{ station: StationConfig; payloads: readonly Payload[] }> = [
  { station: { id: 'r', name: 'R', format: 'rtl_433', topic: 't' }, payloads: rtl433Events },
  {
    station: {
      id: 'j',
      name: 'J',
      format: 'json',
      topic: 't',
      fields: {
        temperature: 'temperature_C',
        humidity: 'humidity',
        wind_speed: { key: 'wind_avg_m_s', unit: 'm/s' },
        rain_total: 'rain_mm',
      },
    },
    payloads: rtl433Events,
  },
  { station: { id: 'w', name: 'W', format: 'weewx', topic: 't' }, payloads: weewxPackets },
  { station: { id: 'e', name: 'E', format: 'ecowitt2mqtt', topic: 't', units: 'imperial' }, payloads: ecowittPayloads },
  { station: { id: 'm', name: 'M', format: 'ecowitt2mqtt', topic: 't', units: 'metric' }, payloads: ecowittPayloads },
];
const ALL_KEYS = [
  ...new Set([...rtl433Events, ...weewxPackets, ...ecowittPayloads].flatMap((payload) => Object.keys(payload))),
  '__proto__',
  'constructor',
];
const NUMBERS = [...rtl433Events, ...weewxPackets, ...ecowittPayloads].flatMap((payload) =>
  Object.values(payload).filter(
    (value): value is number | string => typeof value === 'number' || (typeof value === 'string' && Number.isFinite(Number(value))),
  ),
);

/** Values a broken or hostile sender could put under a key. */
const hostileValueArb = fc.oneof(
  fc.double(),
  fc.double({ min: -1e4, max: 1e4 }),
  fc.integer(),
  fc.double({ min: -1e4, max: 1e4 }).map(String),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(null, true, false, '1e999', '-9999', 'NaN', 'Infinity', '', ' 12 ', '0x1F', [], {}, [1], { value: 1 }),
);

type Mutation =
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'scale'; at: number; factor: number }
  | { kind: 'rename'; at: number; to: string }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; key: string; value: unknown };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: hostileValueArb }),
  fc.record({ kind: fc.constant('scale' as const), at: fc.nat(), factor: fc.constantFrom(-1, 0, 10, 1000, 1e300, 0.001) }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), to: fc.constantFrom(...ALL_KEYS) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom(...ALL_KEYS), value: hostileValueArb }),
);

/** Applies mutations to a copy of a real payload: its keys and values, in their real shape. */
function mutate(payload: Payload, mutations: readonly Mutation[]): Payload {
  const copy: Payload = { ...payload };
  for (const mutation of mutations) {
    const keys = Object.keys(copy);
    if (mutation.kind === 'add') {
      Object.defineProperty(copy, mutation.key, { value: mutation.value, enumerable: true, configurable: true, writable: true });
      continue;
    }
    if (keys.length === 0) continue;
    const key = keys[mutation.at % keys.length]!;
    if (mutation.kind === 'set') copy[key] = mutation.value;
    else if (mutation.kind === 'scale')
      copy[key] =
        typeof copy[key] === 'number'
          ? copy[key] * mutation.factor
          : typeof copy[key] === 'string'
            ? String(Number(copy[key]) * mutation.factor)
            : copy[key];
    else if (mutation.kind === 'delete') delete copy[key];
    else {
      const value = copy[key];
      delete copy[key];
      Object.defineProperty(copy, mutation.to, { value, enumerable: true, configurable: true, writable: true });
    }
  }
  return copy;
}

const structuredArb = fc.constantFrom(...SOURCES).chain(({ station, payloads }) =>
  fc.record({
    station: fc.constant(station),
    topic: fc.constant('t'),
    payload: fc
      .tuple(fc.constantFrom(...payloads), fc.array(mutationArb, { maxLength: 4 }), fc.nat({ max: 19 }))
      .map(([payload, mutations, cut]) => {
        const text = JSON.stringify(mutate(payload, mutations));
        return cut === 0 ? text.slice(0, Math.floor(text.length / 2)) : text; // now and then a truncated message
      }),
  }),
);

/** `fields` stations: one number per topic, taken from the captures and sometimes mangled. */
const fieldsArb = fc.record({
  station: fc.constant<StationConfig>({ id: 'f', name: 'F', format: 'fields', topic: 't/+' }),
  topic: fc.constantFrom(...CURRENT_FIELDS, ...RAIN_INPUT_FIELDS, 'x').map((field) => `t/${field}`),
  payload: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERS).map(String) },
    { weight: 1, arbitrary: hostileValueArb.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))) },
  ),
});

function expectInRange(outcome: ParseOutcome): void {
  if (outcome.kind !== 'reading') return;
  for (const [field, value] of Object.entries(outcome.reading.values)) {
    const range = RANGES.get(field);
    expect(range, field).toBeDefined();
    expect(Number.isFinite(value)).toBe(true);
    expect(value).toBeGreaterThanOrEqual(range!.min);
    expect(value).toBeLessThanOrEqual(range!.max);
  }
  for (const counter of outcome.reading.rainCounters) {
    expect(Number.isFinite(counter.totalMm)).toBe(true);
    expect(counter.totalMm).toBeGreaterThanOrEqual(0);
  }
  if (outcome.reading.rainDeltaMm !== undefined) {
    expect(Number.isFinite(outcome.reading.rainDeltaMm)).toBe(true);
    expect(outcome.reading.rainDeltaMm).toBeGreaterThanOrEqual(0);
  }
  if (outcome.reading.payloadTimeMs !== undefined) expect(Number.isFinite(outcome.reading.payloadTimeMs)).toBe(true);
}

describe('ingest robustness', () => {
  it('the unmutated captures are readings (the mutations start from real messages)', () => {
    for (const { station, payloads } of SOURCES) {
      const kinds = payloads.map((payload) => parseStationMessage(station, 't', JSON.stringify(payload), context).kind);
      expect(kinds.filter((kind) => kind === 'reading').length, station.id).toBeGreaterThan(0);
    }
  });

  it('never throws on mutated real payloads, and every value it returns is finite and inside the spec range', () => {
    const kinds = { reading: 0, ignored: 0, rejected: 0 };
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: structuredArb }, { weight: 1, arbitrary: fieldsArb }), ({ station, topic, payload }) => {
        const outcome = parseStationMessage(station, topic, payload, context);
        kinds[outcome.kind]++;
        expectInRange(outcome);
      }),
      { numRuns: NUM_RUNS },
    );
    // Most inputs must still be readings, or the range checks above would hardly run.
    expect(kinds.reading).toBeGreaterThan(NUM_RUNS / 4);
    expect(kinds.rejected + kinds.ignored).toBeGreaterThan(0);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SOURCES.map((source) => source.station)), fc.string({ maxLength: 200 }), (station, payload) => {
        expectInRange(parseStationMessage(station, 't', payload, context));
      }),
      { numRuns: 300 },
    );
  });
});
