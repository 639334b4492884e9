/**
 * Who may command on an external broker: the daemon cannot see who published, so docs/mqtt.md's
 * Mosquitto ACL (`acl_file`) gives write access to the command topics to Home Assistant's account
 * alone. Run against Debian's mosquitto with that ACL, taken from the docs: an anonymous client is
 * refused at CONNECT, another account's "Mow now", "ON", numbers, select and "Mowed now" are dropped
 * by the broker (the mower simulator gets no command, the values stay), Home Assistant's work.
 * Fails (does not skip) when CI is set and mosquitto is missing.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { mowerTopics } from '../../src/mower/mowerEntities.js';
import { controlCommandTopic } from '../../src/station/controlEntities.js';
import { mosquittoAvailable } from '../../bench/lib/mosquitto.js';
import { gardenUnitsWithMower, mqttMowerControl } from '../helpers/mqttMowerControl.js';
import { gardenMowerControl, makeStationMowable, SimulatedMower } from '../helpers/mowerSimulators.js';
import {
  FakeClock,
  mqttTempDir,
  RecordingClient,
  silentLogger,
  startMqttDaemon,
  testMqttConfig,
  waitUntil,
} from '../helpers/mqttHarness.js';
import { startSecureMosquitto } from '../helpers/secureMosquitto.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';
import mqtt from 'mqtt';

const available = mosquittoAvailable();
const required = Boolean(process.env.CI);
const T0 = Date.parse('2026-06-15T08:00:00Z');
const ACCOUNTS = { mowability: 'd', homeassistant: 'h', weewx: 'w', rtl433: 'r' };
/** A generic MQTT mower's block; the test hands in a simulator as its adapter (adapterFor). */
const CONTROL = mqttMowerControl({
  commandTopic: 'landroid/set/mow',
  stateTopic: 'landroid/status',
  stateKey: 'state',
  payloads: { start: 'start', dock: 'home', pause: 'stop' },
  states: { mowing: ['mowing'], docked: ['home'] },
});
const topics = mowerTopics('mowability', 'garden');
const STATE = 'mowability/garden/state';
/** A topic the ACL lets the daemon read and the weewx account write. */
const FORECAST_TOPIC = 'weewx/forecast';

describe.skipIf(!available && !required)("command topics on Mosquitto 2 with docs/mqtt.md's ACL", { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("another account's commands are dropped, an anonymous client is refused, Home Assistant's account commands", async () => {
    const temp = mqttTempDir();
    cleanups.push(() => temp.cleanup());
    const docs = readFileSync(new URL('../../docs/mqtt.md', import.meta.url), 'utf8');
    const acl = /```\n(# \/etc\/mosquitto\/acl\n[\s\S]*?)```/.exec(docs)?.[1];
    expect(acl, 'the ACL block of docs/mqtt.md').toBeDefined();
    const broker = await startSecureMosquitto(temp.dir, { accounts: ACCOUNTS, acl: acl! });
    cleanups.push(() => broker.stop('SIGKILL'));
    const clock = new FakeClock(T0);
    const config = testMqttConfig({
      stations: [
        {
          id: 'garden',
          name: 'Garden',
          format: 'json',
          topic: 'weewx/loop',
          fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
        },
      ] as never,
      station: { mowableOnDelayMinutes: 0 },
      broker: { enabled: false },
      mqtt: { url: `mqtt://127.0.0.1:${broker.port}`, username: 'mowability', password: ACCOUNTS.mowability },
    });
    const mower = new SimulatedMower();
    let unit: MowerControlUnit | undefined;
    const daemon = await startMqttDaemon(temp.dbPath, config, clock, silentLogger, (database) => {
      unit = gardenMowerControl(CONTROL, { store: database, clock, adapterFor: () => mower });
      return gardenUnitsWithMower(config, database, clock, unit, FORECAST_TOPIC);
    });
    cleanups.push(() => daemon.stop());
    const controller = unit!.controller('garden')!;
    await controller.setAutomatic(false);
    await waitUntil(() => daemon.service.stats().connected, 'the daemon connected to mosquitto');
    // A forecast on a topic the ACL lets the daemon read, and the station's reading, make it mowable.
    await makeStationMowable(daemon, 'garden', FORECAST_TOPIC, T0, {
      port: broker.port,
      connect: { username: 'weewx', password: ACCOUNTS.weewx },
    });

    const homeassistant = await RecordingClient.connect(broker.port, { username: 'homeassistant', password: ACCOUNTS.homeassistant });
    cleanups.push(() => homeassistant.close());
    await homeassistant.client.subscribeAsync(STATE, { qos: 1 });
    await waitUntil(() => homeassistant.json(STATE)?.controls !== undefined, 'the state with its controls');
    const controls = () => homeassistant.json(STATE)!.controls as Record<string, { value: unknown }>;
    const lawn = () => homeassistant.json(STATE)!.lawn as { last_cut_source: string | null };

    await expect(mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|refused/i);
    const other = await RecordingClient.connect(broker.port, { username: 'rtl433', password: ACCOUNTS.rtl433 });
    cleanups.push(() => other.close());
    for (const [topic, payload] of [
      [topics.mowNow, 'PRESS'],
      [topics.automaticSet, 'ON'],
      [controlCommandTopic('mowability', 'garden', 'mowable_off_threshold'), '10'],
      [controlCommandTopic('mowability', 'garden', 'mower_class'), 'ride_on'],
      ['mowability/garden/control/mowed_now', 'PRESS'],
    ] as const)
      // Mosquitto acknowledges a denied publish and drops it (MQTT 3.1.1 has no negative acknowledgement).
      await other.client.publishAsync(topic, payload, { qos: 1 });

    // Home Assistant's publish after the attacks: once its effect shows, the broker has handled the attacks before it.
    await homeassistant.client.publishAsync(controlCommandTopic('mowability', 'garden', 'mowable_on_threshold'), '80', { qos: 1 });
    await waitUntil(() => controls().mowable_on_threshold?.value === 80, "Home Assistant's number");
    expect(controls().mowable_off_threshold!.value).toBe(60);
    expect(controls().mower_class!.value).toBe('robot');
    expect(lawn().last_cut_source).toBeNull();
    expect(controller.automatic).toBe(false);
    expect(mower.model.received).toEqual([]);

    await homeassistant.client.publishAsync(topics.mowNow, 'PRESS', { qos: 1 });
    await homeassistant.client.publishAsync('mowability/garden/control/mowed_now', 'PRESS', { qos: 1 });
    await homeassistant.client.publishAsync(topics.automaticSet, 'ON', { qos: 1 });
    await waitUntil(() => mower.model.received.length > 0 && lawn().last_cut_source === 'home-assistant', 'Mow now and Mowed now').catch(
      (err: Error) => {
        throw new Error(
          `${err.message}: ${JSON.stringify({ received: mower.model.received, lawn: lawn(), control: homeassistant.json(STATE)!.mower_control })}`,
        );
      },
    );
    await waitUntil(() => controller.automatic, 'automatic mowing on');
    expect(mower.model.received).toEqual(['start']);
  });
});
