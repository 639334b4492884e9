/**
 * rtl_433 puts every sensor in range on one events topic, so one message reaches every station that
 * reads that topic. The pipeline decodes it once for all of them (bench/NOTES.md, "One
 * reading's path"); each station still counts it, and only the station it is meant for books it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { StationPipeline } from '../../src/station/pipeline.js';
import { Database } from '../../src/store/database.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { FakeClock, mqttTempDir, silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const TOPIC = 'rtl_433/pi/events';
const station = (index: number): StationConfig => ({
  id: `s${index}`,
  name: `Station ${index}`,
  format: 'rtl_433',
  topic: TOPIC,
  match: { model: 'Fineoffset-WH24', id: 100 + index },
});
const stations = [station(0), station(1), station(2)];

function event(id: number, temperatureC: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      model: 'Fineoffset-WH24',
      id,
      battery_ok: 1,
      temperature_C: temperatureC,
      humidity: 60,
      wind_avg_m_s: 1.2,
      wind_max_m_s: 2.4,
      rain_mm: 12.3,
    }),
  );
}

describe('one message on a topic several stations read', () => {
  const temp = mqttTempDir();
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    temp.cleanup();
  });

  it('is offered to every station on the topic; only the matching one books it and gets a state', async () => {
    const database = await Database.open(temp.dbPath);
    const config = testMqttConfig({ stations, broker: { enabled: false }, station: { recomputeDebounceMs: 0 } });
    const pipeline = new StationPipeline({
      config,
      database,
      logger: silentLogger,
      log: silentLogger,
      throttle: new LogThrottle(silentLogger),
      clock: new FakeClock(NOW),
      units: [],
    });
    const states: string[] = [];
    pipeline.onState((s, state) => states.push(`${s.id}:${String((state.input as { temperature?: number }).temperature)}`));
    await pipeline.start();
    stop = async () => {
      await pipeline.stop();
      await database.close();
    };

    pipeline.handleSharedMessage(stations, TOPIC, event(101, 21.5), false);
    pipeline.handleSharedMessage(stations, TOPIC, event(100, 18.25), false);
    pipeline.handleSharedMessage(stations, TOPIC, Buffer.from('not json'), false);

    expect(states).toEqual(['s1:21.5', 's0:18.25']);
    const counts = Object.fromEntries(
      [...pipeline.stationCounts()].map(([id, c]) => [id, [c.received, c.accepted, c.ignored, c.rejected]]),
    );
    expect(counts).toEqual({ s0: [3, 1, 1, 1], s1: [3, 1, 1, 1], s2: [3, 0, 2, 1] });
  });
});
