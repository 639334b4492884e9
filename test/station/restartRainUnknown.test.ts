/**
 * A power cut before the history's commit reached the rain counter, then a restart with the wall
 * clock 30 min back (fake-hwclock): the first reading after the restart shows 3 mm more on the
 * counter, but with no stored baseline the history can only set one. The index computed without
 * rain fields is high, so before the fix every state with that reading said `mowable: true` in the
 * rain (seen once in test/e2e/clockSteps.test.ts, on a loaded machine where the last commit before
 * the SIGKILL held only the station state). Fail safe: `mowable` stays off until the counter's
 * rain is known (src/station/recentRain.ts, `rain_unknown`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTempDir, testMqttConfig } from '../helpers/mqttHarness.js';
import { startPipelineOnClocks, type PipelineOnClocks } from './pipelineOnClocks.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const MINUTE = 60_000;
const TOPIC = 'weather/garden';
const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: TOPIC,
  fields: { temperature: 't', humidity: 'h', wind_speed: 'w', precipitation_rate: 'r', rain_total: 'total' },
};
// The e2e daemon's settings: no on-delay, so one state with a high index sets the flag.
const config = testMqttConfig({
  stations: [garden],
  broker: { enabled: false },
  station: { mowableOnDelayMinutes: 0 },
  history: { flushIntervalSeconds: 3600 },
});

interface Running extends Pick<PipelineOnClocks, 'pipeline' | 'database' | 'wall' | 'monotonic' | 'states'> {
  send(values: { t: number; total: number }): void;
}

describe('a restart whose stored history lost the rain counter', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  const open: Running[] = [];
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    // The first pipeline is never stopped (a power cut): its pending rows are never written.
    for (const running of open.splice(0)) await running.database.close();
    temp.cleanup();
  });

  async function start(wallMs: number): Promise<Running> {
    const { pipeline, database, wall, monotonic, states } = await startPipelineOnClocks({
      config,
      dbPath: temp.dbPath,
      wallMs,
      watchSteps: false,
    });
    const send = (values: { t: number; total: number }): void => {
      wall.advance(10_000);
      monotonic.advance(10_000);
      pipeline.handleMessage(garden, TOPIC, Buffer.from(JSON.stringify({ h: 60, w: 5, r: 0, ...values })), false);
    };
    const running = { pipeline, database, wall, monotonic, states, send };
    open.push(running);
    return running;
  }

  it('never says mowable with the first reading after the restart, and goes on once its next reading is booked', async () => {
    const before = await start(NOW);
    // The last commit before the power cut: the station state of a recompute without readings.
    before.pipeline.recomputeAll();
    await before.pipeline.history.flush();
    before.send({ t: 19.5, total: 50 });
    before.send({ t: 20, total: 50 });
    expect(before.states.at(-1)).toMatchObject({ input: { temperature: 20 }, mowable: true });

    // Power cut, then fake-hwclock: the clock restarts 30 min before the lost readings.
    const after = await start(NOW - 30 * MINUTE);
    after.send({ t: 12, total: 53 });
    after.pipeline.recomputeAll();
    after.monotonic.advance(5_000);
    after.wall.advance(5_000);
    after.pipeline.recomputeAll();
    const rainy = after.states.filter((state) => state.input.temperature === 12);
    expect(rainy).toHaveLength(3);
    for (const state of rainy) {
      expect(state).toMatchObject({ mowable: false, mowable_reason_de: expect.stringMatching(/Regen ist also unbekannt/) });
      // What the flag would say without the hold: the index of a lawn without rain fields.
      expect(state.index_score).toBeGreaterThanOrEqual(70);
    }
    // The counter's next reading is booked against the new baseline: its rain is known (none since), the hold ends.
    after.send({ t: 11, total: 53 });
    expect(after.states.at(-1)).toMatchObject({ input: { temperature: 11 }, mowable: true });
  });

  it("holds a fresh start's first counter reading too, and a reading without rain does not end the hold", async () => {
    const fresh = await start(NOW);
    fresh.send({ t: 19.5, total: 50 });
    expect(fresh.states.at(-1)).toMatchObject({ mowable: false, mowable_reason: expect.stringMatching(/rain that just fell is unknown/) });
    expect(fresh.states.at(-1)?.index_score).toBeGreaterThanOrEqual(70);
    // Temperature alone (another topic of the same station, say) says nothing about rain.
    fresh.wall.advance(10_000);
    fresh.pipeline.handleMessage(garden, TOPIC, Buffer.from(JSON.stringify({ t: 19 })), false);
    expect(fresh.states.at(-1)).toMatchObject({ input: { temperature: 19 }, mowable: false });
    fresh.send({ t: 20, total: 50 });
    expect(fresh.states.at(-1)).toMatchObject({ input: { temperature: 20 }, mowable: true });
  });
});
