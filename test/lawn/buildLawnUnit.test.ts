/**
 * The lawn memory as a station unit module: built from its own settings and the `mower` key, off when
 * disabled, every setting's key, environment variable and flag as before, bad values named.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { unitStationKeys } from '../../src/config/unitSettings.js';
import { stationsProblems } from '../../src/ingest/stationConfig.js';
import { stationUnitConfigs, stationUnits } from '../../src/daemon.js';
import { lawnMemorySettingsOf, lawnMemoryUnit } from '../../src/lawn/buildLawnUnit.js';
import { HolidayCalendar } from '../../src/lawn/holidays.js';
import { LawnMemoryUnit } from '../../src/lawn/lawnUnit.js';
import { MowerStateSources } from '../../src/lawn/mowerStateSource.js';
import { buildUnit } from '../../src/station/unitBuilder.js';
import { systemClock } from '../../src/util/clock.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { silentLogger } from '../helpers/mqttHarness.js';
import { garden } from './lawnHarness.js';
import type { LawnMemoryStore } from '../../src/store/lawnMemoryStore.js';

const store = {} as LawnMemoryStore; // not touched before start()
const load = (env: Record<string, string>, argv: string[] = []) => loadConfig({ env, argv, units: stationUnitConfigs() });
const build = (config: Parameters<typeof buildUnit>[1]['config'], withStore = true) =>
  buildUnit(
    lawnMemoryUnit,
    { config, logger: silentLogger, clock: systemClock, throttle: (log) => new LogThrottle(log) },
    { store: withStore ? store : undefined },
  );

describe('the lawn memory module', () => {
  it('is one line of stationUnits()', () => {
    expect(stationUnits().filter((entry) => entry.name === 'lawn')).toHaveLength(1);
  });

  it('builds the memory for every station by default, none when disabled or without a store', () => {
    const units = build({ ...load({}), stations: [garden, { ...garden, id: 'front' }] });
    expect(units).toHaveLength(1);
    expect(units[0]).toBeInstanceOf(LawnMemoryUnit);
    expect(units[0]!.entities?.(garden).length).toBeGreaterThan(0);
    expect(build(load({ MOWABILITY_LAWN_MEMORY_ENABLED: 'false' }))).toEqual([]);
    expect(build(load({}), false)).toEqual([]);
  });

  it('adds the holiday calendar first and the mower state source last when configured', () => {
    const config = {
      ...load({ MOWABILITY_LAWN_MEMORY_HOLIDAY_COUNTRY: 'DE' }),
      stations: [garden, { ...garden, id: 'back', mower: { topic: 'robbi/state' } }],
    };
    const units = build(config);
    expect(units.map((unit) => unit.constructor)).toEqual([HolidayCalendar, LawnMemoryUnit, MowerStateSources]);
    expect(units[2]!.stateFragment?.('back', 0)).toEqual({
      mower: { topic: 'robbi/state', state: null, mowing: false, mowing_minutes: 0 },
    });
    expect(units[2]!.stateFragment?.('garden', 0)).toBeUndefined();
  });

  it('reads its settings from the loaded configuration, or their defaults from a configuration without them', () => {
    expect(lawnMemorySettingsOf(load({ MOWABILITY_LAWN_MEMORY_POLL_SECONDS: '7' })).pollSeconds).toBe(7);
    expect(lawnMemorySettingsOf({}).pollSeconds).toBe(5);
  });
});

describe('lawn memory settings', () => {
  it('keeps the keys, environment variables and flags of the base schema', () => {
    expect(lawnMemorySettingsOf(load({ MOWABILITY_LAWN_MEMORY_CUT_HEIGHT_CM: '5' }, ['--lawn-memory-quiet-sundays']))).toMatchObject({
      cutHeightCm: 5,
      quietSundays: true,
    });
    expect(lawnMemorySettingsOf(load({}, ['--lawn-memory-noise-hours=20:00-07:00'])).noiseHours).toBe('20:00-07:00');
  });

  it('names a bad noise-hours value and the expected form', () => {
    expect(() => load({ MOWABILITY_LAWN_MEMORY_NOISE_HOURS: '8pm-7am' })).toThrow(/lawnMemory\.noiseHours.*HH:MM-HH:MM/s);
  });

  it('a region without its country is refused at load', () => {
    expect(() => load({ MOWABILITY_LAWN_MEMORY_HOLIDAY_REGION: 'BY' })).toThrow(ConfigError);
    expect(() => load({ MOWABILITY_LAWN_MEMORY_HOLIDAY_REGION: 'BY' })).toThrow(
      /"lawnMemory\.holidayRegion" = "BY" needs "lawnMemory\.holidayCountry"/,
    );
  });

  it('without the unit the station key is unknown', () => {
    const station = { ...garden, mower: { topic: 'robbi/state' } };
    expect(stationsProblems([station])).toEqual([expect.stringMatching(/^stations\[0\] \("garden"\)\.mower is not a station setting/)]);
    expect(stationsProblems([station], unitStationKeys(stationUnitConfigs()))).toEqual([]);
  });
});
