/**
 * Who may command on the embedded broker: the mower control's switch and buttons and the Home
 * Assistant controls (numbers, select, "Mowed now") take commands only from the daemon and from the
 * account `homeassistant.commandAccount` names. Attacked with real mqtt.js clients on a real aedes
 * broker over a real SQLite database: an anonymous LAN client (anonymous broker) and another
 * account publish "Mow now", "ON", "OFF", a number and a press → nothing happens (the mower
 * simulator gets no command, the values stay); Home Assistant's account does the same and it works,
 * and what it set survives a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { crossKeyProblems } from '../../src/config/crossKeyRules.js';
import type { MowerCommand } from '../../src/mower/adapter.js';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { mowerTopics } from '../../src/mower/mowerEntities.js';
import { controlCommandTopic } from '../../src/station/controlEntities.js';
import type { BrokerUser } from '../../src/config/mqttValues.js';
import { gardenUnitsWithMower, mqttMowerControl } from '../helpers/mqttMowerControl.js';
import {
  FakeClock,
  mqttTempDir,
  publishOnce,
  RecordingClient,
  silentLogger,
  startMqttDaemon,
  testMqttConfig,
  waitUntil,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';
import { gardenMowerControl, makeStationMowable, mqttMowerOnBroker } from '../helpers/mowerSimulators.js';

const T0 = Date.parse('2026-06-15T08:00:00Z');
const HA: BrokerUser = { username: 'homeassistant', password: 'ha password 1' };
const OTHER: BrokerUser = { username: 'rtl433', password: 'rtl password 1' };
const MOWER: BrokerUser = { username: 'landroid', password: 'mower password' };
const station = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
};
const control = mqttMowerControl({
  commandTopic: 'landroid/set/mow',
  stateTopic: 'landroid/status',
  stateKey: 'state',
  payloads: { start: 'start', dock: 'home', pause: 'stop' },
  states: { mowing: ['mowing'], docked: ['home', 'charging'], returning: ['going home'], error: ['error'] },
});
const FORECAST_TOPIC = 'garden/forecast';
const topics = mowerTopics('mowability', 'garden');
const onThreshold = controlCommandTopic('mowability', 'garden', 'mowable_on_threshold');
const mowerClass = controlCommandTopic('mowability', 'garden', 'mower_class');
const mowedNow = 'mowability/garden/control/mowed_now';
const STATE = 'mowability/garden/state';

interface Setup {
  daemon: RunningDaemon;
  unit: MowerControlUnit;
  mower: Awaited<ReturnType<typeof mqttMowerOnBroker>>;
  observer: RecordingClient;
}

describe('command topics on the embedded broker', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(dbPath: string, users: BrokerUser[], commandAccount: string, restart = false): Promise<Setup> {
    const clock = new FakeClock(T0);
    const config = testMqttConfig({
      stations: [station] as never,
      broker: { users },
      homeassistant: { commandAccount },
      station: { mowableOnDelayMinutes: 0 },
    });
    expect(crossKeyProblems(config)).toEqual([]);
    let unit: MowerControlUnit | undefined;
    const daemon = await startMqttDaemon(dbPath, config, clock, silentLogger, (database) => {
      unit = gardenMowerControl(control, { store: database, clock });
      return gardenUnitsWithMower(config, database, clock, unit, FORECAST_TOPIC);
    });
    cleanups.push(() => daemon.stop());
    await makeStationMowable(daemon, 'garden', FORECAST_TOPIC, T0, { port: daemon.port, ...(users.length > 0 ? { connect: HA } : {}) });
    // Off (persisted) before the mower reports: no automatic start, so every command the mower gets is one of the test's.
    if (!restart) await unit!.controller('garden')!.setAutomatic(false);
    const auth = users.length > 0 ? { auth: MOWER } : {};
    const words: Record<string, MowerCommand> = { start: 'start', home: 'dock' };
    const mower = await mqttMowerOnBroker({
      url: `mqtt://127.0.0.1:${daemon.port}`,
      commandTopic: 'landroid/set/mow',
      stateTopic: 'landroid/status',
      commandOf: (payload) => words[payload],
      stateOf: (activity) => JSON.stringify({ state: activity === 'docked' ? 'home' : activity }),
      ...auth,
    });
    cleanups.push(() => mower.stop());
    await waitUntil(() => unit!.controller('garden')!.status(T0).activity === 'docked', 'the mower reported docked');
    const observer = await RecordingClient.connect(daemon.port, users.length > 0 ? { username: HA.username, password: HA.password } : {});
    cleanups.push(() => observer.close());
    await observer.client.subscribeAsync([STATE, topics.automatic], { qos: 1 });
    await waitUntil(() => observer.json(STATE)?.controls !== undefined, 'the state with its controls');
    return { daemon, unit: unit!, mower, observer };
  }

  const controls = (observer: RecordingClient) =>
    observer.json(STATE)!.controls as Record<'mowable_on_threshold' | 'mower_class', { value: unknown; source: string }>;
  const observerControls = (observer: RecordingClient) => observer.json(STATE)!.controls as Record<string, unknown>;
  const lawn = (observer: RecordingClient) => observer.json(STATE)!.lawn as { last_cut_source: string | null };

  /** Every attack on its own connection: the embedded broker answers a refused publish by closing it (MQTT 3.1.1). */
  async function attack(port: number, connect: { username?: string; password?: string }): Promise<void> {
    for (const [topic, payload] of [
      [topics.mowNow, 'PRESS'],
      [topics.automaticSet, 'ON'],
      [onThreshold, '5'],
      [mowerClass, 'ride_on'],
      [mowedNow, 'PRESS'],
    ] as const) {
      expect(await publishOnce(port, topic, payload, { qos: 1, connect }), topic).toBe('closed');
    }
  }

  it('an anonymous LAN client on the anonymous broker commands nothing: no mower command, no value changed, no cut', async () => {
    const temp = mqttTempDir();
    cleanups.push(async () => temp.cleanup());
    const { daemon, unit, mower, observer } = await start(temp.dbPath, [], '');
    await attack(daemon.port, {});
    // The daemon's own side still commands (a tick): the state goes out again and shows nothing of the attacks.
    await unit.tickAll();
    daemon.service.recompute('garden');
    await waitUntil(() => observer.text(topics.automatic) === 'OFF', 'the switch state');
    expect(mower.model.received).toEqual([]);
    expect(unit.controller('garden')!.automatic).toBe(false);
    expect(controls(observer).mowable_on_threshold).toMatchObject({ value: 70, source: 'config' });
    expect(controls(observer).mower_class).toMatchObject({ value: 'robot', source: 'config' });
    expect(lawn(observer).last_cut_source).toBeNull();
  });

  it("another account commands nothing; Home Assistant's account presses Mow now, switches, sets and records a cut, and it survives a restart", async () => {
    const temp = mqttTempDir();
    cleanups.push(async () => temp.cleanup());
    const users = [HA, OTHER, MOWER];
    const first = await start(temp.dbPath, users, HA.username);
    // Without an account the broker refuses the login itself.
    expect(await publishOnce(first.daemon.port, topics.mowNow, 'PRESS', { qos: 1 })).toBe('refused');
    await attack(first.daemon.port, { username: OTHER.username, password: OTHER.password });
    expect(first.mower.model.received).toEqual([]);

    const ha = await RecordingClient.connect(first.daemon.port, { username: HA.username, password: HA.password });
    cleanups.push(() => ha.close());
    await ha.client.publishAsync(topics.mowNow, 'PRESS', { qos: 1 });
    await waitUntil(() => first.mower.model.received.length > 0, 'the mower got the start');
    expect(first.mower.model.received).toEqual(['start']);
    await ha.client.publishAsync(onThreshold, '80', { qos: 1 });
    await ha.client.publishAsync(mowerClass, 'ride_on', { qos: 1 });
    await ha.client.publishAsync(mowedNow, 'PRESS', { qos: 1 });
    await ha.client.publishAsync(topics.automaticSet, 'ON', { qos: 1 });
    await waitUntil(() => first.observer.text(topics.automatic) === 'ON', 'automatic mowing on');
    await waitUntil(
      () =>
        controls(first.observer).mowable_on_threshold?.value === 80 &&
        controls(first.observer).mower_class?.value === 'ride_on' &&
        lawn(first.observer).last_cut_source === 'home-assistant',
      'the values and the cut in the state',
    );
    expect(controls(first.observer).mowable_on_threshold.source).toBe('home_assistant');
    // A number outside its range: refused with the reason (an event and the state), the value in force stays.
    await ha.client.subscribeAsync('mowability/garden/control/refused', { qos: 1 });
    await ha.client.publishAsync(onThreshold, '150', { qos: 1 });
    await waitUntil(() => ha.latest.has('mowability/garden/control/refused'), 'the refusal event');
    expect(ha.json('mowability/garden/control/refused')).toMatchObject({
      control: 'mowable_on_threshold',
      reason: 'a threshold must be a number from 0 to 100',
    });
    await waitUntil(
      () =>
        (observerControls(first.observer).last_refused as { reason?: string } | null)?.reason ===
        'a threshold must be a number from 0 to 100',
      'the refusal in the state',
    );
    expect(controls(first.observer).mowable_on_threshold.value).toBe(80);
    // Only Home Assistant's start reached the mower: the attacks before it left no trace.
    expect(first.mower.model.received).toEqual(['start']);
    await ha.close();
    await first.observer.close();
    await first.mower.stop();
    await first.daemon.stop();

    const second = await start(temp.dbPath, users, HA.username, true);
    expect(controls(second.observer).mowable_on_threshold).toMatchObject({ value: 80, source: 'home_assistant' });
    expect(controls(second.observer).mower_class).toMatchObject({ value: 'ride_on', source: 'home_assistant' });
    expect(lawn(second.observer).last_cut_source).toBe('home-assistant');
    expect(second.unit.controller('garden')!.automatic).toBe(true);
    await waitUntil(() => second.observer.text(topics.automatic) === 'ON', 'the switch stays on after the restart');
  });

  it('refuses a command account that names no broker.users account, and one set with an external broker', () => {
    const missing = testMqttConfig({ broker: { users: [OTHER] }, homeassistant: { commandAccount: 'homeassistant' } });
    expect(crossKeyProblems(missing).join('\n')).toMatch(
      /"homeassistant\.commandAccount" = "homeassistant" names no account of "broker\.users"/,
    );
    const anonymous = testMqttConfig({ homeassistant: { commandAccount: 'homeassistant' } });
    expect(crossKeyProblems(anonymous).join('\n')).toMatch(/names no account of "broker\.users": add/);
    const external = testMqttConfig({ mqtt: { url: 'mqtt://broker:1883' }, homeassistant: { commandAccount: 'homeassistant' } });
    expect(crossKeyProblems(external).join('\n')).toMatch(/external broker.*ACL/);
  });
});
