/**
 * A robot's state topic records cuts through the real broker: a real mqtt.js client plays the robot
 * (Home Assistant's lawn_mower states as plain text, a Landroid-style JSON status), the daemon's clock
 * is the fixture's fake one, and the tests wait on the published state, never on sleeps.
 */
import { expect, test } from 'vitest';
import { MowerStateSources } from '../../src/lawn/mowerStateSource.js';
import { silentLogger } from '../helpers/mqttHarness.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/wait.js';
import { replay, type Weather } from './lawnHarness.js';
import { startMowerDaemon, type MowerDaemon } from './mowerHarness.js';

const mild: Weather = { temperature: 17, humidity: 60, wind_speed: 8, solar: 400 };
const MIN = 60_000;
const ROBOT_TOPIC = 'homeassistant/lawn_mower/robbi/state';

const lastCut = (lawn: MowerDaemon) => lawn.state()?.lawn.last_cut_at;
const received = (lawn: MowerDaemon, count: number) => () => lawn.mower.counters.mowerStatesReceived >= count;

mqttTest('a run of "mowing" for 30 min records a cut when the robot docks; a 5-minute run does not', async ({ mqtt }) => {
  const lawn = await startMowerDaemon(mqtt, { topic: ROBOT_TOPIC });
  replay(lawn, mqtt.clock, '2026-06-15T08:00:00Z', '2026-06-15T10:00:00Z', () => mild);
  const robot = await mqtt.connect(lawn.daemon.port);

  await robot.client.publishAsync(ROBOT_TOPIC, 'mowing', { qos: 1 });
  await waitUntil(received(lawn, 1), 'the robot\'s "mowing"');
  mqtt.clock.ms += 5 * MIN;
  await robot.client.publishAsync(ROBOT_TOPIC, 'returning', { qos: 1 });
  await waitUntil(received(lawn, 2), 'the robot\'s "returning"');
  expect(lawn.mower.counters.mowerCuts).toBe(0);

  mqtt.clock.ms = Date.parse('2026-06-15T10:30:00Z');
  await robot.client.publishAsync(ROBOT_TOPIC, 'mowing', { qos: 1 });
  await robot.client.publishAsync(ROBOT_TOPIC, 'not a state \u0000'.repeat(400), { qos: 1 });
  await waitUntil(received(lawn, 4), 'the second run and the garbage');
  expect(lawn.mower.stateFragment('garden', mqtt.clock.now() + 12 * MIN)).toEqual({
    mower: { topic: ROBOT_TOPIC, state: 'mowing', mowing: true, mowing_minutes: 12 },
  });
  mqtt.clock.ms += 30 * MIN;
  await robot.client.publishAsync(ROBOT_TOPIC, 'docked', { qos: 1 });
  await waitUntil(() => lastCut(lawn) === '2026-06-15T11:00:00.000Z', 'the cut at the end of the run in the published state');
  expect(lawn.state()!.lawn).toMatchObject({ last_cut_source: 'mower', mow_need: 0 });
  expect(lawn.state()).toMatchObject({ mower: { topic: ROBOT_TOPIC, state: 'docked', mowing: false, mowing_minutes: 0 } });
  expect(lawn.daemon.service.stats().units.mower).toEqual({ mowerStatesReceived: 5, mowerStatesRejected: 1, mowerCuts: 1 });

  // The cut went the one way cuts are recorded: it is in the database after a restart.
  await lawn.stop();
  const again = await startMowerDaemon(mqtt, { topic: ROBOT_TOPIC });
  replay(again, mqtt.clock, '2026-06-15T11:10:00Z', '2026-06-15T11:10:00Z', () => mild);
  expect(again.state()!.lawn).toMatchObject({ last_cut_at: '2026-06-15T11:00:00.000Z', last_cut_source: 'mower' });
});

mqttTest('a retained "mowing" replayed after a restart starts no run: its age is unknown', async ({ mqtt }) => {
  const first = await startMowerDaemon(mqtt, { topic: ROBOT_TOPIC });
  const bridge = await mqtt.connect(first.daemon.port);
  await bridge.client.publishAsync(ROBOT_TOPIC, 'mowing', { qos: 1, retain: true });
  await waitUntil(received(first, 1), 'the live "mowing"');
  await bridge.close();
  await first.stop();

  mqtt.clock.ms += 60 * MIN;
  const lawn = await startMowerDaemon(mqtt, { topic: ROBOT_TOPIC });
  replay(lawn, mqtt.clock, new Date(mqtt.clock.now()).toISOString(), new Date(mqtt.clock.now()).toISOString(), () => mild);
  await waitUntil(received(lawn, 1), 'the broker\'s retained "mowing"');
  expect(lawn.mower.stateFragment('garden', mqtt.clock.now())).toMatchObject({ mower: { state: 'mowing', mowing: false } });
  mqtt.clock.ms += 30 * MIN;
  const robot = await mqtt.connect(lawn.daemon.port);
  await robot.client.publishAsync(ROBOT_TOPIC, 'docked', { qos: 1 });
  await waitUntil(received(lawn, 2), 'the live "docked"');
  expect(lawn.mower.counters.mowerCuts).toBe(0);
  expect(lastCut(lawn)).toBeNull();
});

mqttTest('a Landroid-style JSON status: the numeric state at a dotted path, own mowing states and minimum', async ({ mqtt }) => {
  const topic = 'landroid/robbi/status';
  const lawn = await startMowerDaemon(mqtt, { topic, key: 'dat.ls', mowingStates: ['7', '32'], minMinutes: 20 });
  replay(lawn, mqtt.clock, '2026-06-15T08:00:00Z', '2026-06-15T09:00:00Z', () => mild);
  const robot = await mqtt.connect(lawn.daemon.port);
  const status = (ls: number) => JSON.stringify({ cfg: { sc: { m: 1 } }, dat: { ls, le: 0, bt: { p: 80 } } });

  await robot.client.publishAsync(topic, status(7), { qos: 1 });
  await waitUntil(received(lawn, 1), 'mowing (7)');
  mqtt.clock.ms += 15 * MIN;
  await robot.client.publishAsync(topic, status(32), { qos: 1 });
  await waitUntil(received(lawn, 2), 'border cut (32), still mowing');
  mqtt.clock.ms += 10 * MIN;
  await robot.client.publishAsync(topic, status(1), { qos: 1 });
  await waitUntil(() => lastCut(lawn) === '2026-06-15T09:25:00.000Z', 'the cut after 25 min of mowing');
  expect(lawn.state()!.lawn.last_cut_source).toBe('mower');
});

test("a further lawn's own mower topic records that lawn's cut, and its state shows under mower_lawns", () => {
  let nowMs = Date.parse('2026-06-15T08:00:00Z');
  const cuts: Array<{ station: string; lawn: string | undefined; source: string }> = [];
  const sources = new MowerStateSources(
    [
      { id: 'garden', mower: { topic: 'front/state' } },
      { id: 'garden', mower: { topic: 'back/state' }, lawnId: 'back' },
    ],
    (station, _atMs, source, lawn) => (cuts.push({ station, lawn, source }), true),
    silentLogger,
    () => nowMs,
  );
  sources.handle('back', Buffer.from('mowing'), false);
  nowMs += 30 * MIN;
  expect(sources.handle('back', Buffer.from('docked'), false)).toBe(true);
  expect(cuts).toEqual([{ station: 'garden', lawn: 'back', source: 'mower' }]);
  expect(sources.stateFragment('garden', nowMs)).toEqual({
    mower: { topic: 'front/state', state: null, mowing: false, mowing_minutes: 0 },
    mower_lawns: { back: { topic: 'back/state', state: 'docked', mowing: false, mowing_minutes: 0 } },
  });
  // The first lawn's topic records the station's cut, as before.
  sources.handle('garden', Buffer.from('mowing'), false);
  nowMs += 30 * MIN;
  sources.handle('garden', Buffer.from('docked'), false);
  expect(cuts.at(-1)).toEqual({ station: 'garden', lawn: undefined, source: 'mower' });
});
