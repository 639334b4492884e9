/** A station's history options: the history.* settings, overridden per station by its `freshness` block. */
import { describe, expect, it } from 'vitest';
import { historyOptionsFor, stationFreshnessMs } from '../../src/config/historyOptions.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { testMqttConfig } from '../helpers/mqttHarness.js';

const plain: StationConfig = { id: 'garden', topic: 'weather/garden', format: 'json' } as StationConfig;

describe('historyOptionsFor', () => {
  it('takes history.freshnessMinutes and the rain settings when the station says nothing', () => {
    const config = testMqttConfig({
      history: { freshnessMinutes: 45, rainCounterReset: 'count', maxRainIncrementMm: 12, maxGapMinutes: 20 },
    });
    expect(historyOptionsFor(config, plain)).toEqual({
      counterResetPolicy: 'count',
      maxRainIncrementMm: 12,
      maxGapMinutes: 20,
      duplicateWindowMs: 10_000,
      freshnessMs: 45 * 60_000,
      fieldFreshnessMs: {},
    });
  });

  it("uses the station's own maxAgeMinutes and per-field limits, in milliseconds", () => {
    const config = testMqttConfig({ history: { freshnessMinutes: 45 } });
    const station = { ...plain, freshness: { maxAgeMinutes: 90, fields: { soil_moisture: 720 } } } as StationConfig;
    const options = historyOptionsFor(config, station);
    expect(options.freshnessMs).toBe(90 * 60_000);
    expect(stationFreshnessMs(config, station)).toBe(90 * 60_000);
    expect(options.fieldFreshnessMs).toEqual({ soil_moisture: 720 * 60_000 });
  });

  it('ignores a counter reset unless history.rainCounterReset is "count"', () => {
    expect(historyOptionsFor(testMqttConfig({ history: { rainCounterReset: 'ignore' } }), plain).counterResetPolicy).toBe('ignore');
  });
});
