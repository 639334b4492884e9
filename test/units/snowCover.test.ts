/**
 * The snow cover unit (src/units/snowCover.ts), the worked example of docs/units.md: its payloads,
 * its station key's validation and its setting, its state, hold, entity and route, and end to end
 * through the embedded broker as one line of stationUnits().
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { stationsProblems } from '../../src/ingest/stationConfig.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { buildUnit } from '../../src/station/unitBuilder.js';
import { parseSnowPayload, SnowCover, snowCoverUnit, SNOW_HOLD_CODE, type SnowStationSettings } from '../../src/units/snowCover.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { silentLogger, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { unitRoutesPlugin } from '../../src/http/unitRoutes.js';

const T0 = Date.parse('2026-01-10T08:00:00Z');
type Station = StationConfig & { snow?: SnowStationSettings };
const weather = {
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
} as const;
const garden: Station = { id: 'garden', name: 'Garden', ...weather, snow: { topic: 'garden/snow_depth' } };

function unit(minDepthCm = 1): SnowCover {
  return new SnowCover({
    stations: [{ id: 'garden', name: 'Garden', settings: { topic: 'garden/snow_depth', key: 'depth' } }],
    settings: { minDepthCm },
    throttle: new LogThrottle(silentLogger),
    now: () => T0,
  });
}

describe('snow cover payloads', () => {
  it('reads a depth in cm, a yes/no, or a JSON object holding one; refuses anything else', () => {
    expect(parseSnowPayload('12.5')).toEqual({ depthCm: 12.5 });
    expect(parseSnowPayload('ON')).toEqual({ lying: true });
    expect(parseSnowPayload('no')).toEqual({ lying: false });
    expect(parseSnowPayload('{"depth": 3}', 'depth')).toEqual({ depthCm: 3 });
    expect(parseSnowPayload('{"state": true}')).toEqual({ lying: true });
    for (const bad of ['-1', '5000', 'deep', '{"depth": 3}', '{', '[1]']) expect(parseSnowPayload(bad)).toBeUndefined();
  });
});

describe('the snow cover unit', () => {
  it('holds mowable off with an English and a German reason while snow lies, and shows the value in the state', () => {
    const snow = unit(2);
    expect(snow.mowableHold('garden')).toBeUndefined();
    expect(snow.stateFragment('garden')).toEqual({ snow: { topic: 'garden/snow_depth', lying: null, depth_cm: null, updated_at: null } });
    expect(snow.handle('garden', Buffer.from('{"depth": 1.5}'))).toBe(true);
    expect(snow.mowableHold('garden')).toBeUndefined();
    expect(snow.handle('garden', Buffer.from('{"depth": 7.5}'))).toBe(true);
    expect(snow.mowableHold('garden')).toEqual({
      code: SNOW_HOLD_CODE,
      reason: { en: 'snow is lying (7.5 cm): do not mow until it has thawed', de: 'Schnee liegt (7,5 cm): nicht mähen, bis er getaut ist' },
    });
    expect(snow.stateFragment('garden')).toEqual({
      snow: { topic: 'garden/snow_depth', lying: true, depth_cm: 7.5, updated_at: new Date(T0).toISOString() },
    });
    expect(snow.handle('garden', Buffer.from('{"depth": "viel"}'))).toBe(false);
    expect(snow.handle('other', Buffer.from('5'))).toBe(false);
    expect(snow.stats()).toEqual({ snowReceived: 3, snowAccepted: 2, snowRejected: 1 });
    expect(snow.stateFragment('other')).toBeUndefined();
  });

  it('adds a binary_sensor only to stations with a snow topic', () => {
    const snow = unit();
    expect(snow.entities({ id: 'garden' })).toEqual([expect.objectContaining({ component: 'binary_sensor', key: 'snow_cover' })]);
    expect(snow.entities({ id: 'other' })).toEqual([]);
  });

  it('answers GET /stations/{id}/snow with the last value, 404 for a station without one', async () => {
    const snow = unit();
    snow.handle('garden', Buffer.from('{"depth": "ON"}'));
    const app = Fastify();
    await app.register(unitRoutesPlugin(snow.routes), { prefix: '/v1' });
    const ok = await app.inject('/v1/stations/garden/snow');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      status: 'ok',
      station: 'garden',
      snow: { topic: 'garden/snow_depth', lying: true, depth_cm: null, updated_at: new Date(T0).toISOString() },
    });
    expect((await app.inject('/v1/stations/front/snow')).statusCode).toBe(404);
    await app.close();
  });
});

describe('snow cover configuration', () => {
  const keys = unitStationKeys(stationUnitConfigs());

  it('validates the station key "snow", naming the key and the fix', () => {
    expect(stationsProblems([garden], keys)).toEqual([]);
    expect(
      stationsProblems(
        [
          { ...garden, snow: { topic: 'garden/+', depth: 1 } },
          { ...garden, id: 'b', snow: 'garden/snow' },
        ],
        keys,
      ),
    ).toEqual([
      'stations[0] ("garden").snow.depth is not allowed (only topic and key)',
      'stations[0] ("garden").snow.topic must be a concrete topic (no wildcards): one station, one snow value',
      'stations[1] ("b").snow must be an object {"topic": "...", "key": "depth"} naming the MQTT topic that carries the snow depth in cm or a yes/no',
    ]);
  });

  it('loads snowCover.minDepthCm from the environment and refuses a bad one', () => {
    const units = stationUnitConfigs();
    const config = loadConfig({ env: { MOWABILITY_SNOW_COVER_MIN_DEPTH_CM: '5' }, units }) as unknown as {
      snowCover: { minDepthCm: number };
    };
    expect(config.snowCover.minDepthCm).toBe(5);
    expect(() => loadConfig({ env: { MOWABILITY_SNOW_COVER_MIN_DEPTH_CM: '0' }, units })).toThrow(ConfigError);
    // Without the unit the setting does not exist.
    expect(loadConfig({ env: {} })).not.toHaveProperty('snowCover');
  });

  it('is built from its own slices of the configuration only', () => {
    const built = buildUnit(snowCoverUnit, {
      config: { stations: [garden, { ...garden, id: 'front', snow: undefined }], mqtt: { baseTopic: 'mowability' } },
      logger: silentLogger,
      clock: { now: () => T0 },
      throttle: (log) => new LogThrottle(log),
    }) as SnowCover;
    expect(built.stateFragment('garden')?.snow.topic).toBe('garden/snow_depth');
    expect(built.stateFragment('front')).toBeUndefined();
  });
});

mqttTest('snow on the topic: the state reports it and mowable is false with the reason in English and German', async ({ mqtt }) => {
  const daemon = await mqtt.start(testMqttConfig({ stations: [garden] }));
  const observer = await mqtt.connect(daemon.port);
  await observer.client.subscribeAsync('mowability/+/state', { qos: 1 });
  const publisher = await mqtt.connect(daemon.port);
  await publisher.client.publishAsync('garden/weather', JSON.stringify({ temp: 21, rate: 0, hum: 55, wind: 8 }), { qos: 1 });
  await waitUntil(
    () => (observer.json('mowability/garden/state') as { snow?: { lying: unknown } } | undefined)?.snow?.lying === null,
    'a state without a snow value',
  );
  expect(String(observer.json('mowability/garden/state')?.mowable_reason_de)).not.toContain('Schnee');
  await publisher.client.publishAsync('garden/snow_depth', '12', { qos: 1, retain: true });
  await waitUntil(
    () => (observer.json('mowability/garden/state') as { snow?: { lying: unknown } } | undefined)?.snow?.lying === true,
    'snow in the state',
  );
  const state = observer.json('mowability/garden/state') as {
    mowable: boolean;
    mowable_reason: string;
    mowable_reason_de: string;
    snow: { lying: boolean; depth_cm: number };
  };
  expect(state.mowable).toBe(false);
  expect(state.snow).toMatchObject({ lying: true, depth_cm: 12 });
  expect(state.mowable_reason).toBe('snow is lying (12 cm): do not mow until it has thawed');
  expect(state.mowable_reason_de).toBe('Schnee liegt (12 cm): nicht mähen, bis er getaut ist');
  expect(daemon.service.stats().units['snow-cover']).toEqual({ snowReceived: 1, snowAccepted: 1, snowRejected: 0 });
});
