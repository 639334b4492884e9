/**
 * The forecast unit with the MQTT forecast topic, through the embedded broker: a
 * Home Assistant-shaped message becomes the state's forecast; a bad one is
 * counted and ignored; a station without a forecast setting gets no forecast
 * fields and no forecast entities.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { StationForecastConfig } from '../../src/forecast/forecastSettings.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { Database } from '../../src/store/database.js';
import { forecastUnitOf, forecastUnitWithHolidays } from './forecastUnitOf.js';
import {
  FakeClock,
  mqttTempDir,
  reading,
  RecordingClient,
  silentLogger,
  startMqttDaemon,
  testMqttConfig,
  waitUntil,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const HOUR_MS = 3_600_000;
const fields = { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' };
const garden: StationConfig & { forecast: StationForecastConfig } = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields,
  forecast: { source: 'mqtt', topic: 'ha/forecast/garden', minJobMinutes: 45 },
};
const plain: StationConfig = { id: 'plain', name: 'Plain', format: 'json', topic: 'plain/weather', fields };

/** HA weather.get_forecasts entries: dry until 13:00, a shower 13:00-14:00, dry after. */
function haForecast(): { forecast: Array<Record<string, unknown>> } {
  return {
    forecast: Array.from({ length: 48 }, (_, i) => ({
      datetime: new Date(NOW + i * HOUR_MS).toISOString(),
      condition: i === 3 ? 'rainy' : 'sunny',
      temperature: 21,
      humidity: 50,
      dew_point: 10,
      wind_speed: 8,
      wind_gust_speed: 15,
      precipitation: i === 3 ? 4 : 0,
      precipitation_probability: i === 3 ? 90 : 0,
    })),
  };
}

describe('forecast unit with the MQTT forecast topic', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  let cacheDb: Database | undefined;

  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    await observer?.close();
    await daemon?.stop();
    await cacheDb?.close();
    observer = daemon = cacheDb = undefined;
    temp.cleanup();
  });

  it("turns a Home Assistant forecast into the state's forecast, and ignores a bad message", async () => {
    const clock = new FakeClock(NOW);
    const config = loadConfig({ env: { MOWABILITY_DB_PATH: temp.dbPath }, units: stationUnitConfigs() });
    cacheDb = await Database.open(temp.dbPath);
    const db = cacheDb;
    const unit = forecastUnitOf({ ...config, stations: [garden, plain] }, db, clock);
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ stations: [garden, plain] }), clock, silentLogger, [unit]);
    observer = await RecordingClient.connect(daemon.port);
    await observer.client.subscribeAsync(['mowability/+/state', 'homeassistant/+/+/config'], { qos: 1 });
    daemon.service.acceptReading('garden', reading({ temperature: 21, humidity: 50, wind_speed: 8, precipitation_rate: 0 }), 'test');
    daemon.service.acceptReading('plain', reading({ temperature: 21, humidity: 50, wind_speed: 8, precipitation_rate: 0 }), 'test');

    await observer.client.publishAsync('ha/forecast/garden', JSON.stringify(haForecast()), { qos: 1 });
    const state = (id: string) =>
      observer!.json(`mowability/${id}/state`) as (Record<string, unknown> & { forecast?: Record<string, unknown> }) | undefined;
    await waitUntil(() => Boolean(state('garden')?.forecast?.fetched_at), 'the MQTT forecast in the state');
    expect(state('garden')!.forecast).toMatchObject({
      source: 'mqtt',
      attribution: null,
      min_job_minutes: 45,
      rain_expected_in_minutes: 180,
      // Model 1.2: the 20-minute rain lead is not mowable time (1.1: 180 and a window to the rain hour).
      mowable_for_minutes: 160,
      next_window: { start: new Date(NOW).toISOString(), end: new Date(NOW + 3 * HOUR_MS - 20 * 60_000).toISOString() },
    });

    await observer.client.publishAsync('ha/forecast/garden', '{"forecast": "soon"}', { qos: 1 });
    await waitUntil(() => daemon!.service.stats().units.forecast?.forecastMessagesRejected === 1, 'the refused message counted');
    expect(state('garden')!.forecast).toMatchObject({ source: 'mqtt', rain_expected_in_minutes: 180 });

    // No forecast setting: nothing changes for that station.
    await waitUntil(() => state('plain')?.index_score !== undefined && state('plain')?.index_score !== null, "the plain station's state");
    expect(state('plain')).not.toHaveProperty('forecast');
    await waitUntil(
      () => observer!.json('homeassistant/sensor/mowability_garden_next_window_start/config') !== undefined,
      'the garden forecast entity',
    );
    expect(observer.json('homeassistant/sensor/mowability_plain_next_window_start/config')).toBeUndefined();

    // The forecast is cached: the row is there for a restart (written after the state is published).
    const cached = () =>
      db.get<{ source: string; fetched_at_ms: number }>("SELECT source, fetched_at_ms FROM forecast_cache WHERE station = 'garden'");
    await waitUntil(async () => (await cached()) !== undefined, 'the forecast in the cache table');
    expect(await cached()).toEqual({ source: 'mqtt', fetched_at_ms: NOW });

    // Within the minute every state carries the same compact form, kept by the station's memo, not made again.
    const first = unit.stateFragment('garden', clock.now())?.forecast;
    expect(first).toMatchObject({ source: 'mqtt' });
    expect(unit.stateFragment('garden', clock.now())?.forecast).toBe(first);
  });

  it('forecast never reached: says unavailable and publishes unknown (null), not 0 minutes', async () => {
    const clock = new FakeClock(NOW);
    const config = loadConfig({ env: { MOWABILITY_DB_PATH: temp.dbPath }, units: stationUnitConfigs() });
    cacheDb = await Database.open(temp.dbPath);
    const db = cacheDb;
    const unit = forecastUnitOf({ ...config, stations: [garden] }, db, clock);
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ stations: [garden] }), clock, silentLogger, [unit]);
    observer = await RecordingClient.connect(daemon.port);
    await observer.client.subscribeAsync('mowability/garden/state', { qos: 1 });
    daemon.service.acceptReading('garden', reading({ temperature: 21, humidity: 50, wind_speed: 8, precipitation_rate: 0 }), 'test');
    const state = () =>
      observer!.json('mowability/garden/state') as (Record<string, unknown> & { forecast?: Record<string, unknown> }) | undefined;
    await waitUntil(() => state()?.forecast !== undefined, 'the state with its forecast object');
    expect(state()!.forecast).toMatchObject({
      available: false,
      fetched_at: null,
      stale: true,
      next_window: null,
      mowable_for_minutes: null,
      rain_expected_in_minutes: null,
      hours: [],
    });
  });

  it('cuts the windows at public holidays: on Corpus Christi in Bavaria the first window opens at local midnight', async () => {
    const corpusChristi = Date.parse('2026-06-04T06:00:00Z');
    const clock = new FakeClock(corpusChristi);
    // The station has no location: without the time zone's night ban (on by default) the holiday alone decides.
    const loaded = loadConfig({
      env: {
        MOWABILITY_DB_PATH: temp.dbPath,
        MOWABILITY_LAWN_MEMORY_HOLIDAY_COUNTRY: 'DE',
        MOWABILITY_LAWN_MEMORY_HOLIDAY_REGION: 'BY',
        MOWABILITY_LAWN_MEMORY_NIGHT_BAN_ZONE_LOCATION: 'false',
      },
      units: stationUnitConfigs(),
    });
    const config = { ...loaded, timezone: 'Europe/Berlin', stations: [garden] };
    cacheDb = await Database.open(temp.dbPath);
    const db = cacheDb;
    const unit = await forecastUnitWithHolidays(config, db, clock);
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ stations: [garden] }), clock, silentLogger, [unit]);
    observer = await RecordingClient.connect(daemon.port);
    await observer.client.subscribeAsync('mowability/garden/state', { qos: 1 });
    daemon.service.acceptReading('garden', reading({ temperature: 21, humidity: 50, wind_speed: 8, precipitation_rate: 0 }), 'test');
    const dry = Array.from({ length: 48 }, (_, i) => ({
      datetime: new Date(corpusChristi + i * HOUR_MS).toISOString(),
      condition: 'sunny',
      temperature: 21,
      humidity: 50,
      dew_point: 10,
      wind_speed: 8,
      wind_gust_speed: 15,
      precipitation: 0,
      precipitation_probability: 0,
    }));
    await observer.client.publishAsync('ha/forecast/garden', JSON.stringify({ forecast: dry }), { qos: 1 });
    const state = () =>
      observer!.json('mowability/garden/state') as (Record<string, unknown> & { forecast?: Record<string, any> }) | undefined;
    await waitUntil(() => Boolean(state()?.forecast?.fetched_at), 'the forecast in the state');
    // 5 June 00:00 in Munich (CEST) is 4 June 22:00 UTC: the whole holiday is quiet, so no mowable time now.
    expect(state()!.forecast!.next_window.start).toBe('2026-06-04T22:00:00.000Z');
    expect(state()!.forecast!.mowable_for_minutes).toBe(0);
  });
});
