/**
 * Fake discovery configs on topics we do not own: Home Assistant keeps the
 * first config it sees for a unique id and merges by device identifier,
 * whatever the topic, so a config elsewhere under the prefix that claims our
 * unique ids or our device must be refused live and dropped on restore.
 */
import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { claimsOurDiscovery } from '../../src/mqtt/brokerAccess.js';
import {
  discoveryDeviceIdPrefix,
  discoveryEntityObjectIds,
  discoveryMessages,
  discoveryUniqueIdPrefix,
} from '../../src/homeassistant/discovery.js';
import { Database } from '../../src/store/database.js';
import { RetainedStore } from '../../src/store/retainedStore.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { mqttTest, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import { publishOnce, retainedUnder, storedRetainedTopics, testMqttConfig, waitUntil, type RunningDaemon } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const identity = {
  prefix: 'homeassistant',
  uniqueIdPrefix: discoveryUniqueIdPrefix('mowability'),
  deviceIdPrefix: discoveryDeviceIdPrefix('mowability'),
  entityObjectIds: discoveryEntityObjectIds('homeassistant', 'mowability', [garden]),
};
const DEVICE = { identifiers: ['mowability_mowability_garden'], name: 'Mowability Garden' };
const ENTITY = { name: 'Mowable now', state_topic: 'evil/state', value_template: 'ON' };

/** The three shapes of the review: another object id, HA's node-id form, and a device-based config. */
const ATTACKS = [
  { topic: 'homeassistant/binary_sensor/evil/config', payload: { ...ENTITY, unique_id: 'mowability_garden_mowable', device: DEVICE } },
  {
    topic: 'homeassistant/binary_sensor/node/mowability_garden_mowable/config',
    payload: { ...ENTITY, uniq_id: 'mowability_garden_mowable' },
  },
  {
    topic: 'homeassistant/device/mowability_garden/config',
    payload: { dev: { ids: 'mowability_mowability_garden' }, o: { name: 'x' }, cmps: { m: { p: 'binary_sensor', stat_t: 'evil/state' } } },
  },
  // Both spellings of a key: Home Assistant lets the abbreviated value win, so each must be checked.
  {
    topic: 'homeassistant/binary_sensor/evil2/config',
    payload: { unique_id: 'e', uniq_id: 'mowability_garden_mowable', state_topic: 'evil/state' },
  },
  {
    topic: 'homeassistant/binary_sensor/evil3/config',
    payload: { ...ENTITY, unique_id: 'e3', device: { identifiers: ['e3'] }, dev: { ids: ['mowability_mowability_garden'] } },
  },
  {
    topic: 'homeassistant/binary_sensor/evil4/config',
    payload: { ...ENTITY, unique_id: 'e4', device: { identifiers: ['e4'], ids: 'mowability_mowability_garden' } },
  },
  {
    topic: 'homeassistant/device/evil5/config',
    payload: {
      dev: { ids: 'e5' },
      o: { name: 'x' },
      components: {},
      cmps: { m: { p: 'binary_sensor', uniq_id: 'mowability_garden_mowable', stat_t: 'evil/state' } },
    },
  },
  {
    topic: 'homeassistant/device/evil6/config',
    payload: {
      dev: { ids: 'e6' },
      o: { name: 'x' },
      cmps: { m: { p: 'binary_sensor', unique_id: 'e6', uniq_id: 'mowability_garden_index', stat_t: 'evil/state' } },
    },
  },
  // Another unique id, but our entity id: Home Assistant would give ours a "_2" suffix.
  { topic: 'homeassistant/binary_sensor/evil7/config', payload: { ...ENTITY, unique_id: 'e7', object_id: 'mowability_garden_mowable' } },
  {
    topic: 'homeassistant/binary_sensor/evil8/config',
    payload: { ...ENTITY, unique_id: 'e8', def_ent_id: 'binary_sensor.Mowability_Garden_Mowable' },
  },
  {
    topic: 'homeassistant/device/evil9/config',
    payload: {
      dev: { ids: 'e9' },
      o: { name: 'x' },
      cmps: { m: { p: 'sensor', uniq_id: 'e9', obj_id: 'mowability_garden_index', stat_t: 'evil/state' } },
    },
  },
].map((attack) => ({ topic: attack.topic, payload: JSON.stringify(attack.payload) }));

describe('discovery configs claiming our entities', () => {
  it('recognises our unique ids and device under full names and HA abbreviations, and nothing else', () => {
    for (const message of discoveryMessages({
      prefix: 'homeassistant',
      baseTopic: 'mowability',
      softwareVersion: 'x',
      stationId: 'garden',
      stationName: 'Garden',
    })) {
      expect(claimsOurDiscovery(JSON.stringify(message.payload), identity)).toBe(true);
    }
    for (const attack of ATTACKS) expect(claimsOurDiscovery(attack.payload, identity)).toBe(true);
    expect(claimsOurDiscovery(JSON.stringify({ cmps: { a: { p: 'sensor', uniq_id: 'MOWABILITY_garden_index' } } }), identity)).toBe(true);
    expect(claimsOurDiscovery(JSON.stringify({ device: { ids: ['zigbee_1', 'mowability_mowability_garden'] } }), identity)).toBe(true);
    expect(
      claimsOurDiscovery(JSON.stringify({ unique_id: 'zigbee_0x1234_temperature', device: { identifiers: ['zigbee_0x1234'] } }), identity),
    ).toBe(false);
    expect(claimsOurDiscovery(JSON.stringify({ unique_id: 'other_mowability_garden' }), identity)).toBe(false);
    expect(
      claimsOurDiscovery(
        JSON.stringify({ unique_id: 'x', object_id: 'mowability_backyard_mowable', def_ent_id: 'sensor.zigbee_temp' }),
        identity,
      ),
    ).toBe(false);
    expect(claimsOurDiscovery('not json mowability_garden', identity)).toBe(false);
    expect(claimsOurDiscovery('{"unique_id": "mowability_', identity)).toBe(false);
    expect(claimsOurDiscovery('["mowability_garden"]', identity)).toBe(false);
  });
});

describe('fake discovery configs on the embedded broker', () => {
  // Set by start(); the fixture closes the observer and stops the daemon after each test.
  let fixture: MqttDaemonFixture;
  let daemon: RunningDaemon | undefined;
  let seen: Array<{ topic: string; payload: string }>;

  async function start(mqttFixture: MqttDaemonFixture): Promise<void> {
    fixture = mqttFixture;
    seen = [];
    daemon = await fixture.start(testMqttConfig({ stations: [garden] }), { logger: captureLogger('info').logger });
    const observer = (await fixture.connect(daemon.port)).client;
    observer.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString('utf8') }));
    await observer.subscribeAsync(['homeassistant/#', 'sync/#'], { qos: 1 });
  }

  async function synced(): Promise<void> {
    const marker = `m${Math.random()}`;
    expect(await publishOnce(daemon!.port, 'sync/marker', marker, { qos: 1 })).toBe('handled');
    await waitUntil(() => seen.some((m) => m.payload === marker), 'the sync marker');
  }

  /** Retained messages a new subscriber to the discovery prefix gets. */
  async function retainedUnderPrefix(): Promise<Array<{ topic: string; payload: string }>> {
    return [...(await retainedUnder(daemon!.port, 'homeassistant/#'))].map(([topic, payload]) => ({ topic, payload }));
  }

  async function retainedTopicsInDatabase(): Promise<string[]> {
    await daemon!.stop();
    return storedRetainedTopics(fixture.dbPath);
  }

  mqttTest('refuses each shape from an anonymous client: not delivered, not retained, not stored', async ({ mqtt }) => {
    await start(mqtt);
    const outcomes = [];
    for (const attack of ATTACKS) outcomes.push(await publishOnce(daemon!.port, attack.topic, attack.payload, { qos: 1, retain: true }));
    // The control case: another tool's config under the prefix is still accepted and stored.
    const other = JSON.stringify({ unique_id: 'zigbee_0x1234_temperature', state_topic: 'zigbee/0x1234' });
    outcomes.push(await publishOnce(daemon!.port, 'homeassistant/sensor/zigbee_0x1234/config', other, { qos: 1, retain: true }));
    await synced();
    expect(seen.filter((m) => m.payload.includes('evil/state'))).toEqual([]);
    const retained = await retainedUnderPrefix();
    expect(retained.filter((m) => m.payload.includes('evil/state'))).toEqual([]);
    expect(retained).toContainEqual({ topic: 'homeassistant/sensor/zigbee_0x1234/config', payload: other });
    expect(daemon!.service.stats().brokerRejectedPublishes).toBe(ATTACKS.length);
    expect(await retainedTopicsInDatabase()).toEqual(['homeassistant/sensor/zigbee_0x1234/config']);
    expect(outcomes).toEqual([...ATTACKS.map(() => 'closed'), 'handled']);
  });

  mqttTest('drops each shape stored by an older version on restore, and deletes it from the database', async ({ mqtt }) => {
    const database = await Database.open(mqtt.dbPath);
    const other = JSON.stringify({ unique_id: 'zigbee_0x1234_temperature', state_topic: 'zigbee/0x1234' });
    const rows = [...ATTACKS, { topic: 'homeassistant/sensor/zigbee_0x1234/config', payload: other }];
    await new RetainedStore(database).save(
      new Map(rows.map((row) => [row.topic, { topic: row.topic, payload: Buffer.from(row.payload), qos: 1 as const }])),
      Date.now(),
    );
    await database.close();
    await start(mqtt);
    await synced();
    expect(seen.filter((m) => m.payload.includes('evil/state'))).toEqual([]);
    const retained = await retainedUnderPrefix();
    expect(retained.filter((m) => m.payload.includes('evil/state'))).toEqual([]);
    expect(retained).toContainEqual({ topic: 'homeassistant/sensor/zigbee_0x1234/config', payload: other });
    expect(await retainedTopicsInDatabase()).toEqual(['homeassistant/sensor/zigbee_0x1234/config']);
  });
});
