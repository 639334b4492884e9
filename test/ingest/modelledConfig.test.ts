/**
 * The settings of modelled stations: format "open-meteo" needs a location and nothing about
 * hardware; MOWABILITY_LOCATION adds the modelled station "home" and validates its coordinates;
 * gapFill is checked key by key; the modelled station gets its forecast from the same request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { historyOptionsFor } from '../../src/config/historyOptions.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationsProblems as problemsOf } from '../../src/ingest/stationConfig.js';
import type { Database } from '../../src/store/database.js';
import { forecastUnitOf } from '../forecast/forecastUnitOf.js';
import { parseLocationSetting } from '../../src/ingest/modelledConfig.js';
import { parseStationMessage } from '../../src/ingest/parse.js';

const base = { id: 'home', name: 'Home', format: 'open-meteo' };
/** With the units' keys (`gapFill` is the modelled module's), as loadConfig checks them. */
const stationsProblems = (stations: unknown) => problemsOf(stations, unitStationKeys(stationUnitConfigs()));

describe('modelled station settings', () => {
  it('needs a location and refuses hardware keys', () => {
    expect(stationsProblems([base]).join('\n')).toMatch(/stations\[0\] \("home"\)\.location is required for format "open-meteo"/);
    expect(
      stationsProblems([{ ...base, location: { latitude: 52.5, longitude: 13.4 }, topic: 'x', fields: { temperature: 't' } }]).join('\n'),
    ).toMatch(/topic is not used by format "open-meteo"[\s\S]*fields is only used|fields is not used/);
    expect(stationsProblems([{ ...base, location: { latitude: 95, longitude: 13.4 } }]).join('\n')).toMatch(
      /location\.latitude must be a number from -90 to 90/,
    );
    expect(stationsProblems([{ ...base, location: { latitude: 52.5, longitude: 13.4 } }])).toEqual([]);
  });

  it('checks gapFill', () => {
    const station = { id: 'g', name: 'G', format: 'json', topic: 'g', fields: { temperature: 't' } };
    expect(stationsProblems([{ ...station, gapFill: { source: 'open-meteo' } }]).join('\n')).toMatch(
      /gapFill\.source "open-meteo" needs the station's "location"/,
    );
    expect(
      stationsProblems([
        { ...station, location: { latitude: 1, longitude: 2 }, gapFill: { source: 'dwd', fields: ['rain_24h'], extra: 1 } },
      ]),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/gapFill\.extra is not allowed/),
        expect.stringMatching(/gapFill\.source must be "open-meteo"/),
        expect.stringMatching(/gapFill\.fields must be a non-empty list of soil_moisture/),
      ]),
    );
    expect(stationsProblems([{ ...station, location: { latitude: 1, longitude: 2 }, gapFill: 'yes' }]).join('\n')).toMatch(
      /gapFill must be an object/,
    );
    expect(
      stationsProblems([
        { ...station, location: { latitude: 1, longitude: 2 }, gapFill: { source: 'open-meteo', fields: ['soil_moisture'] } },
      ]),
    ).toEqual([]);
    expect(
      stationsProblems([{ ...station, location: { latitude: 1, longitude: 2 }, gapFill: { source: 'open-meteo', rain: 'model' } }]),
    ).toEqual([]);
    expect(
      stationsProblems([{ ...station, location: { latitude: 1, longitude: 2 }, gapFill: { source: 'open-meteo', rain: 'broken' } }]).join(
        '\n',
      ),
    ).toMatch(/gapFill\.rain must be "gauge" \(the station's rain gauge, the default\) or "model"/);
  });

  it('adds the modelled station "home" for MOWABILITY_LOCATION, with its forecast, an hourly history gap and no messages', () => {
    const config = loadConfig({ env: { MOWABILITY_LOCATION: ' 52.52, 13.41, 38 ' }, units: stationUnitConfigs() });
    expect(config.stations).toEqual([
      {
        id: 'home',
        name: 'Home (modelled)',
        format: 'open-meteo',
        topic: 'mowability-modelled/home',
        location: { latitude: 52.52, longitude: 13.41, elevation: 38 },
      },
    ]);
    // Its forecast is Open-Meteo's without a `forecast` key (the forecast module's default for a modelled station).
    expect(forecastUnitOf(config, {} as Database, { now: () => 0 }).detail('home', 0)).toMatchObject({
      source: 'open-meteo',
      available: false,
    });
    const station = config.stations[0]!;
    expect(historyOptionsFor(config, station).maxGapMinutes).toBe(130);
    expect(parseStationMessage(station, station.topic, '{"temperature": 20}', { timeZone: 'UTC' })).toMatchObject({ kind: 'ignored' });
    expect(loadConfig({ env: {} }).stations).toEqual([]);
  });

  it('refuses coordinates that are not', () => {
    expect(() => loadConfig({ env: { MOWABILITY_LOCATION: '52.52' } })).toThrow(/location.*latitude,longitude/);
    expect(() => loadConfig({ env: { MOWABILITY_LOCATION: '152.52,13' } })).toThrow(/latitude 152\.52 must be from -90 to 90/);
    expect(parseLocationSetting('52,200')).toMatch(/longitude 200/);
    expect(parseLocationSetting('52,13,9999')).toMatch(/elevation 9999/);
    expect(parseLocationSetting('a,b')).toMatch(/must be "latitude,longitude"/);
  });
});

describe('mowability status with a modelled station', () => {
  it('says the station is modelled', async () => {
    const { renderStatus } = await import('../../src/cli/statusReport.js');
    const station = {
      id: 'home',
      name: 'Home',
      format: 'open-meteo',
      last_reading_at: null,
      mowable: null,
      latest: {},
      history_minutes: 0,
      history_since: null,
      uploads_refused: [],
    };
    const text = renderStatus(
      { database: 'db', database_exists: true, stations: [station], unconfigured_with_history: [], unmatched_uploads: [] } as never,
      Date.now(),
    );
    expect(text).toContain('source:       modelled from Open-Meteo, not measured');
    expect(
      renderStatus(
        {
          database: 'db',
          database_exists: true,
          stations: [{ ...station, format: 'json' }],
          unconfigured_with_history: [],
          unmatched_uploads: [],
        } as never,
        Date.now(),
      ),
    ).not.toContain('modelled');
  });

  it('refuses MOWABILITY_LOCATION beside a station called home', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mow-location-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(
        file,
        JSON.stringify({ stations: [{ id: 'home', name: 'Home', format: 'open-meteo', location: { latitude: 1, longitude: 2 } }] }),
      );
      expect(() => loadConfig({ env: { MOWABILITY_CONFIG: file, MOWABILITY_LOCATION: '52.5,13.4' } })).toThrow(
        /a station with that id is configured already/,
      );
      expect(loadConfig({ env: { MOWABILITY_CONFIG: file } }).stations).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
