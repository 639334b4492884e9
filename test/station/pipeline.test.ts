/**
 * The station pipeline without MQTT: with mqtt.url empty and the embedded
 * broker disabled, readings handed in (HTTP uploads) still reach the history,
 * the units and a recomputed state; nothing connects anywhere.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Reading, StationConfig } from '../../src/ingest/types.js';
import { Database } from '../../src/store/database.js';
import type { StationUnit } from '../../src/station/unit.js';
import { startInOrder, type StartedComponents } from '../../src/util/lifecycle.js';
import { createSides, FakeClock, mqttTempDir, silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

function reading(values: Reading['values']): Reading {
  return { values, rainCounters: [], fingerprint: JSON.stringify(values), dropped: [] };
}

describe('the station pipeline with MQTT off', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let database: Database | undefined;
  let started: StartedComponents | undefined;

  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    await started?.stop();
    await database?.close();
    started = database = undefined;
    temp.cleanup();
  });

  it('keeps history and recompute running, and builds no broker or bridge', async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T10:00:00Z'));
    const seen: string[] = [];
    const unit: StationUnit = { name: 'probe', onReading: (stationId) => seen.push(stationId) };
    const config = testMqttConfig({ stations: [garden], broker: { enabled: false }, mqtt: { url: '' } });
    database = await Database.open(temp.dbPath);
    const side = createSides({ config, database, logger: silentLogger, clock, units: [unit] });
    expect(side.components.map((component) => component.name)).toEqual(['station-pipeline', 'scheduled-jobs']);
    expect(side.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('not_running');

    started = await startInOrder(side.components, silentLogger);
    expect(side.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('accepted');
    expect(seen).toEqual(['garden']);
    expect(side.stationState('garden')).toMatchObject({ station: 'garden', input: { temperature: 20 } });
    expect(side.stats()).toMatchObject({ received: 1, accepted: 1, statesPublished: 1, connected: false });
    expect(side.brokerPort()).toBeUndefined();
    expect(side.health()).toEqual({ status: 'error', message: 'MQTT is off' });

    await side.flush();
    await started.stop();
    started = undefined;
    // The reading was persisted: a new pipeline on the same database remembers it.
    const again = createSides({ config, database, logger: silentLogger, clock });
    started = await startInOrder(again.components, silentLogger);
    expect(again.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('duplicate');
  });
});
