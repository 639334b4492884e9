/**
 * The lawn memory unit as the lawn and status-page tests build it: a loam lawn cut by a robot
 * (cool-season turf), night quiet hours in Berlin with a 30-minute margin, growth at 4 cm and the
 * default factor, and saves and polls an hour apart (the tests drive both). A test passes its
 * stations, database and clock, and overrides only what it is about.
 */
import { LawnMemoryUnit, type LawnUnitOptions } from '../../src/lawn/lawnUnit.js';
import type { Database } from '../../src/store/database.js';
import { LawnMemoryStore } from '../../src/store/lawnMemoryStore.js';
import { silentLogger } from './mqttHarness.js';

export type TestLawnOptions = Pick<LawnUnitOptions, 'stations' | 'now'> &
  Partial<Omit<LawnUnitOptions, 'quiet' | 'store'>> & { database: Database; quiet?: Partial<LawnUnitOptions['quiet']> };

export function testLawnUnit({ quiet, database, ...options }: TestLawnOptions): LawnMemoryUnit {
  return new LawnMemoryUnit({
    store: new LawnMemoryStore(database),
    logger: silentLogger,
    baseTopic: 'mowability',
    lawn: { soilType: 'loam', mowerClass: 'robot', turfType: 'cool_season' },
    growth: { cutHeightCm: 4, growthFactor: 1 },
    saveIntervalMs: 3_600_000,
    pollIntervalMs: 3_600_000,
    ...options,
    quiet: { night: true, marginMinutes: 30, noise: null, sundays: false, timeZone: 'Europe/Berlin', ...quiet },
  });
}
