/**
 * End to end through the embedded broker: a sprinkler topic feeds
 * minutes_since_irrigation into one of two otherwise identical stations.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { crossKeyProblems } from '../../src/config/crossKeyRules.js';
import type { StationConfig } from '../../src/ingest/types.js';
import type { IrrigationConfig } from '../../src/units/irrigationSource.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { mqttTest, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import {
  mqttTempDir,
  testMqttConfig,
  waitUntil,
  type FakeClock,
  type RecordingClient,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';

const MINUTE = 60_000;
const weather = {
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
} as const;
/** A station with the irrigation unit's key (declared by the unit, not by StationConfig). */
type Station = StationConfig & { irrigation?: IrrigationConfig };
const watered: Station = { id: 'watered', name: 'Watered', ...weather, irrigation: { topic: 'garden/sprinkler' } };
const dry: Station = { id: 'dry', name: 'Dry', ...weather };

type State = { index_score: number; input: Record<string, number>; irrigation?: Record<string, unknown> };

describe('irrigation topic', () => {
  // Set by start(); the fixture closes the clients and stops the daemons after each test.
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  let publisher: RecordingClient | undefined;
  let clock: FakeClock;
  let sequence = 0;

  async function stop(): Promise<void> {
    await observer?.close();
    await publisher?.close();
    await daemon?.stop();
    observer = publisher = daemon = undefined;
  }

  async function start(mqtt: MqttDaemonFixture, stations: Station[] = [watered, dry]): Promise<void> {
    clock = mqtt.clock;
    daemon = await mqtt.start(testMqttConfig({ stations }));
    observer = await mqtt.connect(daemon.port);
    await observer.client.subscribeAsync('mowability/+/state', { qos: 1 });
    publisher = await mqtt.connect(daemon.port);
  }

  const state = (id: string): State | undefined => observer!.json(`mowability/${id}/state`) as State | undefined;

  /** A fresh weather reading (a new sequence number, so it is no repeat) and both stations recomputed at the clock's time. */
  async function reading(): Promise<void> {
    const before = daemon!.service.stats().statesPublished;
    sequence++;
    await publisher!.client.publishAsync('garden/weather', JSON.stringify({ temp: 21, rate: 0, hum: 55, wind: 8, n: sequence }), {
      qos: 1,
    });
    await waitUntil(() => daemon!.service.stats().statesPublished >= before + 2, 'both stations recomputed');
    const at = new Date(clock.now()).toISOString();
    await waitUntil(
      () =>
        state('watered')?.index_score !== undefined &&
        state('dry') !== undefined &&
        observer!.json('mowability/watered/state')?.last_reading_at === at &&
        observer!.json('mowability/dry/state')?.last_reading_at === at,
      'states of this reading',
    );
  }

  async function sprinkler(payload: string, retain = false): Promise<void> {
    const before = daemon!.service.stats().units.irrigation?.irrigationReceived ?? 0;
    await publisher!.client.publishAsync('garden/sprinkler', payload, { qos: 1, retain });
    await waitUntil(() => daemon!.service.stats().units.irrigation?.irrigationReceived === before + 1, `irrigation message ${payload}`);
  }

  mqttTest('reports a run from ON to OFF, lowers the index for wet blades, and ignores bad payloads', async ({ mqtt }) => {
    await start(mqtt);
    await reading();
    const baseline = state('dry')!.index_score;
    expect(state('watered')!.index_score).toBe(baseline);
    expect(state('watered')!.irrigation).toEqual({
      source: 'mqtt',
      topic: 'garden/sprinkler',
      running: false,
      last_run_end_at: null,
      minutes_since_irrigation: null,
    });
    expect(state('watered')!.input).not.toHaveProperty('minutes_since_irrigation');
    expect(state('dry')).not.toHaveProperty('irrigation');

    await sprinkler('ON');
    await waitUntil(() => state('watered')?.irrigation?.running === true, 'running now');
    expect(state('watered')!.input.minutes_since_irrigation).toBe(0);
    expect(state('watered')!.index_score).toBeLessThan(baseline);

    clock.advance(15 * MINUTE);
    await sprinkler('OFF');
    const end = new Date(clock.now()).toISOString();
    await waitUntil(() => state('watered')?.irrigation?.last_run_end_at === end, 'run ended');

    clock.advance(30 * MINUTE);
    await reading();
    const wet = state('watered')!;
    expect(wet.input.minutes_since_irrigation).toBe(30);
    expect(wet.irrigation).toMatchObject({ running: false, last_run_end_at: end, minutes_since_irrigation: 30 });
    expect(wet.index_score).toBeLessThan(state('dry')!.index_score);
    expect(state('dry')!.input).not.toHaveProperty('minutes_since_irrigation');

    await sprinkler('sprinkler says maybe');
    await sprinkler('{"state":"pending"}');
    expect(daemon!.service.stats().units.irrigation).toEqual({ irrigationReceived: 4, irrigationAccepted: 2, irrigationRejected: 2 });
    clock.advance(5 * MINUTE);
    await reading();
    expect(state('watered')!.irrigation).toMatchObject({ running: false, last_run_end_at: end, minutes_since_irrigation: 35 });

    // Hours later the blades are dry again: the same index as without irrigation. Without a solar
    // sensor the sky counts as the year's mean (docs/model.md), so 0.7 mm at 21 °C, 55 % and a light
    // breeze take about 7 h, plus the dry-down of the lower canopy.
    clock.advance(10 * 60 * MINUTE);
    await reading();
    expect(state('watered')!.input.minutes_since_irrigation).toBe(635);
    expect(state('watered')!.index_score).toBe(state('dry')!.index_score);
  });

  mqttTest('calculates a station with its own lawn.turfType', async ({ mqtt }) => {
    // `watered` stands in for a second station here: no sprinkler message is sent.
    await start(mqtt, [{ ...watered, lawn: { turfType: 'warm_season' } }, dry]);
    await reading();
    const temperatureScore = (id: string): number =>
      (observer!.json(`mowability/${id}/state`) as { checks: { temperature: { score: number } } }).checks.temperature.score;
    // 21 °C is in the cool-season optimum (15–24 °C) but below the warm-season one (24–35 °C).
    expect(temperatureScore('dry')).toBe(100);
    expect(temperatureScore('watered')).toBeLessThan(100);
  });

  mqttTest('does not count a retained ON from before a restart as a run', async ({ mqtt }) => {
    await start(mqtt);
    await sprinkler('ON', true);
    await reading();
    expect(state('watered')!.irrigation).toMatchObject({ running: true, minutes_since_irrigation: 0 });
    await stop();

    clock.advance(2 * 60 * MINUTE);
    await start(mqtt);
    // The embedded broker kept the retained ON and replays it on subscribe.
    await waitUntil(() => daemon!.service.stats().units.irrigation?.irrigationReceived === 1, 'retained ON replayed');
    await reading();
    expect(state('watered')!.irrigation).toMatchObject({ running: false, last_run_end_at: null, minutes_since_irrigation: null });
    expect(state('watered')!.index_score).toBe(state('dry')!.index_score);

    // A live OFF after it proves the sprinkler ran until now.
    await sprinkler('OFF', true);
    await waitUntil(() => state('watered')?.irrigation?.last_run_end_at === new Date(clock.now()).toISOString(), 'run ended by a live OFF');
    expect(state('watered')!.input.minutes_since_irrigation).toBe(0);
  });
});

describe('station lawn and irrigation configuration', () => {
  it('refuses a bad irrigation block and a bad turf type with exit 78, naming the keys', () => {
    const temp = mqttTempDir();
    try {
      const file = join(temp.dir, 'config.json');
      const station = { id: 'garden', name: 'Garden', format: 'weewx', topic: 'weewx/loop' };
      writeFileSync(
        file,
        JSON.stringify({ stations: [{ ...station, lawn: { turfType: 'kikuyu' }, irrigation: { topic: 'a/#/b', onPayload: 'ON' } }] }),
      );
      let error: unknown;
      try {
        loadConfig({ env: { MOWABILITY_CONFIG: file }, units: stationUnitConfigs() });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).exitCode).toBe(78);
      const text = (error as ConfigError).problems.join('\n');
      expect(text).toContain('stations[0] ("garden").lawn.turfType must be one of cool_season, warm_season');
      expect(text).toContain('stations[0] ("garden").irrigation.onPayload is not allowed (only topic and key)');
      expect(text).toContain('stations[0] ("garden").irrigation.topic "#" is only allowed as the whole last level');
    } finally {
      temp.cleanup();
    }
  });

  it('refuses an irrigation topic under the base topic, where only the daemon may publish', () => {
    const problems = crossKeyProblems(
      testMqttConfig({ stations: [{ ...watered, irrigation: { topic: 'mowability/sprinkler' } } as Station] }),
      { units: stationUnitConfigs() },
    );
    expect(problems).toEqual([
      'station "watered" irrigation.topic "mowability/sprinkler" lies under "mqtt.baseTopic" = "mowability", where only we may publish',
    ]);
    expect(crossKeyProblems(testMqttConfig({ stations: [watered] }), { units: stationUnitConfigs() })).toEqual([]);
  });
});
