import { describe, expect, it } from 'vitest';
import { parseStationMessage } from '../../src/ingest/parse.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { near, parsedReading, payloadText } from '../helpers/mqttPayloads.js';

const context = { timeZone: 'UTC' };

describe('weewx format', () => {
  const station: StationConfig = { id: 'davis', name: 'Davis', format: 'weewx', topic: 'weewx/loop' };
  const loop = payloadText('weewx-mqtt__kotori__vantagepro2_loop.json');

  it('reads the Vantage Pro2 METRIC loop packet: string values, unit labels, dateTime', () => {
    const r = parsedReading(parseStationMessage(station, 'weewx/loop', loop, context));
    expect(r.values).toMatchObject({
      temperature: near(3.55555555556),
      humidity: 90,
      wind_speed: near(3.95409343049),
      wind_gusts: near(9.65608800006),
      dew_point: near(2.07088485785),
      solar: 0,
      precipitation_rate: 0,
    });
    expect(r.rainDeltaMm).toBe(0);
    expect(r.payloadTimeMs).toBe(1_492_467_300_000);
  });

  it('turns METRIC rain in cm into mm and takes it as a per-packet delta', () => {
    const packet = { ...JSON.parse(loop), rain_cm: '0.02', rainRate_cm_per_hour: '0.24' };
    const r = parsedReading(parseStationMessage(station, 't', JSON.stringify(packet), context));
    expect(r.rainDeltaMm).toBeCloseTo(0.2, 9);
    expect(r.values.precipitation_rate).toBeCloseTo(2.4, 9);
    expect(r.rainCounters).toEqual([]);
  });

  it('uses usUnits when the keys carry no unit label', () => {
    const us = { dateTime: '1492467300', usUnits: '1', outTemp: '50.0', windSpeed: '10', rain: '0.1' };
    const r = parsedReading(parseStationMessage(station, 't', JSON.stringify(us), context));
    expect(r.values.temperature).toBeCloseTo(10, 9);
    expect(r.values.wind_speed).toBeCloseTo(16.09344, 6);
    expect(r.rainDeltaMm).toBeCloseTo(2.54, 9);
    const metricwx = { ...us, usUnits: '17', outTemp: '10', windSpeed: '2', rain: '0.4' };
    const m = parsedReading(parseStationMessage(station, 't', JSON.stringify(metricwx), context));
    expect(m.values.wind_speed).toBeCloseTo(7.2, 9);
    expect(m.rainDeltaMm).toBeCloseTo(0.4, 9);
  });

  it('rejects a packet with nothing usable', () => {
    expect(parseStationMessage(station, 't', '{"usUnits": "16"}', context).kind).toBe('rejected');
    expect(parseStationMessage(station, 't', 'not json', context).kind).toBe('rejected');
  });
});

describe('ecowitt2mqtt format', () => {
  const station: StationConfig = { id: 'gw', name: 'GW1000', format: 'ecowitt2mqtt', topic: 'ecowitt2mqtt/gw' };
  const published = payloadText('ecowitt2mqtt-published__topic-json__gw1000bpro.json');

  it('reads the imperial output and converts °F, mph, in', () => {
    const r = parsedReading(parseStationMessage(station, 't', published, context));
    expect(r.values).toMatchObject({
      temperature: near(34),
      humidity: 64,
      wind_speed: near(20.89 * 1.609344),
      wind_gusts: near(1.12 * 1.609344),
      solar: 264.61,
      precipitation_rate: 0,
    });
    // No totalrain in this firmware: the yearly accumulation is the counter, never dailyrain.
    expect(r.rainCounters).toEqual([{ key: 'ecowitt2mqtt/yearlyrain', totalMm: expect.closeTo(4.441 * 25.4, 6) }]);
  });

  it('reads metric output when configured', () => {
    const metric = { ...station, units: 'metric' as const };
    const r = parsedReading(parseStationMessage(metric, 't', JSON.stringify({ temp: 21.5, windspeed: 12, totalrain: 812.4 }), context));
    expect(r.values.temperature).toBe(21.5);
    expect(r.values.wind_speed).toBe(12);
    expect(r.rainCounters[0]?.totalMm).toBe(812.4);
  });
});

describe('json format', () => {
  const station: StationConfig = {
    id: 'diy',
    name: 'DIY',
    format: 'json',
    topic: 'diy/state',
    fields: {
      temperature: { key: 'sensors.t', unit: 'F' },
      precipitation_rate: 'rate',
      rain_total: { key: 'rain', unit: 'in' },
    },
    timestampKey: 'ts',
  };

  it('maps configured keys (dotted paths) and units, and reads the timestamp key', () => {
    const payload = JSON.stringify({ sensors: { t: 68 }, rate: '1.5', rain: 2, ts: '2026-05-01T10:00:00Z' });
    const r = parsedReading(parseStationMessage(station, 't', payload, context));
    expect(r.values.temperature).toBeCloseTo(20, 9);
    expect(r.values.precipitation_rate).toBe(1.5);
    expect(r.rainCounters).toEqual([{ key: 'json/rain', totalMm: 50.8 }]);
    expect(r.payloadTimeMs).toBe(Date.parse('2026-05-01T10:00:00Z'));
  });

  it('rejects a payload whose timestamp key is missing', () => {
    expect(parseStationMessage(station, 't', JSON.stringify({ sensors: { t: 68 } }), context)).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/timestamp key "ts"/),
    });
  });
});

describe('fields format', () => {
  it('takes the field from the last topic level', () => {
    const station: StationConfig = { id: 'g', name: 'G', format: 'fields', topic: 'garden/+' };
    expect(parsedReading(parseStationMessage(station, 'garden/temperature', ' 12.5 ', context)).values.temperature).toBe(12.5);
    expect(parsedReading(parseStationMessage(station, 'garden/rain_total', '3.2', context)).rainCounters[0]?.totalMm).toBe(3.2);
    expect(parseStationMessage(station, 'garden/battery', '3.2', context).kind).toBe('ignored');
    expect(parseStationMessage(station, 'garden/temperature', 'warm', context).kind).toBe('rejected');
  });

  it('uses an explicit topic map and unit overrides', () => {
    const station: StationConfig = {
      id: 'g',
      name: 'G',
      format: 'fields',
      topic: 'sensors/#',
      fields: { 'sensors/out/t_f': 'temperature', 'sensors/wind': 'wind_speed' },
      units: { temperature: 'F', wind_speed: 'm/s' },
    };
    expect(parsedReading(parseStationMessage(station, 'sensors/out/t_f', '32', context)).values.temperature).toBe(0);
    expect(parsedReading(parseStationMessage(station, 'sensors/wind', '10', context)).values.wind_speed).toBe(36);
    expect(parseStationMessage(station, 'sensors/other', '1', context).kind).toBe('ignored');
  });
});

describe('timestamps that are not times', () => {
  it('never throws on absurd timestamps and falls back or rejects cleanly', async () => {
    const { parseTimestamp, resolveReadingTime } = await import('../../src/ingest/time.js');
    for (const raw of [
      1e308,
      '1e308',
      '99999999999999999999',
      -1,
      0,
      'yesterday',
      '9999-99-99 99:99:99',
      '275760-09-13T00:00:00Z',
      {},
      null,
    ]) {
      expect(() => parseTimestamp(raw, 'Europe/Berlin')).not.toThrow();
    }
    expect(parseTimestamp(1e308, 'UTC')).toBeUndefined();
    expect(resolveReadingTime(Number.NaN, Date.now())).toEqual({ ok: false, reason: 'timestamp is not a valid time' });
    // Two days ahead of our clock: refused, unless our clock is known not to be NTP-set yet (then kept, at arrival).
    const arrival = Date.parse('2026-06-01T12:00:00Z');
    expect(resolveReadingTime(arrival + 2 * 86_400_000, arrival)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/more than 2 minutes in the future/),
    });
    expect(resolveReadingTime(arrival + 2 * 86_400_000, arrival, true)).toEqual({ ok: true, timeMs: arrival, source: 'arrival' });
    expect(resolveReadingTime(arrival - 60_000, arrival, true)).toEqual({ ok: true, timeMs: arrival - 60_000, source: 'payload' });
    const station: StationConfig = { id: 'd', name: 'D', format: 'json', topic: 'd', fields: { temperature: 't' }, timestampKey: 'ts' };
    expect(parseStationMessage(station, 'd', JSON.stringify({ t: 1, ts: 1e300 }), context).kind).toBe('rejected');
    const weewx: StationConfig = { id: 'w', name: 'W', format: 'weewx', topic: 'w' };
    expect(
      parsedReading(parseStationMessage(weewx, 'w', JSON.stringify({ outTemp_C: '1', dateTime: '1e999' }), context)).payloadTimeMs,
    ).toBeUndefined();
  });
});
