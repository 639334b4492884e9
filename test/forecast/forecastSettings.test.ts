/** A station's `forecast` setting: every mistake named with the station and key, and how to fix it. */
import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfiguration } from '../../src/config/load.js';
import type { Database } from '../../src/store/database.js';
import { forecastUnitOf } from './forecastUnitOf.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationsProblems as problemsOf } from '../../src/ingest/stationConfig.js';

/** The stations' problems with the units' keys, as loadConfig checks them (`forecast` is the forecast module's). */
const stationsProblems = (stations: unknown) => problemsOf(stations, unitStationKeys(stationUnitConfigs()));
const units = stationUnitConfigs();

const base = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };
const at = { latitude: 52.5, longitude: 13.4 };

describe('station forecast setting', () => {
  it.each([
    [{ location: at, forecast: { source: 'open-meteo' } }],
    [{ location: at, forecast: { source: 'open-meteo', minJobMinutes: 90 } }],
    [{ forecast: { source: 'mqtt', topic: 'ha/forecast/garden', minJobMinutes: 45 } }],
  ])('accepts %j', (extra) => {
    expect(stationsProblems([{ ...base, ...extra }])).toEqual([]);
  });

  it.each([
    [
      { forecast: 'open-meteo' },
      'stations[0] ("garden").forecast must be an object {"source": "open-meteo"} or {"source": "mqtt", "topic": "..."}',
    ],
    [{ forecast: { source: 'met.no' } }, 'stations[0] ("garden").forecast.source must be one of open-meteo, mqtt'],
    [
      { forecast: { source: 'open-meteo' } },
      'stations[0] ("garden").forecast.source "open-meteo" needs the station\'s "location" {"latitude": ..., "longitude": ...}',
    ],
    [
      { forecast: { source: 'mqtt' } },
      'stations[0] ("garden").forecast.topic is required for source "mqtt": the topic carrying the forecast JSON (docs/mqtt.md)',
    ],
    [
      { forecast: { source: 'mqtt', topic: 'ha/+/forecast' } },
      'stations[0] ("garden").forecast.topic must be a concrete topic (no wildcards)',
    ],
    [
      { location: at, forecast: { source: 'open-meteo', topic: 'x' } },
      'stations[0] ("garden").forecast.topic is only used by source "mqtt"',
    ],
    [
      { location: at, forecast: { source: 'open-meteo', minJobMinutes: 0 } },
      'stations[0] ("garden").forecast.minJobMinutes must be a whole number of minutes from 1 to 1440 (e.g. 90 for a robot mower, 45 for a walk-behind)',
    ],
    [
      { location: at, forecast: { source: 'open-meteo', lead: 5 } },
      'stations[0] ("garden").forecast.lead is not allowed (only source, topic, minJobMinutes)',
    ],
  ])('refuses %j', (extra, problem) => {
    expect(stationsProblems([{ ...base, ...extra }])).toEqual([problem]);
  });

  it('validates the service-level settings', () => {
    expect((loadConfig({ env: {}, units: stationUnitConfigs() }) as unknown as { forecast: unknown }).forecast).toEqual({
      openMeteoUrl: 'https://api.open-meteo.com',
      intervalMinutes: 60,
      timeoutSeconds: 15,
      retries: 3,
      rainLeadMinutes: 20,
      modelledIntervalMinutes: 15,
    });
    expect(() => loadConfig({ env: { MOWABILITY_FORECAST_OPEN_METEO_URL: 'ftp://example.org' }, units })).toThrow(
      /forecast\.openMeteoUrl.*http/,
    );
    expect(() => loadConfig({ env: { MOWABILITY_FORECAST_OPEN_METEO_URL: 'https://user:pw@example.org' }, units })).toThrow(
      /must not contain credentials/,
    );
    // Attack: credentials in a refused URL must not be echoed into the error (and so into logs).
    expect(() => loadConfig({ env: { MOWABILITY_FORECAST_OPEN_METEO_URL: 'https://user:s3cret@example.org' }, units })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
    );
    expect(() => loadConfig({ env: { MOWABILITY_FORECAST_INTERVAL_MINUTES: '0' }, units })).toThrow(/forecast\.intervalMinutes/);
  });

  it('a configuration loaded without the units never falls back to the real Open-Meteo: building the units says what is missing', () => {
    // Its MOWABILITY_FORECAST_OPEN_METEO_URL was never read: defaults here would send a test to the internet.
    const withoutUnits = loadConfiguration({ env: { MOWABILITY_FORECAST_OPEN_METEO_URL: 'http://127.0.0.1:9' } });
    expect(withoutUnits.unreadEnvironment).toEqual(['MOWABILITY_FORECAST_OPEN_METEO_URL']);
    const unread = withoutUnits.unreadEnvironment;
    expect(() => forecastUnitOf(withoutUnits.config, {} as Database, { now: () => 0 }, undefined, unread)).toThrow(
      /loaded without the station units' settings, so MOWABILITY_FORECAST_OPEN_METEO_URL went unread .*pass units: stationUnitConfigs\(\)/,
    );
    // A copy with other stations is checked the same; loaded with the units, the URL is the one given and nothing went unread.
    expect(() => forecastUnitOf({ ...withoutUnits.config, stations: [] }, {} as Database, { now: () => 0 }, undefined, unread)).toThrow(
      /loaded without the station units' settings/,
    );
    const loaded = loadConfiguration({ env: { MOWABILITY_FORECAST_OPEN_METEO_URL: 'http://127.0.0.1:9' }, units });
    expect(loaded.unreadEnvironment).toEqual([]);
    expect((loaded.config as unknown as { forecast: { openMeteoUrl: string } }).forecast.openMeteoUrl).toBe('http://127.0.0.1:9');
    expect(forecastUnitOf(loaded.config, {} as Database, { now: () => 0 }, undefined, loaded.unreadEnvironment)).toBeDefined();
  });
});
