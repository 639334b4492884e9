import { describe, expect, it } from 'vitest';
import { parseStationMessage } from '../../../src/ingest/parse.js';
import type { Reading, StationConfig } from '../../../src/ingest/types.js';
import { parsedReading, payloadLines } from '../../helpers/mqttPayloads.js';

const station: StationConfig = { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events' };
const context = { timeZone: 'Europe/Berlin' };

function first(file: string, s: StationConfig = station): Reading {
  return parsedReading(parseStationMessage(s, 'rtl_433/host/events', payloadLines(file)[0]!, context));
}

describe('rtl_433 format', () => {
  it('reads a Fine Offset WH65B: °C, m/s → km/h, lux → W/m2, lifetime rain counter', () => {
    const r = first('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl');
    expect(r.values.temperature).toBe(11.5);
    expect(r.values.humidity).toBe(64);
    expect(r.values.wind_speed).toBeCloseTo(3.442 * 3.6, 6);
    expect(r.values.wind_gusts).toBeCloseTo(4.08 * 3.6, 6);
    expect(r.values.solar).toBeCloseTo(6913 / 126.7, 4);
    expect(r.rainCounters).toEqual([{ key: 'Fineoffset-WH65B//65/rain_mm', totalMm: 1125.982 }]);
    // "@0.18s" is a sample offset, not a wall-clock time: the arrival time is used.
    expect(r.payloadTimeMs).toBeUndefined();
  });

  it('reads Acurite Atlas in °F and mph, and rain in inches', () => {
    const temp = first('rtl433-json__rtl_433_tests__Acurite-Atlas_msgtype05.jsonl');
    expect(temp.values.temperature).toBeCloseTo(((70.7 - 32) * 5) / 9, 6);
    expect(temp.values.wind_speed).toBe(0);
    const rain = first('rtl433-json__rtl_433_tests__Acurite-Atlas_msgtype06.jsonl');
    expect(rain.rainCounters[0]?.totalMm).toBeCloseTo(0.05 * 25.4, 6);
  });

  it('gives the three repeated Acurite transmissions one fingerprint', () => {
    const lines = payloadLines('rtl433-json__rtl_433_tests__Acurite-5n1_VN1TXC_02.jsonl');
    const prints = new Set(lines.map((line) => parsedReading(parseStationMessage(station, 't', line, context)).fingerprint));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(prints.size).toBe(1);
  });

  it('accepts the old field names of LaCrosse WS-3600 (rainfall_mm, wind_speed_ms)', () => {
    const lines = payloadLines('rtl433-json__rtl_433_tests__LaCrosse-WS3600_g005.jsonl').map((line) =>
      parseStationMessage(station, 't', line, context),
    );
    const readings = lines.filter((o) => o.kind === 'reading').map((o) => parsedReading(o));
    expect(readings.some((r) => r.values.temperature === -2)).toBe(true);
    expect(readings.some((r) => r.values.humidity === 85)).toBe(true);
    expect(readings.some((r) => r.rainCounters[0]?.totalMm === 18.648)).toBe(true);
    expect(readings.some((r) => r.values.wind_speed === 0)).toBe(true);
  });

  it('filters by model and id so neighbours on the same topic are ignored', () => {
    const mine = { ...station, match: { model: 'Fineoffset-WH65B', id: 65 } };
    const line65 = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!;
    const line195 = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_03-g200.jsonl')[0]!;
    expect(parseStationMessage(mine, 't', line65, context).kind).toBe('reading');
    expect(parseStationMessage(mine, 't', line195, context)).toMatchObject({ kind: 'ignored' });
    const several = { ...station, match: { id: [65, 195] } };
    expect(parseStationMessage(several, 't', line195, context).kind).toBe('reading');
  });

  it('gives each station on a shared topic its own reading from one message (parsed once, shared read-only)', () => {
    const line65 = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!;
    const celsius = { ...station, match: { id: 65 } };
    const everyWh65b = { ...station, id: 'all', match: { model: 'Fineoffset-WH65B' } };
    const neighbour = { ...station, id: 'n', match: { id: 195 } };
    const first = parsedReading(parseStationMessage(celsius, 't', line65, context));
    expect(parseStationMessage(neighbour, 't', line65, context).kind).toBe('ignored');
    const again = parsedReading(parseStationMessage(celsius, 't', line65, context));
    expect(again).toEqual(first);
    expect(parsedReading(parseStationMessage(everyWh65b, 't', line65, context)).values).toEqual(first.values);
    expect(parseStationMessage({ ...station, id: 'x', match: { model: 'Acurite-5n1' } }, 't', line65, context).kind).toBe('ignored');
  });

  it('reads a local rtl_433 time in the configured zone, and ISO and Unix times', () => {
    const base = { model: 'X', id: 1, temperature_C: 10 };
    const at = (time: unknown) =>
      parsedReading(parseStationMessage(station, 't', JSON.stringify({ ...base, time }), context)).payloadTimeMs;
    expect(at('2026-07-01 12:00:00')).toBe(Date.parse('2026-07-01T10:00:00Z'));
    expect(at('2026-01-01 12:00:00')).toBe(Date.parse('2026-01-01T11:00:00Z'));
    expect(at('2026-07-01T12:00:00+02:00')).toBe(Date.parse('2026-07-01T10:00:00Z'));
    expect(at('1782900000')).toBe(1_782_900_000_000);
    expect(at(1782900000)).toBe(1_782_900_000_000);
  });

  it('drops implausible values but keeps the rest of the event', () => {
    const r = parsedReading(
      parseStationMessage(station, 't', JSON.stringify({ model: 'X', id: 1, temperature_C: 140, humidity: 50 }), context),
    );
    expect(r.values.temperature).toBeUndefined();
    expect(r.values.humidity).toBe(50);
    expect(r.dropped[0]).toMatch(/temperature_C: 140 C is implausible/);
  });

  it('rejects garbled and truncated lines without throwing', () => {
    const line = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH24_g001.jsonl')[0]!;
    for (const bad of [line.slice(0, 40), '}{', 'null', '[1,2]', '{"model": "X", "id": 1, "temperature_C": "hot"}', '\u0000\u0001']) {
      expect(['rejected', 'ignored']).toContain(parseStationMessage(station, 't', bad, context).kind);
    }
    // A syslog prefix around a whole event is tolerated.
    expect(parseStationMessage(station, 't', `Nov 21 10:00:01 pi rtl_433[42]: ${line}`, context).kind).toBe('reading');
  });
});

/**
 * One row per capture, expected values read off the capture by hand: m/s × 3.6 = km/h,
 * mph × 1.609344 = km/h, in × 25.4 = mm, lux ÷ 126.7 = W/m². Keys not listed must be absent.
 * `sameFingerprint`: the lines are repeated transmissions of one reading.
 */
const CAPTURES: ReadonlyArray<{
  file: string;
  lines: number;
  values: Partial<Record<keyof Reading['values'], number>>;
  rainCounters: Reading['rainCounters'];
  sameFingerprint?: boolean;
}> = [
  {
    file: 'rtl433-json__rtl_433_tests__Bresser-6in1_01-g002.jsonl', // temperature/humidity/wind message
    lines: 1,
    values: { temperature: 11.8, humidity: 81, wind_speed: 4.0 * 3.6, wind_gusts: 5.7 * 3.6 },
    rainCounters: [],
  },
  {
    file: 'rtl433-json__rtl_433_tests__Bresser-6in1_01-g004.jsonl', // wind/rain message of the same sensor
    lines: 1,
    values: { wind_speed: 4.2 * 3.6, wind_gusts: 5.7 * 3.6 },
    rainCounters: [{ key: 'Bresser-6in1/0/411042499/rain_mm', totalMm: 0 }],
  },
  {
    file: 'rtl433-json__rtl_433_tests__Acurite-Optimus_wind-rain-01.jsonl', // km/h is preferred over the rounded mph
    lines: 1,
    values: { wind_speed: 6.437 },
    rainCounters: [{ key: 'Acurite-Optimus/A/2708/rain_in', totalMm: 3.84 * 25.4 }],
  },
  {
    file: 'rtl433-json__rtl_433_tests__Acurite-Atlas_msgtype07.jsonl', // wind + light, three repeats
    lines: 3,
    values: { wind_speed: 0, solar: 360 / 126.7 },
    rainCounters: [],
    sameFingerprint: true,
  },
  {
    file: 'rtl433-json__rtl_433_tests__Fineoffset-WH1050_01-g001.jsonl', // already in km/h, two repeats
    lines: 2,
    values: { temperature: 20.1, humidity: 74, wind_speed: 0, wind_gusts: 0 },
    rainCounters: [{ key: 'Fineoffset-WH1050//57/rain_mm', totalMm: 13.5 }],
    sameFingerprint: true,
  },
  {
    file: 'rtl433-json__rtl_433_tests__Fineoffset-WHx080_wh1080-01-gfile001.jsonl',
    lines: 1,
    values: { temperature: 7.4, humidity: 82, wind_speed: 0, wind_gusts: 2.448 },
    rainCounters: [{ key: 'Fineoffset-WHx080//5/rain_mm', totalMm: 183.9 }],
  },
  {
    file: 'rtl433-json__rtl_433_tests__EcoWitt-WH40_g003.jsonl', // rain gauge only
    lines: 2,
    values: {},
    rainCounters: [{ key: 'EcoWitt-WH40//52591/rain_mm', totalMm: 0 }],
  },
  {
    file: 'rtl433-json__rtl_433_tests__LaCrosse-BreezePro_g001.jsonl',
    lines: 1,
    values: { temperature: 28, humidity: 55, wind_speed: 4.9 },
    rainCounters: [],
  },
];

describe('rtl_433 captures', () => {
  it.each(CAPTURES)('$file', ({ file, lines, values, rainCounters, sameFingerprint }) => {
    const readings = payloadLines(file).map((line) => parsedReading(parseStationMessage(station, 'rtl_433/host/events', line, context)));
    expect(readings).toHaveLength(lines);
    for (const r of readings) {
      expect(Object.keys(r.values).sort()).toEqual(Object.keys(values).sort());
      for (const [field, expected] of Object.entries(values))
        expect(r.values[field as keyof Reading['values']], field).toBeCloseTo(expected, 6);
      expect(r.rainCounters.map((c) => c.key)).toEqual(rainCounters.map((c) => c.key));
      r.rainCounters.forEach((counter, i) => expect(counter.totalMm).toBeCloseTo(rainCounters[i]!.totalMm, 6));
      expect(r.rainDeltaMm).toBeUndefined();
      expect(r.dropped).toEqual([]);
      expect(r.payloadTimeMs).toBeUndefined(); // "@0.02s" offsets are not wall-clock times
    }
    if (sameFingerprint) expect(new Set(readings.map((r) => r.fingerprint)).size).toBe(1);
  });
});
