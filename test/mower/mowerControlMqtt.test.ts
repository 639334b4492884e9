/**
 * The mower control over a real broker (the embedded aedes broker, real mqtt.js clients): a generic
 * MQTT mower and an OpenMower receive the daemon's commands and confirm them with their state topics;
 * the "Automatic mowing" switch is published retained; an anonymous LAN client cannot switch automatic
 * mowing or press the buttons (the embedded broker's owned-topic rule, src/mqtt/brokerAccess.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MowerCommand } from '../../src/mower/adapter.js';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { mowerTopics } from '../../src/mower/mowerEntities.js';
import { OPENMOWER_ACTIONS } from '../../src/mower/mqttMowers.js';
import { mqttMowerControl } from '../helpers/mqttMowerControl.js';
import {
  FakeClock,
  mqttTempDir,
  RecordingClient,
  silentLogger,
  startMqttDaemon,
  testMqttConfig,
  waitUntil,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';
import { gardenMowerControl, makeStationMowable, mqttForecastUnit, mqttMowerOnBroker } from '../helpers/mowerSimulators.js';

const T0 = Date.parse('2026-06-15T08:00:00Z');
const weather = {
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
} as const;
/** landroid-bridge's own words (virtualzone/landroid-bridge src/LandroidS.ts, src/LandroidDataset.ts), as docs/mower.md configures them. */
const genericControl = mqttMowerControl({
  commandTopic: 'landroid/set/mow',
  stateTopic: 'landroid/status/statusDescription',
  stateKey: '',
  payloads: { start: 'start', dock: 'stop', pause: 'pause' },
  states: {
    mowing: ['Start sequence', 'Leaving home', 'Mowing', 'Cutting edge', 'Searching area'],
    docked: ['Home'],
    returning: ['Going home', 'Searching home', 'Follow wire', 'Searching wire'],
    paused: ['Pause', 'Idle'],
    error: ['Lifted', 'Trapped', 'Blade blocked'],
  },
});

const FORECAST_TOPIC = 'garden/forecast';

/** landroid-bridge's status words for the simulator's activities (src/LandroidDataset.ts STATUS_CODES). */
const LANDROID_WORDS = {
  docked: 'Home',
  mowing: 'Mowing',
  returning: 'Going home',
  paused: 'Pause',
  error: 'Trapped',
  unknown: 'Debug',
} as const;
/** The payloads landroid-bridge takes on set/mow (src/LandroidS.ts onMqttMessage). */
const LANDROID_COMMANDS: Record<string, MowerCommand> = { start: 'start', stop: 'dock', pause: 'pause' };

describe('mower control on the embedded broker', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * The daemon with the mower control and the forecast unit (its MQTT forecast topic). The decision
   * reads the pipeline's own states: the test gives the station a dry forecast and a dry reading,
   * as a weather station and Home Assistant would, and waits for the state that says mowable.
   */
  async function daemonWith(
    control: Record<string, unknown>,
  ): Promise<{ daemon: RunningDaemon; unit: MowerControlUnit; clock: FakeClock }> {
    const temp = mqttTempDir();
    cleanups.push(async () => temp.cleanup());
    const clock = new FakeClock(T0);
    let unit: MowerControlUnit | undefined;
    const config = testMqttConfig({
      stations: [{ id: 'garden', name: 'Garden', ...weather }] as never,
      station: { mowableOnDelayMinutes: 0 },
    });
    const daemon = await startMqttDaemon(temp.dbPath, config, clock, silentLogger, (database) => {
      const forecast = mqttForecastUnit({
        database: database as never,
        now: () => clock.now(),
        stationId: 'garden',
        topic: FORECAST_TOPIC,
      });
      unit = gardenMowerControl(control, { store: database, clock });
      return [forecast, unit];
    });
    cleanups.push(() => daemon.stop());
    await makeStationMowable(daemon, 'garden', FORECAST_TOPIC, T0);
    return { daemon, unit: unit!, clock };
  }

  /** A Worx mower behind landroid-bridge, on the daemon's broker. */
  const landroid = (daemon: RunningDaemon) =>
    mqttMowerOnBroker({
      url: `mqtt://127.0.0.1:${daemon.port}`,
      commandTopic: 'landroid/set/mow',
      stateTopic: 'landroid/status/statusDescription',
      commandOf: (payload) => LANDROID_COMMANDS[payload],
      stateOf: (activity) => LANDROID_WORDS[activity],
    });

  it('a Worx mower behind landroid-bridge (generic MQTT) is started on set/mow and the start is confirmed by its statusDescription', async () => {
    const { daemon, unit } = await daemonWith(genericControl);
    const mower = await landroid(daemon);
    cleanups.push(() => mower.stop());
    const controller = unit.controller('garden')!;
    await waitUntil(() => controller.status(T0).activity !== 'unknown', 'the mower reported its state');
    await unit.tickAll();
    await waitUntil(() => mower.model.activity === 'mowing', 'the mower mows');
    await waitUntil(() => controller.runs().at(-1)?.startedBy === 'daemon', 'the ledger has the daemon run');
    expect(mower.model.received).toEqual(['start']);
    expect(controller.status(T0).pending).toBeNull();
  });

  it('an OpenMower gets its documented action and its robot_state/json confirms it', async () => {
    const { daemon, unit } = await daemonWith({
      ...genericControl,
      mqtt: undefined,
      kind: 'openmower',
      openmower: { prefix: 'openmower' },
    });
    const byAction = new Map(Object.entries(OPENMOWER_ACTIONS).map(([command, action]) => [action, command as MowerCommand]));
    const states = {
      mowing: 'MOWING',
      docked: 'IDLE',
      paused: 'PAUSED',
      returning: 'DOCKING',
      error: 'IDLE',
      unknown: 'AREA_RECORDING',
    } as const;
    const mower = await mqttMowerOnBroker({
      url: `mqtt://127.0.0.1:${daemon.port}`,
      commandTopic: 'openmower/action',
      stateTopic: 'openmower/robot_state/json',
      commandOf: (payload) => byAction.get(payload),
      stateOf: (activity) =>
        JSON.stringify({
          current_state: states[activity],
          emergency: activity === 'error',
          is_charging: activity === 'docked',
          battery_percentage: 90,
        }),
    });
    cleanups.push(() => mower.stop());
    const controller = unit.controller('garden')!;
    await waitUntil(() => controller.status(T0).activity !== 'unknown', 'IDLE read');
    await unit.tickAll();
    await waitUntil(() => controller.runs().at(-1)?.startedBy === 'daemon', 'started and confirmed');
    expect(mower.model.received).toEqual(['start']);
    await controller.dockNow();
    await waitUntil(() => controller.runs().at(-1)?.outcome === 'docked_by_user', 'docked from "Dock now"');
    expect(mower.model.received).toEqual(['start', 'dock']);
  });

  it('publishes the switch retained; an anonymous LAN client can neither switch automatic mowing off nor press "Dock now"', async () => {
    const { daemon, unit } = await daemonWith(genericControl);
    const mower = await landroid(daemon);
    cleanups.push(() => mower.stop());
    const controller = unit.controller('garden')!;
    await unit.tickAll();
    await waitUntil(() => controller.runs().at(-1)?.startedBy === 'daemon', 'the daemon started a run');
    const topics = mowerTopics('mowability', 'garden');
    const observer = await RecordingClient.connect(daemon.port);
    cleanups.push(() => observer.close());
    await observer.client.subscribeAsync([topics.automatic, topics.automaticSet, topics.dockNow], { qos: 1 });
    await waitUntil(() => observer.text(topics.automatic) === 'ON', 'the retained switch state');
    expect(observer.latest.get(topics.automatic)?.retain).toBe(true);

    // Each attempt on its own connection: the embedded broker answers a refused publish by closing it (MQTT 3.1.1).
    for (const [topic, payload] of [
      [topics.automaticSet, 'OFF'],
      [topics.dockNow, 'PRESS'],
    ] as const) {
      const attacker = await RecordingClient.connect(daemon.port);
      cleanups.push(() => attacker.close());
      let closed = false;
      attacker.client.once('close', () => (closed = true));
      attacker.client.publish(topic, payload, { qos: 1 });
      // Refused: the broker closes the connection. Accepted (the rule missing): the observer sees the publish.
      await waitUntil(() => closed || observer.latest.has(topic), 'the broker handled the publish');
    }
    await unit.tickAll();
    expect(observer.latest.has(topics.automaticSet)).toBe(false);
    expect(observer.latest.has(topics.dockNow)).toBe(false);
    expect(controller.automatic).toBe(true);
    expect(mower.model.received).toEqual(['start']);
  });
});
