/**
 * The station pipeline without MQTT: with mqtt.url empty and the embedded
 * broker disabled, readings handed in (HTTP uploads) still reach the history,
 * the units and a recomputed state; nothing connects anywhere.
 */
import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { FakeClock, reading, testMqttConfig } from '../helpers/mqttHarness.js';
import { useStationFixture } from '../helpers/stationFixture.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

describe('the station pipeline with MQTT off', () => {
  const fixture = useStationFixture();

  it('keeps history and recompute running, and builds no broker or bridge', async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T10:00:00Z'));
    const seen: string[] = [];
    const unit: StationUnit = { name: 'probe', onReading: (stationId) => seen.push(stationId) };
    const config = testMqttConfig({ stations: [garden], broker: { enabled: false }, mqtt: { url: '' } });
    const side = await fixture.sides(config, clock, [unit]);
    expect(side.components.map((component) => component.name)).toEqual(['station-pipeline', 'scheduled-jobs']);
    expect(side.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('not_running');

    await side.start();
    expect(side.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('accepted');
    expect(seen).toEqual(['garden']);
    expect(side.stationState('garden')).toMatchObject({ station: 'garden', input: { temperature: 20 } });
    expect(side.stats()).toMatchObject({ received: 1, accepted: 1, statesPublished: 1, connected: false });
    expect(side.brokerPort()).toBeUndefined();
    expect(side.health()).toEqual({ status: 'error', code: 'bridge_not_running', message: 'MQTT is off' });

    await side.flush();
    await side.stop();
    // The reading was persisted: a new pipeline on the same database remembers it.
    const again = await fixture.sides(config, clock);
    await again.start();
    expect(again.acceptReading('garden', reading({ temperature: 20 }), 'upload')).toBe('duplicate');
  });
});
