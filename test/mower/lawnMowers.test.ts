/**
 * Every lawn its own mower, end to end: the whole daemon (src/daemon.ts, a configuration file) with one
 * station of two lawns, each with its own generic MQTT mower (real mqtt.js simulators on the embedded
 * aedes broker), the fake Open-Meteo serving a dry week, an injected clock and real SQLite. The front
 * mower starts in its own lawn's plan slot, the back one on its own "Mow now" (Home Assistant's account);
 * each start is confirmed by that mower's own reported state and lands in that lawn's ledger rows. The
 * back mower's lost commands raise an alert on the back lawn only: the front mower, both plans and the
 * station's index stay as they were.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MowerActivity } from '../../src/core/mower/decision.js';
import type { RunningDaemon } from '../../src/daemon.js';
import type { MowerCommand } from '../../src/mower/adapter.js';
import { mowerTopics } from '../../src/mower/mowerEntities.js';
import { Database } from '../../src/store/database.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { haDiscoveryViolations } from '../helpers/haRules.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';
import { mqttMowerControl } from '../helpers/mqttMowerControl.js';
import { FakeClock, mqttTempDir, publishOnce, reading, RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { mqttMowerOnBroker } from '../helpers/mowerSimulators.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { dryHour, weekForecastBody, type HourWeather } from '../plan/weekForecast.js';

const MONDAY = Date.parse('2026-06-15T04:00:00Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HA = { username: 'homeassistant', password: 'ha password 1' };
const MOWER = { username: 'mowers', password: 'mower password 1' };

const WORDS: Record<MowerActivity, string> = {
  mowing: 'mowing',
  docked: 'docked',
  returning: 'returning',
  paused: 'paused',
  error: 'error',
  unknown: 'booting',
};
const COMMANDS: Record<string, MowerCommand> = { start: 'start', home: 'dock', pause: 'pause' };

/** A live generic MQTT mower on `<name>/set` and `<name>/state`; one retry, so lost commands alert soon. */
function control(name: string, dryRun: boolean) {
  return {
    ...mqttMowerControl({
      commandTopic: `${name}/set`,
      stateTopic: `${name}/state`,
      stateKey: '',
      payloads: { start: 'start', dock: 'home', pause: 'pause' },
      states: { mowing: ['mowing'], docked: ['docked'], returning: ['returning'], paused: ['paused'], error: ['error'] },
    }),
    dryRun,
    retries: 1,
    confirmSeconds: 5,
    minCommandGapMinutes: 0,
  };
}

/** One station, two lawns, each with its own mower block (the first lawn's own block stands for the station's). */
function garden(dryRun: boolean) {
  return {
    id: 'garden',
    name: 'Garden',
    format: 'json',
    topic: 'garden/weather',
    fields: { temperature: 'temp', humidity: 'hum', wind_speed: 'wind', precipitation_rate: 'rate', solar: 'solar' },
    location: { latitude: 48.14, longitude: 11.58, elevation: 520 },
    forecast: { source: 'open-meteo' },
    lawns: [
      {
        id: 'front',
        name: 'Front lawn',
        areaM2: 300,
        capacityM2PerHour: 100,
        targetHeightMm: 40,
        mower: { control: control('front-mower', dryRun) },
      },
      {
        id: 'back',
        name: 'Back lawn',
        areaM2: 300,
        capacityM2PerHour: 50,
        targetHeightMm: 40,
        mower: { control: control('back-mower', dryRun) },
      },
    ],
  };
}

interface LawnMowerState {
  activity: string;
  automatic: boolean;
  alert: { code: string } | null;
  decision: { code: string } | null;
  pending: { attempt: number } | null;
  current_run: { started_by: string } | null;
}

describe('every lawn its own mower (the whole daemon)', () => {
  const temp = mqttTempDir();
  const clock = new FakeClock(MONDAY);
  let fake: FakeOpenMeteo;
  let daemon: RunningDaemon | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await daemon?.stop();
    temp.cleanup();
    await fake.close();
  });

  async function start(dryRun: boolean): Promise<RunningDaemon> {
    fake.fallback = { kind: 'body', text: weekForecastBody(clock.ms, dryHour) };
    daemon = await startOpenMeteoDaemon({
      temp,
      stations: [garden(dryRun)],
      openMeteoUrl: fake.baseUrl,
      clock,
      env: {
        MOWABILITY_TIMEZONE: 'Europe/Berlin',
        MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
        MOWABILITY_STATION_MOWABLE_ON_DELAY_MINUTES: '0',
        MOWABILITY_FORECAST_TIMEOUT_SECONDS: '60',
        MOWABILITY_MOWER_CONTROL_TICK_SECONDS: '1',
        MOWABILITY_BROKER_USERS: JSON.stringify([HA, MOWER]),
        MOWABILITY_HOMEASSISTANT_COMMAND_ACCOUNT: HA.username,
      },
    });
    return daemon;
  }

  const state = () => daemon!.station.stationState('garden');
  const front = () => state()?.mower_control as LawnMowerState | undefined;
  const back = () => state()?.mower_control_lawns?.back as LawnMowerState | undefined;
  const lawnPlan = (lawn: string) => state()?.plan?.lawns[lawn];

  function feed(weather: HourWeather): void {
    const values = {
      temperature: weather.temperature,
      humidity: weather.humidity,
      wind_speed: weather.wind,
      precipitation_rate: 0,
      solar: weather.solar,
    };
    expect(['accepted', 'duplicate']).toContain(daemon!.station.acceptReading('garden', reading(values, 0), 'test'));
  }

  async function plannedNow(what: string): Promise<void> {
    await waitUntil(() => ['front', 'back'].every((lawn) => lawnPlan(lawn)?.computedAtMs === clock.ms), what, 20_000);
  }

  /** A mower simulator on the daemon's broker (its model's ignoreNext loses commands). */
  async function mower(name: string) {
    const simulator = await mqttMowerOnBroker({
      url: `mqtt://127.0.0.1:${daemon!.mqtt.brokerPort()!}`,
      commandTopic: `${name}/set`,
      stateTopic: `${name}/state`,
      commandOf: (payload) => COMMANDS[payload],
      stateOf: (activity) => WORDS[activity],
      auth: MOWER,
    });
    cleanups.push(() => simulator.stop());
    return simulator;
  }

  /** Both lawns' "Automatic mowing" switches, from Home Assistant's account; waits until both say so. */
  async function switchAutomatic(word: 'ON' | 'OFF'): Promise<void> {
    for (const id of ['garden', 'back'])
      await publishOnce(daemon!.mqtt.brokerPort()!, mowerTopics('mowability', id).automaticSet, word, { qos: 1, connect: HA });
    await waitUntil(() => front()?.automatic === (word === 'ON') && back()?.automatic === (word === 'ON'), `both switches ${word}`);
  }

  it('starts each mower in its own plan slot or on its own "Mow now", confirms each by its own state; lost commands alert only their lawn', async () => {
    // Two dry days of growth with dry-run controls (nothing sent), as the week plan's scenarios do.
    await start(true);
    feed(dryHour(clock.ms));
    await plannedNow('the first plans');
    // "Automatic mowing" off on both lawns (each its own switch): after the restart nothing starts before the plans are there.
    await switchAutomatic('OFF');
    for (const lawn of ['front', 'back'])
      await publishOnce(daemon!.mqtt.brokerPort()!, `mowability/${lawn}/mowed`, JSON.stringify({ at: new Date(clock.ms).toISOString() }), {
        qos: 1,
        connect: HA,
      });
    const end = clock.ms + 2 * DAY_MS;
    for (; clock.ms <= end; clock.ms += 30 * 60_000) {
      feed(dryHour(clock.ms));
      if (clock.ms % (6 * HOUR_MS) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    clock.ms = end;
    await daemon!.stop();

    // Wednesday: the controls go live; each mower on its own topics.
    await start(false);
    const frontMower = await mower('front-mower');
    const backMower = await mower('back-mower');
    feed(dryHour(clock.ms));
    await plannedNow('the plans on Wednesday');
    await waitUntil(() => front()?.activity === 'docked' && back()?.activity === 'docked', 'both mowers report docked');
    expect(front()!.automatic).toBe(false);

    // Into the front lawn's next slot, at a time that is in no slot of the back lawn.
    const backSlots = lawnPlan('back')!.slots;
    const inBack = (ms: number) => backSlots.some((slot) => slot.startMs <= ms && ms < slot.endMs);
    const targets = lawnPlan('front')!
      .slots.map((slot) => ({ at: Math.max(clock.ms, slot.startMs) + 60_000, endMs: slot.endMs }))
      .filter((target) => target.at < target.endMs - 10 * 60_000 && !inBack(target.at));
    expect(targets.length, JSON.stringify({ front: lawnPlan('front')!.slots, back: backSlots })).toBeGreaterThan(0);
    clock.ms = targets[0]!.at;
    feed(dryHour(clock.ms));
    await waitUntil(() => lawnPlan('front')?.computedAtMs === clock.ms, 'the plans at the slot');
    await switchAutomatic('ON');
    await waitUntil(() => frontMower.model.activity === 'mowing', 'the front mower started in its slot', 20_000);
    await waitUntil(() => front()?.current_run?.started_by === 'daemon', "the front lawn's run, confirmed by its mower");
    expect(front()!.activity).toBe('mowing');
    // The back lawn's mower follows its own plan: no slot now, no command.
    expect(backMower.model.activity).toBe('docked');
    expect(back()!.decision?.code).toBe('outside_plan');
    expect(back()!.pending).toBeNull();

    // "Mow now" on the back lawn (Home Assistant's account, the back lawn's own topic): sent, but the mower loses it.
    const events = await RecordingClient.connect(daemon!.mqtt.brokerPort()!, { username: HA.username, password: HA.password });
    cleanups.push(() => events.close());
    const eventTypes = new Map<string, string[]>();
    events.client.on('message', (topic, payload) => {
      const type = (JSON.parse(payload.toString('utf8')) as { event_type: string }).event_type;
      eventTypes.set(topic, [...(eventTypes.get(topic) ?? []), type]);
    });
    await events.client.subscribeAsync(['mowability/+/mower/event'], { qos: 1 });
    const backTopics = mowerTopics('mowability', 'back');
    backMower.model.ignoreNext = 2;
    await publishOnce(daemon!.mqtt.brokerPort()!, backTopics.mowNow, 'PRESS', { qos: 1, connect: HA });
    await waitUntil(() => back()?.pending?.attempt === 1, "the back mower's start sent");
    clock.ms += 6_000;
    await waitUntil(() => back()?.pending?.attempt === 2, "the back mower's start retried");
    clock.ms += 11_000;
    feed(dryHour(clock.ms));
    await waitUntil(() => back()?.alert?.code === 'command_unconfirmed', 'the back lawn alerts');
    // Only the back lawn: the front mower mows on, both plans and the station's index are there.
    expect(front()!.alert).toBeNull();
    expect(front()!.activity).toBe('mowing');
    expect(lawnPlan('front')!.slots.length).toBeGreaterThan(0);
    expect(lawnPlan('back')).toBeDefined();
    expect(typeof state()!.index_score).toBe('number');
    await waitUntil(() => eventTypes.get('mowability/back/mower/event')?.includes('alert') === true, "the back lawn's alert event");
    expect(eventTypes.get('mowability/garden/mower/event') ?? []).not.toContain('alert');

    // Home Assistant: the back lawn's mower entities on the station's device, keys prefixed, its own topics, its own state.
    await events.client.subscribeAsync(['homeassistant/+/+/config'], { qos: 1 });
    const keys = [
      'switch/mowability_garden_%automatic_mowing',
      'button/mowability_garden_%mow_now',
      'sensor/mowability_garden_%mower_activity',
    ];
    const topics = keys.flatMap((key) => ['', 'back_'].map((prefix) => `homeassistant/${key.replace('%', prefix)}/config`));
    await waitUntil(() => topics.every((topic) => events.json(topic) !== undefined), "both lawns' mower entities");
    for (const topic of topics) expect(haDiscoveryViolations(topic, events.json(topic)!)).toEqual([]);
    const backSwitch = events.json('homeassistant/switch/mowability_garden_back_automatic_mowing/config')!;
    expect(backSwitch).toMatchObject({ name: 'Back lawn automatic mowing', command_topic: 'mowability/back/mower/automatic/set' });
    expect(events.json('homeassistant/switch/mowability_garden_automatic_mowing/config')).toMatchObject({
      name: 'Automatic mowing',
      command_topic: 'mowability/garden/mower/automatic/set',
    });
    const published = daemon!.station.stationState('garden') as unknown;
    expect(renderHaTemplate(backSwitch.value_template as string, published)).toBe('ON');
    const activity = events.json('homeassistant/sensor/mowability_garden_back_mower_activity/config')!;
    expect(renderHaTemplate(activity.json_attributes_template as string, published)).toContain('"alert"');
    expect(
      renderHaTemplate(activity.json_attributes_template as string, { ...(published as object), mower_control_lawns: undefined }),
    ).toBe('{}');

    // The mower answers again: a second press starts it, confirmed by its own state.
    await publishOnce(daemon!.mqtt.brokerPort()!, backTopics.mowNow, 'PRESS', { qos: 1, connect: HA });
    await waitUntil(() => backMower.model.activity === 'mowing', 'the back mower started on "Mow now"');
    await waitUntil(() => back()?.current_run?.started_by === 'daemon' && back()?.alert === null, "the back lawn's run");

    // Each lawn's run is in its own ledger rows.
    await daemon!.stop();
    daemon = undefined;
    const database = await Database.open(temp.dbPath);
    const runs = await database.all<{ lawn: string; station: string; started_by: string }>(
      'SELECT lawn, station, started_by FROM mower_runs ORDER BY id',
    );
    const calls = await database.all<{ lawn: string; n: number }>(
      'SELECT lawn, COUNT(*) AS n FROM mower_calls GROUP BY lawn ORDER BY lawn',
    );
    await database.close();
    expect(runs).toEqual([
      { lawn: 'front', station: 'garden', started_by: 'daemon' },
      { lawn: 'back', station: 'garden', started_by: 'daemon' },
    ]);
    // The back lawn: the lost start and its retry, then the start that came through; the front lawn: its one start.
    expect(calls).toEqual([
      { lawn: 'back', n: 3 },
      { lawn: 'front', n: 1 },
    ]);
  }, 120_000);
});
