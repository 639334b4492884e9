/**
 * The recompute debounce at its shipped default (station.recomputeDebounceMs): a burst of readings
 * gives one recompute and one state, at the end of the first reading's delay, with the newest
 * values. The pipeline runs with MQTT off, so fake timers drive it without a network in the way.
 */
import { afterEach, describe, expect, vi } from 'vitest';
import { stationSchema } from '../../src/config/stationSchema.js';
import type { Reading, StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { testMqttConfig } from '../helpers/mqttHarness.js';

const DEFAULT_MS = stationSchema.station.recomputeDebounceMs.default;
const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp' } };

function reading(temperature: number, atMs: number): Reading {
  return { values: { temperature }, rainCounters: [], fingerprint: `${temperature}@${atMs}`, dropped: [], payloadTimeMs: atMs };
}

describe('recompute debounce at the default', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`recomputes a burst of readings once, ${DEFAULT_MS} ms after the first, with the newest values`, async ({ mqtt }) => {
    expect(DEFAULT_MS).toBeGreaterThan(0);
    const config = testMqttConfig({
      stations: [garden],
      broker: { enabled: false },
      mqtt: { url: '' },
      station: { recomputeDebounceMs: DEFAULT_MS },
    });
    const { service } = await mqtt.start(config);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const published = () => service.stats().statesPublished;
    const before = published();

    for (const [i, temperature] of [18, 19, 20].entries()) {
      mqtt.clock.advance(10_000);
      expect(service.acceptReading('garden', reading(temperature, mqtt.clock.now()), 'upload')).toBe('accepted');
      if (i < 2) await vi.advanceTimersByTimeAsync(DEFAULT_MS / 4);
    }
    await vi.advanceTimersByTimeAsync(DEFAULT_MS / 2 - 1); // just before the end of the first reading's delay
    expect(published()).toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(published()).toBe(before + 1);
    expect(service.stationState('garden')).toMatchObject({ input: { temperature: 20 } });
    await vi.advanceTimersByTimeAsync(10 * DEFAULT_MS);
    expect(published()).toBe(before + 1);
  });
});
