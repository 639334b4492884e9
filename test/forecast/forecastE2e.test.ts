/**
 * End to end, no internet: the embedded broker and the station pipeline with the
 * forecast unit fetching from a fake Open-Meteo server on loopback. The retained
 * state carries forecast.next_window, Home Assistant discovery announces the
 * forecast entities with valid device classes and units, rain expected within
 * the lead time holds mowable off, and GET /v1/stations/{id}/forecast returns
 * the same forecast; the full daemon (src/daemon.ts) serves it too, and after a
 * restart with the provider down it still serves the cached forecast.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon.js';
import type { StationForecastConfig } from '../../src/forecast/forecastSettings.js';
import { forecastUnitOf } from './forecastUnitOf.js';
import type { ForecastUnit } from '../../src/forecast/forecastUnit.js';
import { buildApp } from '../../src/http/app.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { AccessCache } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore } from '../../src/store/serviceStore.js';
import { haDiscoveryViolations } from '../helpers/haRules.js';
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
import { openMeteoDaemonConfig } from '../helpers/openMeteoDaemon.js';
import { FakeOpenMeteo, fixtureStartMs } from './fakeOpenMeteo.js';

const HOUR_MS = 3_600_000;
/** 10:00 UTC on the thunderstorm day: the storm's first wet hour starts at 15:00. */
const NOW = fixtureStartMs('afternoonThunderstorm') + 2 * HOUR_MS;

const garden: StationConfig & { forecast: StationForecastConfig } = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
  location: { latitude: 48.14, longitude: 11.58, elevation: 520 },
  forecast: { source: 'open-meteo', minJobMinutes: 90 },
};

/** The whole daemon's configuration on `garden`; every reading recomputes at once. */
function appConfig(fakeUrl: string, temp: { dir: string; dbPath: string }, extraEnv: Record<string, string> = {}) {
  return openMeteoDaemonConfig({
    temp,
    stations: [garden],
    openMeteoUrl: fakeUrl,
    env: { MOWABILITY_TIMEZONE: 'Europe/Berlin', MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0', ...extraEnv },
  });
}

describe('forecast end to end', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let fake: FakeOpenMeteo;
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    temp = mqttTempDir();
    fake = await FakeOpenMeteo.start();
    fake.fallback = { kind: 'fixture', name: 'afternoonThunderstorm' };
  });
  afterEach(async () => {
    await observer?.close();
    await daemon?.stop();
    observer = daemon = undefined;
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await fake.close();
    temp.cleanup();
  });

  it('says a refused redirect in the state, where the user looks, until a fetch succeeds', async () => {
    const clock = new FakeClock(NOW);
    // Another host than forecast.openMeteoUrl's: never asked (.invalid never resolves, RFC 2606).
    fake.fallback = { kind: 'redirect', location: 'http://elsewhere.invalid/v1/forecast' };
    const config = appConfig(fake.baseUrl, temp, { MOWABILITY_FORECAST_INTERVAL_MINUTES: '120' });
    const cacheDb = await Database.open(temp.dbPath);
    cleanups.push(() => cacheDb.close());
    const unit: ForecastUnit = forecastUnitOf(config, cacheDb, clock);
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ stations: [garden] }), clock, silentLogger, [unit]);
    observer = await RecordingClient.connect(daemon.port);
    await observer.client.subscribeAsync('mowability/garden/state', { qos: 1 });
    daemon.service.acceptReading('garden', reading({ temperature: 22, humidity: 50, wind_speed: 6, precipitation_rate: 0 }), 'test');
    await waitUntil(() => unit.stats().forecastFetchErrors >= 1, 'the refused redirect');
    // The next recompute (a reading) carries it.
    daemon.service.acceptReading('garden', reading({ temperature: 22, humidity: 51, wind_speed: 6, precipitation_rate: 0 }), 'test');
    const state = () => observer!.json('mowability/garden/state') as { forecast_problem?: string; forecast?: unknown } | undefined;
    await waitUntil(() => state()?.forecast_problem !== undefined, 'the problem in the state');
    expect(state()!.forecast_problem).toBe(
      'HTTP 302 redirect to another host (elsewhere.invalid) refused; set forecast.openMeteoUrl to the server that answers',
    );
  });

  it('publishes the forecast in the state, announces its entities, and serves it over HTTP', async () => {
    const clock = new FakeClock(NOW);
    // Stale after 3 × 2 h: the hold below is still in force 4 h 50 min after the fetch.
    const config = appConfig(fake.baseUrl, temp, {
      MOWABILITY_FORECAST_RAIN_LEAD_MINUTES: '20',
      MOWABILITY_FORECAST_INTERVAL_MINUTES: '120',
    });
    // The unit's cache uses its own connection to the daemon's database file (WAL allows both).
    const cacheDb = await Database.open(temp.dbPath);
    cleanups.push(() => cacheDb.close());
    const unit: ForecastUnit = forecastUnitOf(config, cacheDb, clock);
    const mqttConfig = testMqttConfig({ stations: [garden], station: { mowableOnDelayMinutes: 0 } });
    daemon = await startMqttDaemon(temp.dbPath, mqttConfig, clock, silentLogger, [unit]);
    observer = await RecordingClient.connect(daemon.port);
    await observer.client.subscribeAsync(['mowability/garden/state', 'homeassistant/+/+/config'], { qos: 1 });

    expect(
      daemon.service.acceptReading('garden', reading({ temperature: 22, humidity: 50, wind_speed: 6, precipitation_rate: 0 }), 'test'),
    ).toBe('accepted');
    const state = () =>
      observer!.json('mowability/garden/state') as
        { forecast?: Record<string, unknown>; mowable?: boolean; mowable_reason?: string; last_reading_at?: string | null } | undefined;
    // The fetch may finish before or after the reading: wait for a state with both.
    await waitUntil(() => Boolean(state()?.forecast?.fetched_at) && Boolean(state()?.last_reading_at), 'the forecast in the state');
    const forecast = state()!.forecast!;
    expect(forecast).toMatchObject({
      source: 'open-meteo',
      stale: false,
      min_job_minutes: 90,
      // The storm's first wet hour (15:00-16:00) starts 5 h from now.
      rain_expected_in_minutes: 300,
      next_window: { start: new Date(NOW).toISOString(), end: new Date(NOW + 4 * HOUR_MS).toISOString() },
      mowable_for_minutes: 240,
      attribution: 'Weather data by Open-Meteo.com (CC BY 4.0)',
    });
    expect(forecast.hours).toHaveLength(48);
    expect(fake.requests[0]!.url.searchParams.get('latitude')).toBe('48.14');
    expect(state()!.mowable).toBe(true);

    // Discovery: the forecast entities, valid by HA's rules.
    const keys = ['next_window_start', 'next_window_end', 'mowable_for', 'rain_expected_in', 'forecast_source', 'forecast_updated'];
    await waitUntil(
      () => keys.every((key) => observer!.json(`homeassistant/sensor/mowability_garden_${key}/config`) !== undefined),
      'the forecast entities',
    );
    for (const key of keys) {
      const topic = `homeassistant/sensor/mowability_garden_${key}/config`;
      expect(haDiscoveryViolations(topic, observer.json(topic) as Record<string, unknown>)).toEqual([]);
    }
    expect(observer.json('homeassistant/sensor/mowability_garden_next_window_start/config')).toMatchObject({ device_class: 'timestamp' });
    expect(observer.json('homeassistant/sensor/mowability_garden_mowable_for/config')).toMatchObject({
      device_class: 'duration',
      unit_of_measurement: 'min',
    });
    const stale = 'homeassistant/binary_sensor/mowability_garden_forecast_stale/config';
    await waitUntil(() => observer!.json(stale) !== undefined, 'the stale entity');
    expect(haDiscoveryViolations(stale, observer.json(stale) as Record<string, unknown>)).toEqual([]);

    // HTTP: the same forecast, with the same key rules as /v1/calculate.
    const store = new ServiceStore(daemon.database, clock);
    const access = new AccessCache({ database: daemon.database, store, logger: silentLogger, pollIntervalMs: 50 });
    await access.start();
    const { key } = await store.addKey('tester');
    await waitUntil(() => access.lookupKey(key) !== undefined, 'the key');
    const app = await buildApp({ config, store, access, logger: silentLogger, clock, unitRoutes: unit.routes! });
    try {
      const ok = await app.inject({ url: '/v1/stations/garden/forecast', headers: { authorization: `Bearer ${key}` } });
      expect(ok.statusCode).toBe(200);
      const body = ok.json() as { status: string; mfi: Record<string, unknown> & { hours: Array<Record<string, unknown>> } };
      expect(body.status).toBe('ok');
      expect(body.mfi.next_window).toEqual(forecast.next_window);
      expect(body.mfi.hours[0]!.input_source).toMatchObject({ temperature: 'observed', rain_1h: 'forecast' });
      expect((await app.inject({ url: '/v1/stations/garden/forecast' })).statusCode).toBe(401);
      // A key in the URL needs the GET permission, as on /v1/calculate.
      expect((await app.inject({ url: `/v1/stations/garden/forecast?api_key=${key}` })).statusCode).toBe(405);
      const unknown = await app.inject({ url: '/v1/stations/nowhere/forecast', headers: { authorization: `Bearer ${key}` } });
      expect(unknown.json()).toEqual({ status: 'error', mfi: null, message: 'Unknown station.' });
      const spec = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
      expect(spec.paths['/v1/stations/{id}/forecast']).toBeDefined();
    } finally {
      await app.close();
      await access.stop();
    }

    // Four hours and 50 minutes on, rain is expected within the 20-minute lead: mowable is held off.
    clock.advance(4 * HOUR_MS + 50 * 60_000);
    daemon.service.acceptReading('garden', reading({ temperature: 23, humidity: 52, wind_speed: 7, precipitation_rate: 0 }), 'test');
    await waitUntil(() => state()?.mowable === false, 'the rain_expected hold');
    expect(state()!.mowable_reason).toBe('rain is expected in 10 min (forecast)');

    // Past three intervals without a new fetch the forecast is stale: shown as such, no longer holding mowable.
    clock.advance(80 * 60_000);
    daemon.service.acceptReading('garden', reading({ temperature: 22, humidity: 55, wind_speed: 5, precipitation_rate: 0 }), 'test');
    await waitUntil(() => state()?.forecast?.stale === true, 'the stale forecast');
    expect(state()!.mowable_reason).not.toMatch(/forecast/);
  });

  it('runs in the daemon, and a restart with the provider down keeps the cached forecast', async () => {
    const clock = { now: () => NOW };
    const db = await Database.open(temp.dbPath);
    const { key } = await new ServiceStore(db, clock).addKey('tester');
    await db.close();
    const config = appConfig(fake.baseUrl, temp);
    const get = async (address: string) => {
      const response = await fetch(`${address}/v1/stations/garden/forecast`, { headers: { authorization: `Bearer ${key}` } });
      return {
        status: response.status,
        body: (await response.json()) as { mfi: { fetched_at: string | null; next_window: unknown; stale: boolean } | null },
      };
    };

    const first = await startDaemon({ config, logger: silentLogger, clock });
    let fetchedAt: string | null = null;
    try {
      await waitUntil(async () => (await get(first.httpAddress)).body.mfi?.fetched_at != null, 'the first forecast over HTTP');
      const { body } = await get(first.httpAddress);
      fetchedAt = body.mfi!.fetched_at;
      expect(body.mfi!.stale).toBe(false);
    } finally {
      await first.stop();
    }

    fake.fallback = { kind: 'status', status: 503 };
    const requestsBefore = fake.requests.length;
    const second = await startDaemon({ config, logger: silentLogger, clock });
    try {
      const { status, body } = await get(second.httpAddress);
      expect(status).toBe(200);
      expect(body.mfi!.fetched_at).toBe(fetchedAt);
      expect(body.mfi!.stale).toBe(false);
      // The cached forecast is younger than one interval: no fetch at start.
      expect(fake.requests.length).toBe(requestsBefore);
    } finally {
      await second.stop();
    }
  });
});
