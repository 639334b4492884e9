/**
 * The station pipeline tells every unit about a wall-clock step (the unit contract's clockStepped):
 * the forecast and lawn units re-base their times with it. A unit that fails there costs only itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import type { ClockStep } from '../../src/util/clockWatch.js';
import { mqttTempDir, testMqttConfig } from '../helpers/mqttHarness.js';
import { startPipelineOnClocks } from './pipelineOnClocks.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

describe('clock steps reach the station units', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('hands each step to every unit, after a unit that threw on it too', async () => {
    const temp = mqttTempDir();
    const seen: ClockStep[] = [];
    const failing: StationUnit = {
      name: 'failing',
      clockStepped: () => {
        throw new Error('boom');
      },
    };
    const recording: StationUnit = { name: 'recording', clockStepped: (step) => seen.push(step) };
    const config = testMqttConfig({ stations: [garden], broker: { enabled: false } });
    const { pipeline, database, wall, monotonic, watch } = await startPipelineOnClocks({
      config,
      dbPath: temp.dbPath,
      wallMs: NOW,
      units: [failing, recording],
    });
    cleanup = async () => {
      await pipeline.stop();
      await database.close();
      temp.cleanup();
    };
    wall.advance(-86_400_000);
    monotonic.advance(1_000);
    watch.check();
    wall.advance(3_600_000);
    monotonic.advance(1_000);
    watch.check();
    expect(seen.map((step) => step.deltaMs)).toEqual([-86_401_000, 3_599_000]);
  });
});
