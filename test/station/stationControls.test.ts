/**
 * Home Assistant's controls of a station on the station side (real SQLite in a temp dir, the real
 * pipeline): a value set changes what the recompute uses (the mowable hysteresis, the mower class of
 * the calculation), is kept in the database over a restart and overrides the configured value; a bad
 * value is refused with its reason and changes nothing, whatever the payload (out of range, off above
 * on, NaN, ±Infinity, an exponent, JSON, 1 MB, invalid UTF-8); a retained command is no command.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stationControlsFor } from '../../src/daemon.js';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationControls } from '../../src/station/stationControls.js';
import type { UnitSubscriber } from '../../src/station/unit.js';
import { Database } from '../../src/store/database.js';
import { startInOrder } from '../../src/util/lifecycle.js';
import { stateText } from '../../src/station/stateText.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';
import { createSides, FakeClock, mqttTempDir, reading, silentLogger, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';

const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp' },
  lawn: { mowerClass: 'robot' },
};
const T0 = Date.parse('2026-06-15T10:00:00Z');

/** Records what the controls publish and hands the test their subscriptions, as the bridge would. */
class FakeConnection implements UnitSubscriber {
  readonly handlers = new Map<string, (topic: string, payload: Buffer, retained: boolean) => void>();
  readonly published: Array<{ topic: string; payload: string }> = [];
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void {
    this.handlers.set(filter, handler);
  }
  publishNow(topic: string, payload: string): boolean {
    this.published.push({ topic, payload });
    return true;
  }
}

describe('station controls', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(dbPath: string) {
    const clock = new FakeClock(T0);
    const config = testMqttConfig({ stations: [garden], broker: { enabled: false } });
    const database = await Database.open(dbPath);
    const controls = stationControlsFor({ ...config, lawn: { mowerClass: 'walk' } }, database, silentLogger, clock);
    const sides = createSides({ config, database, logger: silentLogger, clock, units: [controls] });
    const started = await startInOrder(sides.components, silentLogger);
    const stop = async () => {
      await started.stop();
      await database.close();
    };
    cleanups.push(stop);
    const connection = new FakeConnection();
    controls.subscribe(connection, (stationId) => sides.recompute(stationId));
    return { controls, sides, connection, clock, stop };
  }

  const set = (controls: StationControls, key: Parameters<StationControls['command']>[1], payload: string | Buffer) =>
    controls.command('garden', key, Buffer.isBuffer(payload) ? payload : Buffer.from(payload));

  it('a value set moves the hysteresis and the calculation, survives a restart and overrides the configuration', async () => {
    const temp = mqttTempDir();
    cleanups.push(() => temp.cleanup());
    const first = await start(temp.dbPath);
    expect(first.controls.values('garden')).toEqual({
      mowable_on_threshold: 70,
      mowable_off_threshold: 60,
      mowable_on_delay_minutes: 15,
      mower_class: 'robot',
    });
    await set(first.controls, 'mowable_off_threshold', '30');
    await set(first.controls, 'mowable_on_threshold', '97');
    await set(first.controls, 'mowable_on_delay_minutes', '30');
    await set(first.controls, 'mower_class', 'ride_on');
    expect(
      first.sides.acceptReading(
        'garden',
        reading({ temperature: 20, humidity: 50, wind_speed: 5, precipitation_rate: 0, soil_temperature: 16, soil_moisture: 18 }),
        'upload',
      ),
    ).toBe('accepted');
    await waitUntil(() => first.sides.stationState('garden')?.controls?.mower_class.value === 'ride_on', 'the state with the values');
    const state = first.sides.stationState('garden')!;
    expect(state.controls!.mowable_on_threshold).toEqual({
      value: 97,
      configured: 70,
      source: 'home_assistant',
      set_at: new Date(T0).toISOString(),
    });
    expect(state.controls!.mowable_off_threshold).toMatchObject({ value: 30, configured: 60, source: 'home_assistant' });
    // The calculation ran with the mower class set from Home Assistant.
    expect(JSON.stringify(state.checks)).toContain('"mower_class":"ride_on"');
    // And the hysteresis with the on-threshold set from Home Assistant.
    expect(state.index_score).toBeGreaterThanOrEqual(30);
    expect(state.index_score).toBeLessThan(97);
    expect(state.mowable_reason).toMatch(/below 97, the level at which the flag turns on/);
    // Home Assistant's numbers and select read these values (and their attributes) from this state.
    const entities = new Map(first.controls.entities({ id: 'garden' }).map((entity) => [entity.key, entity.config]));
    const render = (key: string, template: 'value_template' | 'json_attributes_template') =>
      renderHaTemplate(String(entities.get(key)![template]), JSON.parse(JSON.stringify(state)));
    expect(render('mowable_on_threshold', 'value_template')).toBe('97');
    expect(render('mowable_on_delay_minutes', 'value_template')).toBe('30');
    expect(render('mower_class', 'value_template')).toBe('ride_on');
    expect(JSON.parse(render('mowable_on_threshold', 'json_attributes_template'))).toMatchObject({
      configured: 70,
      source: 'home_assistant',
    });
    expect(renderHaTemplate(String(entities.get('mower_class')!.value_template), { index_score: 1 })).toBe('None');
    expect(first.controls.mowableSettings('garden', { onThreshold: 70, offThreshold: 60, onDelayMs: 0 })).toEqual({
      onThreshold: 97,
      offThreshold: 30,
      onDelayMs: 30 * 60_000,
    });
    await first.stop();

    const second = await start(temp.dbPath);
    expect(second.controls.values('garden')).toEqual({
      mowable_on_threshold: 97,
      mowable_off_threshold: 30,
      mowable_on_delay_minutes: 30,
      mower_class: 'ride_on',
    });
    // An empty payload (or "reset") goes back to the configured value, also in the database.
    await set(second.controls, 'mower_class', '');
    expect(second.controls.values('garden')!.mower_class).toBe('robot');
    await second.stop();
    const third = await start(temp.dbPath);
    expect(third.controls.values('garden')!.mower_class).toBe('robot');
    expect(third.controls.values('garden')!.mowable_on_threshold).toBe(97);
  });

  it('refuses a bad value with its reason, publishes the refusal and keeps the value in force', async () => {
    const temp = mqttTempDir();
    cleanups.push(() => temp.cleanup());
    const { controls, connection, stop } = await start(temp.dbPath);
    const cases: Array<[Parameters<StationControls['command']>[1], string | Buffer, RegExp]> = [
      ['mowable_on_threshold', '150', /from 0 to 100/],
      ['mowable_on_threshold', '-1', /from 0 to 100/],
      ['mowable_on_threshold', '55', /must not be below the off-threshold 60/],
      ['mowable_off_threshold', '75', /must not be above the on-threshold 70/],
      ['mowable_on_delay_minutes', '2.5', /whole number of minutes from 0 to 1440/],
      ['mowable_on_delay_minutes', '100000', /whole number/],
      ['mowable_on_threshold', 'NaN', /plain decimal/],
      ['mowable_on_threshold', 'Infinity', /plain decimal/],
      ['mowable_on_threshold', '-Infinity', /plain decimal/],
      ['mowable_on_threshold', '1e2', /plain decimal/],
      ['mowable_on_threshold', '0x50', /plain decimal/],
      ['mowable_on_threshold', '{"value": 80}', /plain decimal/],
      ['mowable_on_threshold', Buffer.from([0xff, 0xfe, 0x38, 0x30]), /plain decimal/],
      ['mowable_on_threshold', 'x'.repeat(1024 * 1024), /longer than 32 bytes/],
      ['mower_class', 'tractor', /one of robot, walk, ride_on/],
      ['mower_class', 'Robot', /one of robot, walk, ride_on/],
    ];
    for (const [key, payload, reason] of cases) {
      connection.published.length = 0;
      await set(controls, key, payload);
      const state = controls.stateFragment('garden')!.controls;
      expect(state.last_refused?.reason, `${key} ${String(payload).slice(0, 20)}`).toMatch(reason);
      expect(state.last_refused?.reason_de).toBeTruthy();
      expect(connection.published).toHaveLength(1);
      expect(connection.published[0]!.topic).toBe('mowability/garden/control/refused');
      expect(JSON.parse(connection.published[0]!.payload)).toMatchObject({ control: key, reason: expect.stringMatching(reason) });
    }
    expect(controls.values('garden')).toEqual({
      mowable_on_threshold: 70,
      mowable_off_threshold: 60,
      mowable_on_delay_minutes: 15,
      mower_class: 'robot',
    });
    expect(controls.stats()).toMatchObject({ controlRefused: cases.length });
    await stop();
    const rows = await Database.open(temp.dbPath);
    cleanups.push(() => rows.close());
    expect(await rows.all('SELECT * FROM station_controls')).toEqual([]);
  });

  it("keeps the state's controls from state to state until a command changes them, and they always say what is in force", async () => {
    const temp = mqttTempDir();
    cleanups.push(() => temp.cleanup());
    const { controls, connection, clock } = await start(temp.dbPath);
    const configured = { mowable_on_threshold: 70, mowable_off_threshold: 60, mowable_on_delay_minutes: 15, mower_class: 'robot' };
    const setAt: Record<string, string | null> = {
      mowable_on_threshold: null,
      mowable_off_threshold: null,
      mowable_on_delay_minutes: null,
      mower_class: null,
    };
    let lastRefused: unknown = null;
    // The state's controls as the unit built them on every call before they were kept (each part from what is in force).
    const expected = () => {
      const values = controls.values('garden')!;
      const entry = (key: keyof typeof configured) => ({
        value: values[key],
        configured: configured[key],
        source: setAt[key] === null ? 'config' : 'home_assistant',
        set_at: setAt[key],
      });
      return {
        mowable_on_threshold: entry('mowable_on_threshold'),
        mowable_off_threshold: entry('mowable_off_threshold'),
        mowable_on_delay_minutes: entry('mowable_on_delay_minutes'),
        mower_class: entry('mower_class'),
        last_refused: lastRefused,
      };
    };
    const payloads: Record<keyof typeof configured, string[]> = {
      mowable_on_threshold: ['80', '55', '65', '150', 'reset', '', '90', 'NaN'],
      mowable_off_threshold: ['30', '75', '50', '-1', 'reset', '20'],
      mowable_on_delay_minutes: ['0', '30', '2.5', 'reset', '1440'],
      mower_class: ['ride_on', 'walk', 'tractor', 'reset', 'robot'],
    };
    const keys = Object.keys(payloads) as Array<keyof typeof configured>;
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >> 8) % n;
    let kept = controls.stateFragment('garden')!.controls;
    for (let step = 0; step < 200; step++) {
      const key = keys[random(keys.length)]!;
      const payload = payloads[key][random(payloads[key].length)]!;
      clock.advance(60_000 + random(100_000));
      const refusals = connection.published.length;
      await set(controls, key, payload);
      if (connection.published.length > refusals) lastRefused = JSON.parse(connection.published.at(-1)!.payload);
      else setAt[key] = payload === '' || payload === 'reset' ? null : new Date(clock.ms).toISOString();
      const now = controls.stateFragment('garden')!.controls;
      const what = `step ${step}: ${key} ${JSON.stringify(payload)}`;
      expect(now, what).toEqual(expected());
      // The kept text is the object's JSON (what every state publishes), and a command gave a new object.
      expect(JSON.parse(stateText({ controls: now })), what).toEqual({ controls: expected() });
      expect(now, what).not.toBe(kept);
      // Until the next command every state carries the same object.
      expect(controls.stateFragment('garden')!.controls, what).toBe(now);
      kept = now;
    }
    expect(Object.values(setAt).some((at) => at !== null)).toBe(true);
    expect(lastRefused).not.toBeNull();
  });

  it('takes commands from its topics, one after another, and never a retained one', async () => {
    const temp = mqttTempDir();
    cleanups.push(() => temp.cleanup());
    const { controls, connection } = await start(temp.dbPath);
    const handler = connection.handlers.get('mowability/garden/control/mowable_on_threshold/set')!;
    expect([...connection.handlers.keys()].sort()).toEqual([
      'mowability/garden/control/mowable_off_threshold/set',
      'mowability/garden/control/mowable_on_delay_minutes/set',
      'mowability/garden/control/mowable_on_threshold/set',
      'mowability/garden/control/mower_class/set',
    ]);
    handler('', Buffer.from('90'), true);
    // In order: the last of a burst wins, whatever each write's duration.
    handler('', Buffer.from('80'), false);
    handler('', Buffer.from('85'), false);
    handler('', Buffer.from('75'), false);
    await controls.settled();
    expect(controls.stats().controlCommands).toBe(3);
    expect(controls.values('garden')!.mowable_on_threshold).toBe(75);
  });
});
