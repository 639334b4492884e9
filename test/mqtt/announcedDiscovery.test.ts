import type { Logger } from 'pino';
import { describe, expect } from 'vitest';
import { allDiscoveryMessages } from '../../src/homeassistant/discovery.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { AnnouncedDiscovery } from '../../src/mqtt/announcedDiscovery.js';
import { Database } from '../../src/store/database.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { testMqttConfig, waitUntil, type RecordingClient } from '../helpers/mqttHarness.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const station = (id: string): StationConfig => ({
  id,
  name: `Station ${id}`,
  format: 'rtl_433',
  topic: 'rtl_433/+/events',
  match: { model: 'Fineoffset-WH65B', id: 65 },
});
const garden = station('garden');
const orchard = station('orchard');
const configTopics = (stations: StationConfig[], owner: string) =>
  allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '', stations })
    .filter((message) => message.owner === owner)
    .map((message) => message.topic);

/** Home Assistant's side: it subscribes to discovery and announces itself online, as it does on every connect. */
async function homeAssistant(connect: (port: number) => Promise<RecordingClient>, port: number): Promise<RecordingClient> {
  const ha = await connect(port);
  await ha.client.subscribeAsync('homeassistant/#', { qos: 1 });
  await ha.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
  return ha;
}

describe('discovery configs of a removed station', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('are deleted after a restart on the embedded broker, which kept none of them', async ({ mqtt }) => {
    let daemon = await mqtt.start(testMqttConfig({ stations: [garden, orchard] }));
    let ha = await homeAssistant((port) => mqtt.connect(port), daemon.port);
    const orchardTopics = configTopics([garden, orchard], 'orchard');
    const gardenTopics = configTopics([garden, orchard], 'garden');
    expect(orchardTopics.length).toBeGreaterThanOrEqual(20);
    await waitUntil(() => [...orchardTopics, ...gardenTopics].every((topic) => (ha.text(topic) ?? '') !== ''), 'both stations announced');
    await ha.close();
    await daemon.stop();

    daemon = await mqtt.start(testMqttConfig({ stations: [garden] }));
    ha = await homeAssistant((port) => mqtt.connect(port), daemon.port);
    await waitUntil(
      () => orchardTopics.every((topic) => ha.latest.get(topic)?.payload === ''),
      'every config of the removed station deleted',
    );
    for (const topic of gardenTopics) expect(ha.json(topic)?.unique_id).toBe(topic.split('/')[2]);

    // Once Home Assistant has seen the deletions they are forgotten, so later starts send none.
    const reader = await Database.open(mqtt.dbPath, { migrations: [] });
    mqtt.defer(() => reader.close());
    const remembered = async (owner: string) =>
      (await reader.all<{ topic: string }>('SELECT topic FROM ha_discovery_announced WHERE station = ?', [owner])).length;
    await waitUntil(async () => (await remembered('orchard')) === 0, 'the deleted configs forgotten');
    expect(await remembered('garden')).toBe(gardenTopics.length);
  });

  it('are deleted on an external broker too, and a kept station stays', async ({ mqtt }) => {
    const broker = await mqtt.mosquitto();
    const external = { mqtt: { url: `mqtt://127.0.0.1:${broker.port}` }, broker: { enabled: false } };
    const daemonOn = (stations: StationConfig[]) => mqtt.start(testMqttConfig({ stations, ...external }));
    let daemon = await daemonOn([garden, orchard]);
    const ha = await homeAssistant((port) => mqtt.connect(port), broker.port);
    const orchardTopics = configTopics([garden, orchard], 'orchard');
    await waitUntil(() => orchardTopics.every((topic) => (ha.text(topic) ?? '') !== ''), 'both stations announced');
    await daemon.stop();
    daemon = await daemonOn([garden]);
    await waitUntil(
      () => orchardTopics.every((topic) => ha.latest.get(topic)?.payload === ''),
      'every config of the removed station deleted',
    );
    expect(ha.json(configTopics([garden], 'garden')[0]!)).toBeDefined();
  });
});

describe('the announced list', () => {
  it('is a logged warning, not a failed publish, when the database fails', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (fields: unknown) => void warnings.push(fields), info: () => undefined } as unknown as Logger;
    const failing = { all: () => Promise.reject(new Error('disk I/O error')), transaction: () => Promise.reject(new Error('unused')) };
    const published: string[] = [];
    const announced = new AnnouncedDiscovery(failing, log);
    const messages = allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '', stations: [garden] });
    await expect(announced.reconcile(messages, { publishAbsolute: (topic) => void published.push(topic) }, true)).resolves.toBeUndefined();
    expect(warnings).toEqual([{ err: expect.objectContaining({ message: 'disk I/O error' }) }]);
    expect(published).toEqual([]);
  });

  it('writes only when the announced set changes', async ({ mqtt }) => {
    const database = await Database.open(mqtt.dbPath);
    mqtt.defer(() => database.close());
    let writes = 0;
    const counting = {
      all: database.all.bind(database),
      transaction: <T>(work: (db: Database) => Promise<T>) => (writes++, database.transaction(work)),
    };
    const log = { warn: () => undefined, info: () => undefined } as unknown as Logger;
    const connection = { publishAbsolute: () => undefined };
    const messages = (stations: StationConfig[]) =>
      allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '', stations });
    const announced = new AnnouncedDiscovery(counting, log);
    await announced.reconcile(messages([garden]), connection, false);
    await announced.reconcile(messages([garden]), connection, false);
    await announced.reconcile(messages([garden]), connection, true);
    expect(writes).toBe(1);
    await announced.reconcile(messages([garden, orchard]), connection, true);
    expect(writes).toBe(2);
  });
});
