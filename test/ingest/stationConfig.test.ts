import { describe, expect, it } from 'vitest';
import { stationsProblems } from '../../src/ingest/stationConfig.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';

/** The station keys the units of stationUnits() own (irrigation, snow cover). */
const UNITS = unitStationKeys(stationUnitConfigs());

const valid = { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B', id: 65 } };

describe('station configuration', () => {
  it('accepts complete stations of every format', () => {
    expect(
      stationsProblems([
        valid,
        { id: 'davis', name: 'Davis', format: 'weewx', topic: 'weewx/loop', lawn: { soilType: 'clay', mowerClass: 'robot' } },
        { id: 'gw', name: 'GW', format: 'ecowitt2mqtt', topic: 'ecowitt2mqtt/gw', units: 'metric' },
        { id: 'diy', name: 'DIY', format: 'json', topic: 'diy', fields: { temperature: { key: 't', unit: 'F' } }, timestampKey: 'ts' },
        { id: 'f', name: 'F', format: 'fields', topic: 'garden/+', freshness: { maxAgeMinutes: 60, fields: { soil_moisture: 240 } } },
      ]),
    ).toEqual([]);
  });

  it('names the station and the key in every message', () => {
    const problems = stationsProblems([
      { ...valid, id: 'bad id', format: 'weatherlink' },
      { ...valid, id: 'b', topic: 'a/#/b', units: { temperature: 'mph' } },
      { ...valid, id: 'c', lawn: { soilType: 'peat' }, freshness: { maxAgeMinutes: 0 }, extra: 1 },
      { id: 'd', name: 'D', format: 'json', topic: 'x' },
      { ...valid, id: 'b' },
    ]);
    expect(problems).toContain(
      'stations[0] ("bad id").id must be a non-empty string of letters, digits, "_" and "-" (it becomes an MQTT topic level)',
    );
    expect(problems.some((p) => p.startsWith('stations[0] ("bad id").format must be one of rtl_433'))).toBe(true);
    expect(problems).toContain('stations[1] ("b").topic "#" is only allowed as the whole last level');
    expect(problems.some((p) => p.startsWith('stations[1] ("b").units.temperature must be one of C, F, K'))).toBe(true);
    expect(problems).toContain('stations[2] ("c").lawn.soilType must be one of sand, loam, clay');
    expect(problems).toContain('stations[2] ("c").freshness.maxAgeMinutes must be a number of minutes above 0');
    expect(problems.some((p) => p.startsWith('stations[2] ("c").extra is not a station setting'))).toBe(true);
    expect(problems.some((p) => p.startsWith('stations[3] ("d").fields is required for format "json"'))).toBe(true);
    expect(problems).toContain('stations[4] ("b").id is used by another station; ids must be unique');
  });

  it('refuses the id "bridge", whose topics the daemon publishes itself', () => {
    expect(stationsProblems([{ ...valid, id: 'bridge' }])).toEqual([
      'stations[0] ("bridge").id "bridge" is reserved for the daemon\'s own topics (<base>/bridge/...); choose another id',
    ]);
  });

  it('requires a "/+" topic or a map for the fields format', () => {
    expect(stationsProblems([{ id: 'f', name: 'F', format: 'fields', topic: 'garden/temp' }])[0]).toMatch(/must end in "\/\+"/);
  });
});

describe('station lawn and irrigation settings', () => {
  it('accepts a turf type and an irrigation topic with an optional JSON key', () => {
    expect(
      stationsProblems(
        [
          {
            ...valid,
            lawn: { soilType: 'sand', mowerClass: 'robot', turfType: 'warm_season' },
            irrigation: { topic: 'opensprinkler/station/+', key: 'state' },
          },
          { ...valid, id: 'b', irrigation: { topic: 'homeassistant/switch/garden_sprinkler/state' } },
          { ...valid, id: 'c', lawn: { soilType: 'loam', fieldCapacityPercent: 16.5 } },
        ],
        UNITS,
      ),
    ).toEqual([]);
  });

  it('knows "irrigation" only through the irrigation unit, which owns the key', () => {
    const station = { ...valid, irrigation: { topic: 'sprinkler' } };
    expect(stationsProblems([station], UNITS)).toEqual([]);
    expect(stationsProblems([station])).toEqual([
      expect.stringMatching(/^stations\[0\] \("garden"\)\.irrigation is not a station setting \(allowed: id, name, .*\)$/),
    ]);
  });

  it('refuses a field capacity outside the core range or not a number, naming the key and the range', () => {
    const problems = stationsProblems([
      { ...valid, lawn: { fieldCapacityPercent: 4.9 } },
      { ...valid, id: 'b', lawn: { fieldCapacityPercent: '28' } },
    ]);
    expect(problems).toEqual([
      'stations[0] ("garden").lawn.fieldCapacityPercent must be a number from 5 to 60 (volumetric water content at field capacity, %)',
      'stations[1] ("b").lawn.fieldCapacityPercent must be a number from 5 to 60 (volumetric water content at field capacity, %)',
    ]);
  });

  it('names the key of a bad turf type or irrigation block, with the allowed values', () => {
    const problems = stationsProblems(
      [
        { ...valid, lawn: { turfType: 'bermuda', cutHeight: 4 } },
        { ...valid, id: 'b', irrigation: 'sprinkler/state' },
        { ...valid, id: 'c', irrigation: { key: '', payloadOn: 'ON' } },
        { ...valid, id: 'd', irrigation: { topic: 'sprinkler/#/state' } },
      ],
      UNITS,
    );
    expect(problems).toEqual([
      'stations[0] ("garden").lawn.turfType must be one of cool_season, warm_season',
      'stations[0] ("garden").lawn.cutHeight is not allowed (only soilType, mowerClass, turfType, fieldCapacityPercent)',
      'stations[1] ("b").irrigation must be an object {"topic": "...", "key": "state"} naming the MQTT topic that reports sprinkler runs',
      'stations[2] ("c").irrigation.payloadOn is not allowed (only topic and key)',
      'stations[2] ("c").irrigation.topic is required: the MQTT topic (wildcards + and # allowed) that reports ON/OFF',
      'stations[2] ("c").irrigation.key must be a non-empty JSON key (the payload key holding ON/OFF in JSON payloads)',
      'stations[3] ("d").irrigation.topic "#" is only allowed as the whole last level',
    ]);
  });
});

describe('station location', () => {
  it('accepts latitude and longitude with an optional elevation', () => {
    expect(
      stationsProblems([
        { ...valid, location: { latitude: 52.52, longitude: 13.4, elevation: 34 } },
        { ...valid, id: 'b', location: { latitude: -33.9, longitude: 151.2 } },
      ]),
    ).toEqual([]);
  });

  it('names each bad key with its range, and both coordinates as required', () => {
    const problems = stationsProblems([
      { ...valid, location: { latitude: 91, longitude: 'east', altitude: 3 } },
      { ...valid, id: 'b', location: { longitude: 13 } },
      { ...valid, id: 'c', location: [52, 13] },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/location\.latitude.*from -90 to 90/),
      expect.stringMatching(/location\.longitude.*from -180 to 180/),
      expect.stringMatching(/location\.altitude.*not allowed \(only latitude, longitude, elevation\)/),
      expect.stringMatching(/\("b"\)\.location\.latitude is required/),
      expect.stringMatching(/\("c"\)\.location must be an object/),
    ]);
  });
});
