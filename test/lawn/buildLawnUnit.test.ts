/** The lawn memory's settings: built from the configuration, off when disabled, bad values named. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { lawnMemoryUnits } from '../../src/lawn/buildLawnUnit.js';
import { LawnMemoryUnit } from '../../src/lawn/lawnUnit.js';
import type { Database } from '../../src/store/database.js';
import { systemClock } from '../../src/util/clock.js';
import { silentLogger } from '../helpers/mqttHarness.js';

const database = {} as Database; // not touched before start()

describe('lawn memory settings', () => {
  it('builds one unit by default and none when disabled', () => {
    expect(lawnMemoryUnits(loadConfig({ env: {} }), database, silentLogger, systemClock)[0]).toBeInstanceOf(LawnMemoryUnit);
    expect(lawnMemoryUnits(loadConfig({ env: { MOWABILITY_LAWN_MEMORY_ENABLED: 'false' } }), database, silentLogger, systemClock)).toEqual([]);
  });

  it('names a bad noise-hours value and the expected form', () => {
    expect(() => loadConfig({ env: { MOWABILITY_LAWN_MEMORY_NOISE_HOURS: '8pm-7am' } })).toThrow(/lawnMemory\.noiseHours.*HH:MM-HH:MM/s);
    expect(loadConfig({ argv: ['--lawn-memory-noise-hours=20:00-07:00'], env: {} }).lawnMemory.noiseHours).toBe('20:00-07:00');
  });
});
