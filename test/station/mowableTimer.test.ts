/**
 * The on-delay of the `mowable` hysteresis (docs/mqtt.md, section 6) is time the daemon watched the
 * index stay high. Time it did not watch never counts: after a restart a running on-timer starts
 * over (the flag itself survives), and a wall-clock step moves the timer with it. Before, a timer
 * restored from before a two-hour power cut, or a clock stepped 20 min forward, set the flag with
 * the first reading.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import { mqttTempDir, testMqttConfig } from '../helpers/mqttHarness.js';
import { startPipelineOnClocks, type PipelineOnClocks } from './pipelineOnClocks.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const MINUTE = 60_000;
const TOPIC = 'weather/garden';
// A rate, no counter: every reading's rain is known, so only the hysteresis decides.
const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: TOPIC,
  fields: { temperature: 't', humidity: 'h', wind_speed: 'w', precipitation_rate: 'r' },
};
const config = testMqttConfig({ stations: [garden], broker: { enabled: false }, station: { mowableOnDelayMinutes: 15 } });

interface Running extends Pick<PipelineOnClocks, 'pipeline' | 'wall' | 'monotonic' | 'watch'> {
  /** One reading after `minutes` on both clocks; the state it produced. */
  readingAfter(minutes: number): StationStatePayload;
}

describe('the mowable on-timer counts only watched time', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    temp.cleanup();
  });

  async function start(wallMs: number): Promise<Running> {
    const { pipeline, database, wall, monotonic, watch, states } = await startPipelineOnClocks({ config, dbPath: temp.dbPath, wallMs });
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (!stopped) await pipeline.stop();
      stopped = true;
      await database.close();
    };
    cleanups.push(stop);
    const readingAfter = (minutes: number): StationStatePayload => {
      wall.advance(minutes * MINUTE);
      monotonic.advance(minutes * MINUTE);
      pipeline.handleMessage(garden, TOPIC, Buffer.from(JSON.stringify({ t: 20 + states.length / 100, h: 60, w: 5, r: 0 })), false);
      return states.at(-1)!;
    };
    return { pipeline, wall, monotonic, watch, readingAfter };
  }

  it('starts over after a restart two hours later, and a flag that was on stays on across a restart', async () => {
    const before = await start(NOW);
    expect(before.readingAfter(0)).toMatchObject({
      mowable: false,
      mowable_reason: expect.stringMatching(/^index \d+ is at or above 70; mowable at 12:15 if it stays there until then \(15 min\)$/),
    });
    // The clock time on the configured timezone's clock (Europe/Berlin, summer time), in German too.
    expect(before.readingAfter(0).mowable_reason_de).toMatch(/; frei um 12:15, wenn er bis dahin dort bleibt \(15 Min\.\)$/);
    expect(before.readingAfter(5).index_score).toBeGreaterThanOrEqual(70);
    await before.pipeline.stop();

    const after = await start(NOW + 2 * 60 * MINUTE);
    // The index was high 2 h ago, but nobody watched it since: 15 more minutes of readings first.
    expect(after.readingAfter(0)).toMatchObject({
      mowable: false,
      mowable_reason: expect.stringMatching(/; mowable at 14:15 if it stays there until then/),
    });
    expect(after.readingAfter(10)).toMatchObject({ mowable: false });
    expect(after.readingAfter(5)).toMatchObject({ mowable: true });
    await after.pipeline.stop();

    const again = await start(NOW + 2 * 60 * MINUTE + 16 * MINUTE);
    expect(again.readingAfter(0)).toMatchObject({ mowable: true });
  });

  it('moves with a wall-clock step forward, so the step does not shorten the on-delay', async () => {
    const running = await start(NOW);
    expect(running.readingAfter(0)).toMatchObject({ mowable: false });
    // NTP steps the clock 20 min forward (the readings are still fresh), one real second later.
    running.wall.advance(20 * MINUTE);
    running.monotonic.advance(1_000);
    running.watch.check();
    // The on-delay moved with the step (started 12:19:59 on the stepped clock): the text names the new time.
    expect(running.readingAfter(1)).toMatchObject({
      mowable: false,
      mowable_reason: expect.stringMatching(/; mowable at 12:35 if it stays there until then/),
    });
    expect(running.readingAfter(14)).toMatchObject({ mowable: true });
  });
});
