/**
 * The topics other clients write in our namespaces (a station's `mowed` command, the upload relay
 * `mowability-upload/<station>`), attacked the way the second hardening review did: retained
 * 60 KB messages to command topics of stations that do not exist (4,000 were accepted, never
 * counted, and replayed to every new subscriber), and anonymous readings through the relay,
 * which skips the upload PASSKEY.
 */
import { stationUnitConfigs } from '../../src/daemon.js';
import { describe, expect, it as unit } from 'vitest';
import { crossKeyProblems } from '../../src/config/crossKeyRules.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { uploadRelayTopic } from '../../src/ingest/uploadStations.js';
import { ClientTopics } from '../../src/mqtt/clientTopics.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { noRetainedMessage, publishOnce, retainedUnder, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { ecowittBody } from '../helpers/uploadPayloads.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const gateway: StationConfig = {
  id: 'gw',
  name: 'Gateway',
  format: 'ecowitt-http',
  upload: { passkeySha256: 'a'.repeat(64) },
  topic: uploadRelayTopic('gw'),
};
const PAYLOAD = Buffer.alloc(60 * 1024, 'x');
const ACCOUNT = { username: 'nodered', password: 'relay password' };

describe('which command and relay topics other clients may write', () => {
  const topics = new ClientTopics({ baseTopic: 'mowability', stationIds: ['garden', 'gw'], relayStationIds: ['gw'], uploadRelay: true });

  unit('allows only configured stations, the relay only with an account, and keeps neither retained', () => {
    expect(topics.verdict('mowability/garden/mowed', undefined)).toEqual({ kind: 'allowed' });
    expect(topics.verdict('mowability/other/mowed', undefined)).toEqual({ kind: 'other' });
    expect(topics.verdict('mowability/garden/state', undefined)).toEqual({ kind: 'other' });
    expect(topics.verdict('rtl_433/events', undefined)).toEqual({ kind: 'other' });
    expect(topics.verdict('mowability-upload/gw', 'rtl433')).toEqual({ kind: 'allowed' });
    expect(topics.verdict('mowability-upload/gw', undefined)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/broker.users account/),
    });
    expect(topics.verdict('mowability-upload/garden', 'rtl433')).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/no upload station/),
    });
    expect(topics.verdict('mowability-upload', 'rtl433')).toMatchObject({ kind: 'refused' });
    const off = new ClientTopics({ baseTopic: 'mowability', stationIds: ['gw'], relayStationIds: ['gw'], uploadRelay: false });
    expect(off.verdict('mowability-upload/gw', 'rtl433')).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/mqtt.uploadRelay=false/),
    });
    expect(topics.dropsRetain('mowability/garden/mowed')).toBe(true);
    expect(topics.dropsRetain('mowability-upload/gw')).toBe(true);
    expect(topics.dropsRetain('mowability/other/mowed')).toBe(false);
    expect(topics.dropsRetain('ha/forecast/garden')).toBe(false);
  });

  unit("opens Home Assistant's command topics of configured stations to the command account alone, and keeps none retained", () => {
    const commands = new ClientTopics({
      baseTopic: 'mowability',
      stationIds: ['garden'],
      relayStationIds: [],
      uploadRelay: false,
      commandAccount: 'homeassistant',
    });
    const list = [
      'mowability/garden/mower/automatic/set',
      'mowability/garden/mower/mow_now',
      'mowability/garden/mower/dock_now',
      'mowability/garden/control/mowed_now',
      'mowability/garden/control/mowable_on_threshold/set',
      'mowability/garden/control/mowable_off_threshold/set',
      'mowability/garden/control/mowable_on_delay_minutes/set',
      'mowability/garden/control/mower_class/set',
    ];
    for (const topic of list) {
      expect(commands.verdict(topic, 'homeassistant'), topic).toEqual({ kind: 'allowed' });
      expect(commands.verdict(topic, 'rtl433'), topic).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/commandAccount/) });
      expect(commands.verdict(topic, undefined), topic).toMatchObject({ kind: 'refused' });
      expect(commands.dropsRetain(topic), topic).toBe(true);
      // Without a command account nobody but the daemon.
      expect(topics.verdict(topic, 'homeassistant'), topic).toMatchObject({ kind: 'refused' });
    }
    // The daemon's own topics beside them, and other stations' commands, stay the daemon's (decided by ownership).
    for (const topic of [
      'mowability/garden/mower/automatic',
      'mowability/garden/mower/event',
      'mowability/garden/control/refused',
      'mowability/other/mower/mow_now',
      'mowability/garden/control/mowable_on_threshold',
      'mowability/garden/control/mowed_now/x',
      'other/garden/mower/mow_now',
    ])
      expect(commands.verdict(topic, 'homeassistant'), topic).toEqual({ kind: 'other' });
  });
});

describe('a forecast topic under the base topic', () => {
  unit('is refused by the configuration: only the daemon may publish there, so the forecast would never arrive', () => {
    const station = { ...garden, forecast: { source: 'mqtt' as const, topic: 'mowability/garden/forecast' } };
    expect(crossKeyProblems(testMqttConfig({ stations: [station] }), { units: stationUnitConfigs() })).toContainEqual(
      expect.stringMatching(/forecast\.topic "mowability\/garden\/forecast" lies under/),
    );
  });
});

/** Publishes `count` retained 60 KB messages from fresh anonymous clients to `topicOf(i)`. */
async function flood(port: number, count: number, topicOf: (i: number) => string): Promise<string[]> {
  const results: string[] = [];
  for (let i = 0; i < count; i++) results.push(await publishOnce(port, topicOf(i), PAYLOAD, { qos: 1, retain: true }));
  return results;
}

describe('retained flood through the command topics', () => {
  it('refuses command topics of unknown stations and keeps no retained copy of a known one', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ stations: [garden] }));
    const watcher = await mqtt.connect(daemon.port);
    await watcher.client.subscribeAsync('mowability/garden/mowed', { qos: 1 });

    expect(await flood(daemon.port, 40, (i) => `mowability/s${i}/mowed`)).toEqual(Array.from({ length: 40 }, () => 'closed'));
    expect(await flood(daemon.port, 40, () => 'mowability/garden/mowed')).toEqual(Array.from({ length: 40 }, () => 'handled'));

    // Delivered live (the contract of the command), never kept: a new subscriber gets nothing retained.
    await waitUntil(() => watcher.latest.get('mowability/garden/mowed')?.count === 40, 'the live mowed messages');
    expect(await noRetainedMessage(daemon.port, 'mowability/garden/mowed')).toBe(true);
    const retained = await retainedUnder(daemon.port, 'mowability/+/mowed');
    expect([...retained.keys()]).toEqual([]);
    expect(daemon.service.stats()).toMatchObject({ brokerRetainDropped: 40, brokerRetainedMessages: 0, brokerRetainedBytes: 0 });
    expect(daemon.service.stats().brokerRejectedPublishes).toBeGreaterThanOrEqual(40);
  });
});

describe('the upload relay topic', () => {
  it('is off by default: an anonymous reading there is refused and never reaches the station', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ stations: [gateway] }));
    expect(await publishOnce(daemon.port, uploadRelayTopic('gw'), ecowittBody('gw2000a_2'), { qos: 1 })).toBe('closed');
    expect(daemon.service.stationCounts().get('gw')?.received ?? 0).toBe(0);
  });

  it('when on, still refuses anonymous clients, and takes readings from a broker.users account', async ({ mqtt }) => {
    const anonymous = await mqtt.start(testMqttConfig({ mqtt: { uploadRelay: true }, stations: [gateway] }));
    expect(await publishOnce(anonymous.port, uploadRelayTopic('gw'), ecowittBody('gw2000a_2'), { qos: 1 })).toBe('closed');
    expect(anonymous.service.stationCounts().get('gw')?.received ?? 0).toBe(0);
    await anonymous.stop();

    const daemon = await mqtt.start(testMqttConfig({ mqtt: { uploadRelay: true }, broker: { users: [ACCOUNT] }, stations: [gateway] }));
    const connect = { username: ACCOUNT.username, password: ACCOUNT.password };
    expect(await publishOnce(daemon.port, uploadRelayTopic('gw'), ecowittBody('gw2000a_2'), { qos: 1, retain: true, connect })).toBe(
      'handled',
    );
    await waitUntil(() => (daemon.service.stationCounts().get('gw')?.received ?? 0) === 1, 'the relayed reading');
    expect(await publishOnce(daemon.port, 'mowability-upload/nosuch', 'x', { qos: 1, connect })).toBe('closed');
    expect(daemon.service.stats()).toMatchObject({ brokerRetainDropped: 1, brokerRetainedMessages: 0 });
  });
});
