/**
 * The history is the one ledger of rain (src/station/recentRain.ts): the recent-rain memory counts
 * rain by arrival only while the wall clock is in doubt (a step seen, an unsynchronised clock, a
 * history stamped after "now"), with the history's cap and clamp. Through the real pipeline and
 * SQLite: a backlog arriving in a burst, a 9000 mm counter jump, a new station's first rain, and a
 * real clock step that must not hide rain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
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
  timestampKey: 'ts',
  fields: { temperature: 't', humidity: 'h', wind_speed: 'w', rain_total: 'total' },
};
const config = testMqttConfig({ stations: [garden], broker: { enabled: false }, history: { flushIntervalSeconds: 3600 } });

interface Running extends Pick<PipelineOnClocks, 'pipeline' | 'wall' | 'monotonic' | 'watch' | 'states'> {
  /** One message stamped by the station: `ts` (epoch ms), by default the wall clock's now. */
  send(values: { t: number; total: number; ts?: number }): void;
  latest(): StationStatePayload;
}

describe('one rain ledger: the history, with the clock-step memory only when the clock is in doubt', () => {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
  });

  async function start(): Promise<Running> {
    const temp = mqttTempDir();
    const { pipeline, database, wall, monotonic, watch, states } = await startPipelineOnClocks({
      config,
      dbPath: temp.dbPath,
      wallMs: NOW,
    });
    open.push(async () => {
      await pipeline.stop();
      await database.close();
      temp.cleanup();
    });
    const send = (values: { t: number; total: number; ts?: number }): void => {
      const { ts = wall.now(), ...rest } = values;
      const payload = { h: 60, w: 5, ...rest, ts: Math.floor(ts / 1000) };
      pipeline.handleMessage(garden, TOPIC, Buffer.from(JSON.stringify(payload)), false);
    };
    const latest = (): StationStatePayload => {
      pipeline.recomputeAll();
      return states.at(-1)!;
    };
    return { pipeline, wall, monotonic, watch, states, send, latest };
  }

  /** A reading a minute for `minutes`, arriving as they are taken, the counter at `total`. */
  function steadyReadings(running: Running, minutes: number, total: number): void {
    for (let i = 0; i < minutes; i++) {
      running.wall.advance(MINUTE);
      running.monotonic.advance(MINUTE);
      running.send({ t: 15 + (i % 3) * 0.1, total });
    }
  }

  it('a 3-hour backlog with its own timestamps, arriving in a burst, is the rain its readings name: the history says 0.2 mm, so does the state', async () => {
    const running = await start();
    // A broker replaying after a restart: a reading every 5 min from 3 h ago, 2.4 mm in the first
    // two hours, 0.2 mm in the last, all delivered within a few seconds.
    let total = 50;
    for (let i = 0; i <= 36; i++) {
      if (i > 0 && (i <= 24 || i === 30 || i === 35)) total = Math.round((total + 0.1) * 10) / 10;
      running.monotonic.advance(100);
      running.send({ t: 12 + (i % 5) * 0.1, total, ts: NOW - (36 - i) * 5 * MINUTE });
    }
    expect(total).toBe(52.6);
    const state = running.latest();
    expect(state.input.rain_1h).toBe(0.2);
    expect(state.mowable_reason).not.toMatch(/clock/i);
  });

  it('a 9000 mm counter jump is capped at the world-record minute like the history, not published as 9000', async () => {
    const running = await start();
    steadyReadings(running, 61, 100);
    running.wall.advance(MINUTE);
    running.monotonic.advance(MINUTE);
    running.send({ t: 15, total: 9100 });
    expect(running.latest().input.rain_1h).toBe(31.2);
  });

  it("a new station's first rain says nothing of a clock step", async () => {
    const running = await start();
    steadyReadings(running, 2, 10);
    running.wall.advance(MINUTE);
    running.monotonic.advance(MINUTE);
    running.send({ t: 14, total: 11.5 });
    const state = running.latest();
    expect(state.mowable).toBe(false);
    expect(state.input.minutes_since_rain).toBe(0);
    expect(`${state.mowable_reason} ${state.mowable_reason_de}`).not.toMatch(/clock|Uhr|Zeitsprung/i);
  });

  it('a real step of the wall clock still cannot hide rain, and the reason says what happened, in both languages', async () => {
    const running = await start();
    steadyReadings(running, 61, 100);
    running.wall.advance(MINUTE);
    running.monotonic.advance(MINUTE);
    running.send({ t: 14, total: 103 });
    expect(running.latest().input.rain_1h).toBe(3);
    // NTP sets the clock a year forward: the history's windows lie a year back.
    running.wall.advance(365 * 24 * 60 * MINUTE);
    running.monotonic.advance(1_000);
    expect(running.watch.check()?.direction).toBe('forward');
    running.monotonic.advance(2 * MINUTE);
    running.wall.advance(2 * MINUTE);
    running.send({ t: 13, total: 103 });
    const state = running.latest();
    expect(state).toMatchObject({ mowable: false, input: { rain_1h: 3 } });
    expect(state.mowable_reason).toMatch(/system clock was set forward by 365 d 2 min ago, so the history cannot place the 3 mm of rain/);
    expect(state.mowable_reason_de).toMatch(/Systemuhr wurde vor 2 min um 365 Tage vorgestellt.*3 mm Regen/);
    // A step with 9000 mm behind it: the memory caps like the history.
    running.monotonic.advance(MINUTE);
    running.wall.advance(MINUTE);
    running.send({ t: 13, total: 9103 });
    expect(running.latest().input.rain_1h).toBe(34.2);
  });
});
