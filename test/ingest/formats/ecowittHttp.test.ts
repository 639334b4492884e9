import { describe, expect, it } from 'vitest';
import { parseEcowittUpload } from '../../../src/ingest/formats/ecowittHttp.js';
import { formFields } from '../../../src/ingest/formats/uploadFields.js';
import { parseStationMessage } from '../../../src/ingest/parse.js';
import type { StationConfig } from '../../../src/ingest/types.js';
import { ecowittBody, F_TO_C, INCH, MPH } from '../../helpers/uploadPayloads.js';
import { parsedReading } from '../../helpers/mqttPayloads.js';

const station: StationConfig = { id: 'gw', name: 'Gateway', format: 'ecowitt-http', topic: 'mowability-upload/gw' };

interface Expected {
  tempF: number;
  humidity: number;
  windMph?: number;
  gustMph?: number;
  solar?: number;
  rateIn?: number;
  counter: [key: string, inches: number];
  soilMoisture?: number;
  soilTempF?: number;
  dateutc: string;
}

/** Every captured Ecowitt-protocol body, with the values read off the capture by hand. */
const CAPTURES: ReadonlyArray<[string, Expected]> = [
  [
    'ambweather',
    {
      tempF: 53.8,
      humidity: 30,
      windMph: 4.5,
      gustMph: 6.9,
      solar: 39.02,
      rateIn: 0,
      counter: ['totalrainin', 48.811],
      dateutc: '2022-11-26T22:25:29Z',
    },
  ],
  [
    'gw1000bpro',
    {
      tempF: 93.2,
      humidity: 64,
      windMph: 20.89,
      gustMph: 1.12,
      solar: 264.61,
      rateIn: 0,
      counter: ['yearlyrainin', 4.441],
      dateutc: '2022-05-27T19:08:10Z',
    },
  ],
  // Edited upstream (values rewritten as metric); read as the protocol says: imperial.
  [
    'gw1000bpro_metric',
    {
      tempF: -4.4,
      humidity: 74,
      windMph: 32.4,
      gustMph: 1.8,
      solar: 264.61,
      rateIn: 0,
      counter: ['yearlyrainin', 112.8],
      dateutc: '2022-05-27T19:08:10Z',
    },
  ],
  [
    'gw1000pro',
    {
      tempF: 26.7,
      humidity: 27,
      windMph: 22.12,
      gustMph: 4.47,
      solar: 25.56,
      rateIn: 0,
      counter: ['totalrainin', 11.756],
      dateutc: '2021-10-13T23:15:45Z',
    },
  ],
  [
    'gw1100b',
    {
      tempF: 91.4,
      humidity: 48,
      rateIn: 0,
      counter: ['totalrainin', 48.504],
      soilMoisture: 40,
      soilTempF: 84.7,
      dateutc: '2021-08-23T23:13:41Z',
    },
  ],
  // Piezo gauge only (WS90): rate and counter come from it.
  [
    'gw2000a_1',
    {
      tempF: 74.5,
      humidity: 47,
      windMph: 1.34,
      gustMph: 2.24,
      solar: 0,
      rateIn: 0,
      counter: ['yrain_piezo', 0],
      dateutc: '2022-05-18T18:17:37Z',
    },
  ],
  // Tipping bucket and piezo: the bucket wins.
  [
    'gw2000a_2',
    {
      tempF: 59.7,
      humidity: 65,
      windMph: 2.24,
      gustMph: 3.8,
      solar: 0,
      rateIn: 0,
      counter: ['yearlyrainin', 3.909],
      soilMoisture: 53,
      dateutc: '2022-04-20T19:14:47Z',
    },
  ],
  [
    'gw2000a_3',
    {
      tempF: 51.44,
      humidity: 76,
      windMph: 1.79,
      gustMph: 4.25,
      solar: 0,
      rateIn: 0,
      counter: ['yrain_piezo', 23.264],
      dateutc: '2024-10-03T19:42:19Z',
    },
  ],
  [
    'gw2000a_4',
    {
      tempF: 51.44,
      humidity: 76,
      windMph: 1.79,
      gustMph: 4.25,
      solar: 0,
      rateIn: 0,
      counter: ['yrain_piezo', 23.264],
      dateutc: '2024-10-03T19:42:19Z',
    },
  ],
  [
    'pthp2550pro',
    {
      tempF: 35.2,
      humidity: 60,
      windMph: 2.7,
      gustMph: 6.9,
      solar: 174.81,
      rateIn: 0,
      counter: ['yearlyrainin', 11.61],
      soilMoisture: 22,
      dateutc: '2021-10-04T02:28:32Z',
    },
  ],
  [
    'unknown',
    {
      tempF: 89.06,
      humidity: 14,
      windMph: 0.89,
      gustMph: 1.12,
      solar: 264.61,
      rateIn: 0,
      counter: ['yearlyrainin', 4.441],
      dateutc: '2022-05-27T19:08:10Z',
    },
  ],
  [
    'wh2650a',
    {
      tempF: 76.28,
      humidity: 54,
      windMph: 1.12,
      gustMph: 2.24,
      solar: 642.38,
      rateIn: 0,
      counter: ['yearlyrainin', 0],
      dateutc: '2022-06-25T06:37:24Z',
    },
  ],
  [
    'ws2350',
    {
      tempF: 50.5,
      humidity: 71,
      windMph: 2.2,
      gustMph: 3.4,
      solar: 170.41,
      rateIn: 0,
      counter: ['totalrainin', 28.382],
      dateutc: '2022-11-03T08:50:44Z',
    },
  ],
  [
    'ws2900',
    {
      tempF: 22,
      humidity: 100,
      windMph: 6.9,
      gustMph: 9.2,
      solar: 0,
      rateIn: 0,
      counter: ['totalrainin', 14.89],
      dateutc: '2021-08-17T00:15:59Z',
    },
  ],
];

describe('Ecowitt "Customized" upload (protocol Ecowitt): every captured body', () => {
  it.each(CAPTURES)('%s: °F, mph, in and in/h become °C, km/h, mm and mm/h; dateutc is UTC', (name, expected) => {
    const r = parsedReading(parseEcowittUpload(station, formFields(ecowittBody(name))));
    expect(r.values.temperature).toBeCloseTo(F_TO_C(expected.tempF), 6);
    expect(r.values.humidity).toBe(expected.humidity);
    if (expected.windMph === undefined) expect(r.values.wind_speed).toBeUndefined();
    else expect(r.values.wind_speed).toBeCloseTo(expected.windMph * MPH, 6);
    if (expected.gustMph === undefined) expect(r.values.wind_gusts).toBeUndefined();
    else expect(r.values.wind_gusts).toBeCloseTo(expected.gustMph * MPH, 6);
    expect(r.values.solar).toBe(expected.solar);
    if (expected.rateIn === undefined) expect(r.values.precipitation_rate).toBeUndefined();
    else expect(r.values.precipitation_rate).toBeCloseTo(expected.rateIn * INCH, 6);
    expect(r.rainCounters).toHaveLength(1);
    expect(r.rainCounters[0]?.key).toBe(`ecowitt-http/${expected.counter[0]}`);
    expect(r.rainCounters[0]?.totalMm).toBeCloseTo(expected.counter[1] * INCH, 6);
    expect(r.values.soil_moisture).toBe(expected.soilMoisture);
    if (expected.soilTempF === undefined) expect(r.values.soil_temperature).toBeUndefined();
    else expect(r.values.soil_temperature).toBeCloseTo(F_TO_C(expected.soilTempF), 6);
    expect(r.values.dew_point).toBeUndefined();
    expect(r.rainDeltaMm).toBeUndefined();
    expect(r.payloadTimeMs).toBe(Date.parse(expected.dateutc));
    expect(r.dropped).toEqual([]);
  });

  it('keeps the PASSKEY and uptime out of the fingerprint, but not the time', () => {
    const fields = formFields(ecowittBody('gw1000bpro'));
    const base = parsedReading(parseEcowittUpload(station, fields)).fingerprint;
    expect(base).not.toContain('xxxxxxxx');
    expect(parsedReading(parseEcowittUpload(station, { ...fields, PASSKEY: 'other', runtime: '1' })).fingerprint).toBe(base);
    expect(parsedReading(parseEcowittUpload(station, { ...fields, dateutc: '2022-05-27 19:09:10' })).fingerprint).not.toBe(base);
  });

  it('reads the metric rewrite as metric when the station says units "metric"', () => {
    const r = parsedReading(parseEcowittUpload({ ...station, units: 'metric' }, formFields(ecowittBody('gw1000bpro_metric'))));
    expect(r.values.temperature).toBe(-4.4);
    expect(r.values.wind_speed).toBe(32.4);
    expect(r.rainCounters[0]?.totalMm).toBe(112.8);
  });

  it('takes the lowest soil channel present and skips -9999 and empty values', () => {
    const r = parsedReading(
      parseEcowittUpload(station, {
        tempf: '-9999',
        humidity: '',
        soilmoisture3: '31',
        soilmoisture5: '12',
        dateutc: '2024-10-03 19:42:19',
      }),
    );
    expect(r.values).toEqual({ soil_moisture: 31 });
    expect(r.dropped).toEqual([]);
  });

  it('refuses a body without weather or with a dateutc that is not a time, and drops implausible values', () => {
    expect(parseEcowittUpload(station, { PASSKEY: 'x', stationtype: 'GW2000A' }).kind).toBe('rejected');
    expect(parseEcowittUpload(station, { tempf: '50', dateutc: 'yesterday' })).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining('dateutc'),
    });
    const r = parsedReading(parseEcowittUpload(station, { tempf: '500', humidity: '50', dailyrainin: 'lots' }));
    expect(r.values).toEqual({ humidity: 50 });
    expect(r.dropped).toHaveLength(2);
    expect(r.payloadTimeMs).toBeUndefined();
  });

  it('reads the same body relayed over MQTT', () => {
    const r = parsedReading(parseStationMessage(station, 'mowability-upload/gw', ecowittBody('ws2900'), { timeZone: 'Europe/Berlin' }));
    expect(r.values.humidity).toBe(100);
    expect(r.payloadTimeMs).toBe(Date.parse('2021-08-17T00:15:59Z'));
  });
});
