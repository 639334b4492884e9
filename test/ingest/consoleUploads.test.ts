/**
 * Real console uploads (test/fixtures/payloads, see its README): every date
 * form consoles send, the HP1000/HP1001/WH2600 metric names, -9999 for a
 * missing sensor, Ambient's PASSKEY body, and rate-only or counter-only rain.
 */
import { describe, expect, it } from 'vitest';
import { parseEcowittUpload } from '../../src/ingest/formats/ecowittHttp.js';
import { formFields } from '../../src/ingest/formats/uploadFields.js';
import { uploadTime } from '../../src/ingest/formats/uploadTime.js';
import { parseWundergroundUpload } from '../../src/ingest/formats/wunderground.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { F_TO_C, INCH, wundergroundRequest } from '../helpers/uploadPayloads.js';
import { parsedReading } from '../helpers/mqttPayloads.js';

const wu: StationConfig = { id: 'pws', name: 'PWS', format: 'wunderground', topic: 'mowability-upload/pws' };
const passkey: StationConfig = { id: 'amb', name: 'Ambient', format: 'ecowitt-http', topic: 'mowability-upload/amb' };

const fixture = (name: string) => formFields(wundergroundRequest(name));

describe('dateutc as consoles send it', () => {
  it.each([
    ['2016-1-4 21:2:35', '2016-01-04T21:02:35Z'],
    ['2016-04-19 04:42:35', '2016-04-19T04:42:35Z'],
    ['2018-06-20+13:39:00', '2018-06-20T13:39:00Z'],
    ['2016-4-30%2021:5:1', '2016-04-30T21:05:01Z'],
    ['2016-4-30%2021%3A5%3A1', '2016-04-30T21:05:01Z'],
    ['2026-11-23 13:55', '2026-11-23T13:55:00Z'],
    [' 2026-1-2T3:4:5 ', '2026-01-02T03:04:05Z'],
    ['2026-11-23T13:55:00+01:00', '2026-11-23T12:55:00Z'],
    ['1764000000', '2025-11-24T16:00:00Z'],
  ])('%s is %s', (raw, iso) => {
    expect(uploadTime(raw)).toBe(Date.parse(iso));
  });

  it('"now" in any case, an empty value or none: the arrival time counts', () => {
    for (const raw of ['now', 'NOW', ' Now ', '', undefined, null]) expect(uploadTime(raw)).toBeUndefined();
  });

  it('refuses what is not a time, naming the value', () => {
    for (const raw of ['yesterday', '2016-13-4 21:2:35', '2016-1-4 25:2:35', '2016-1-4', '%zz', '2016-1-4 21:2:35:9'])
      expect(uploadTime(raw)).toBe(false);
    expect(parseWundergroundUpload(wu, { tempf: '50', dateutc: '2016-1-4 21:61:00' })).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining('"2016-1-4 21:61:00"'),
    });
  });

  it('reads the unpadded date of a Fine Offset observer capture', () => {
    const r = parsedReading(parseWundergroundUpload(wu, fixture('wunderground-get__interceptor__observer-unpadded.txt')));
    expect(r.payloadTimeMs).toBe(Date.parse('2016-01-04T21:02:35Z'));
    expect(r.values.temperature).toBeCloseTo(F_TO_C(43.3), 6);
    expect(r.values.precipitation_rate).toBe(0);
    expect(r.rainCounters).toEqual([{ key: 'wunderground/yearlyrainin', totalMm: expect.closeTo(0.91 * INCH, 6) }]);
  });
});

describe('HP1000 / HP1001 / WH2600 metric names', () => {
  it('reads the HP1001 V2.2.2 capture in °C, %, km/h, mm/h, mm and lux', () => {
    const r = parsedReading(parseWundergroundUpload(wu, fixture('wunderground-get__interceptor__hp1001-metric.txt')));
    expect(r.values).toEqual({
      temperature: 1.4,
      humidity: 98,
      dew_point: 1.1,
      wind_speed: 0,
      wind_gusts: 0,
      precipitation_rate: 0,
      solar: expect.closeTo(1724.9 / 126.7, 3),
    });
    expect(r.rainCounters).toEqual([{ key: 'wunderground/yearlyrain', totalMm: 10.5 }]);
    expect(r.payloadTimeMs).toBe(Date.parse('2016-04-19T04:42:35Z'));
    expect(r.dropped).toEqual([]);
  });

  it('reads the .asp capture; metric names stay metric even for a station configured imperial', () => {
    const r = parsedReading(
      parseWundergroundUpload({ ...wu, units: 'imperial' }, fixture('wunderground-get__interceptor__metric-asp.txt')),
    );
    expect(r.values).toMatchObject({ temperature: 6.3, humidity: 80, dew_point: 3.1, wind_speed: 0, precipitation_rate: 0, solar: 0 });
    expect(r.payloadTimeMs).toBe(Date.parse('2016-04-30T21:05:01Z'));
  });

  it('a metric rain rate of 2.5 mm/h is 2.5 mm/h, and a daily counter in mm is read when no yearly one comes', () => {
    const r = parsedReading(parseWundergroundUpload(wu, { outtemp: '12.5', rainrate: '2.5', dailyrain: '4.2', windspeed: '18' }));
    expect(r.values).toEqual({ temperature: 12.5, precipitation_rate: 2.5, wind_speed: 18 });
    expect(r.rainCounters).toEqual([{ key: 'wunderground/dailyrain', totalMm: 4.2 }]);
  });
});

describe('missing sensors, Ambient, rate-only and counter-only bodies', () => {
  it('skips every -9999 and keeps what the console still measured (the rain gauge)', () => {
    const r = parsedReading(parseWundergroundUpload(wu, fixture('wunderground-get__interceptor__observer-9999.txt')));
    expect(r.values).toEqual({ precipitation_rate: 0 });
    expect(r.dropped).toEqual([]);
    expect(r.payloadTimeMs).toBe(Date.parse('2016-05-10T02:34:15Z'));
    expect(parseWundergroundUpload(wu, { tempf: '-9999', humidity: '-9999.0', dateutc: 'now' })).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining('-9999'),
    });
  });

  it("reads Ambient's PASSKEY body: hourlyrainin is its rain rate, totalrainin its counter, '+' in dateutc", () => {
    const r = parsedReading(parseEcowittUpload(passkey, fixture('ambient-get__interceptor__ambweather-passkey.txt')));
    expect(r.values.temperature).toBeCloseTo(F_TO_C(69.1), 6);
    expect(r.values.humidity).toBe(61);
    expect(r.values.precipitation_rate).toBe(0);
    expect(r.rainCounters).toEqual([{ key: 'ecowitt-http/totalrainin', totalMm: expect.closeTo(0.87 * INCH, 6) }]);
    expect(r.payloadTimeMs).toBe(Date.parse('2018-06-20T13:39:00Z'));
    expect(
      parsedReading(parseEcowittUpload(passkey, { tempf: '50', hourlyrainin: '0.1', rainratein: '0.2' })).values.precipitation_rate,
    ).toBeCloseTo(0.2 * INCH, 6);
  });

  it('a rate-only body gives the rate and no counter; a counter-only body the counter and no rate', () => {
    const rateOnly = parsedReading(parseWundergroundUpload(wu, fixture('wunderground-get__wu-protocol__sample.txt')));
    expect(rateOnly.values.precipitation_rate).toBe(0);
    expect(rateOnly.rainCounters).toEqual([]);
    const counterOnly = parsedReading(parseWundergroundUpload(wu, fixture('wunderground-get__wu-protocol__counter-only.txt')));
    expect(counterOnly.values.precipitation_rate).toBeUndefined();
    expect(counterOnly.rainCounters).toEqual([{ key: 'wunderground/dailyrainin', totalMm: expect.closeTo(0.12 * INCH, 6) }]);
    expect(counterOnly.payloadTimeMs).toBeUndefined();
  });
});
