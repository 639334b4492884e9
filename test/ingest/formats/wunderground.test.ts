import { describe, expect, it } from 'vitest';
import { formFields } from '../../../src/ingest/formats/uploadFields.js';
import { parseWundergroundUpload } from '../../../src/ingest/formats/wunderground.js';
import { parseStationMessage } from '../../../src/ingest/parse.js';
import type { StationConfig } from '../../../src/ingest/types.js';
import { F_TO_C, INCH, MPH, wundergroundRequest } from '../../helpers/uploadPayloads.js';
import { near, parsedReading } from '../../helpers/mqttPayloads.js';

const station: StationConfig = { id: 'pws', name: 'PWS', format: 'wunderground', topic: 'mowability-upload/pws' };

describe('Weather Underground upload protocol', () => {
  it("reads the protocol page's sample request: dateutc with '+' and %3A, rainin as the hourly rate", () => {
    const r = parsedReading(parseWundergroundUpload(station, formFields(wundergroundRequest('wunderground-get__wu-protocol__sample.txt'))));
    expect(r.values).toMatchObject({
      temperature: near(F_TO_C(70)),
      humidity: 90,
      dew_point: near(F_TO_C(68.2)),
      wind_speed: near(12 * MPH),
      wind_gusts: near(12 * MPH),
      precipitation_rate: 0,
    });
    expect(r.rainCounters).toEqual([]);
    expect(r.payloadTimeMs).toBe(Date.parse('2000-01-01T10:32:35Z'));
  });

  it('reads every field the daemon uses, in their units', () => {
    const r = parsedReading(
      parseWundergroundUpload(station, formFields(wundergroundRequest('wunderground-get__wu-protocol__all-fields.txt'))),
    );
    expect(r.values).toMatchObject({
      temperature: near(F_TO_C(61.3)),
      humidity: 72,
      dew_point: near(F_TO_C(52.1)),
      wind_speed: near(5.6 * MPH),
      wind_gusts: near(9.2 * MPH),
      precipitation_rate: near(0.04 * INCH),
      solar: 312.5,
      soil_temperature: near(F_TO_C(55.4)),
      soil_moisture: 33,
    });
    expect(r.rainCounters).toEqual([{ key: 'wunderground/dailyrainin', totalMm: expect.closeTo(0.12 * INCH, 6) }]);
    expect(r.payloadTimeMs).toBe(Date.parse('2026-11-23T13:55:00Z'));
    expect(r.dropped).toEqual([]);
  });

  it('reads the Ambient ObserverIP capture (dateutc=now: the arrival time counts), yearly counter before daily', () => {
    const r = parsedReading(
      parseWundergroundUpload(station, formFields(wundergroundRequest('ecowitt-http__ecowitt2mqtt__payload_wunderground.json'))),
    );
    expect(r.values).toMatchObject({
      temperature: near(F_TO_C(89.42)),
      humidity: 54,
      dew_point: near(F_TO_C(70.7)),
      wind_speed: 0,
      wind_gusts: near(9.17 * MPH),
      precipitation_rate: 0,
      solar: 732.04,
    });
    expect(r.rainCounters).toEqual([{ key: 'wunderground/yearlyrainin', totalMm: expect.closeTo(4.831 * INCH, 6) }]);
    expect(r.payloadTimeMs).toBeUndefined();
  });

  it("prefers Ambient's rainratein and totalrainin", () => {
    const r = parsedReading(parseWundergroundUpload(station, { rainin: '0.5', rainratein: '0.1', dailyrainin: '0.2', totalrainin: '10' }));
    expect(r.values.precipitation_rate).toBeCloseTo(2.54, 6);
    expect(r.rainCounters).toEqual([{ key: 'wunderground/totalrainin', totalMm: 254 }]);
  });

  it('refuses a request with no weather or a broken dateutc; the credentials never enter the fingerprint', () => {
    expect(parseWundergroundUpload(station, { ID: 'K', PASSWORD: 'p', action: 'updateraw' }).kind).toBe('rejected');
    expect(parseWundergroundUpload(station, { tempf: '50', dateutc: '2026-13-45 99:00:00' }).kind).toBe('rejected');
    const r = parsedReading(parseWundergroundUpload(station, { ID: 'K', PASSWORD: 'hunter2', tempf: '50' }));
    expect(r.fingerprint).not.toContain('hunter2');
  });

  it('reads a query string relayed over MQTT', () => {
    const query = wundergroundRequest('wunderground-get__wu-protocol__all-fields.txt');
    const r = parsedReading(parseStationMessage(station, 'mowability-upload/pws', query, { timeZone: 'UTC' }));
    expect(r.values.humidity).toBe(72);
  });
});
