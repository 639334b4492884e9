/**
 * The retained-storage attack scaled down: an anonymous loopback client stores
 * many 60 KB retained messages. Before the limits, 3,000 of them took 186 MB of database plus
 * 187 MB of WAL and never shrank.
 */
import { createConnection } from 'node:net';
import { describe, expect } from 'vitest';
import { SpaceReclaimer } from '../../src/store/spaceReclaimer.js';
import { databaseBytes } from '../helpers/httpTempDir.js';
import { connectPacket, lengthPrefixed, packet } from '../helpers/mqttRaw.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import {
  noRetainedMessage,
  publishOnce,
  retainedMessage,
  silentLogger,
  testMqttConfig,
  waitUntil,
  withDeadline,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';

const KIB = 1024;
const PAYLOAD = Buffer.alloc(60 * KIB, 'x');

/** Publishes `count` retained 60 KB messages, each from a fresh anonymous client (a refusal closes the connection). */
async function flood(port: number, count: number, prefix: string, clientId?: string): Promise<Array<'handled' | 'closed' | 'refused'>> {
  const results: Array<'handled' | 'closed' | 'refused'> = [];
  for (let i = 0; i < count; i++)
    results.push(await publishOnce(port, `${prefix}/${i}`, PAYLOAD, { qos: 1, retain: true, ...(clientId ? { clientId } : {}) }));
  return results;
}

/**
 * Committed rows only: the daemon shares its one connection with this query, so a plain SELECT could
 * run between the flush's BEGIN and COMMIT and count rows not yet on disk. transaction() queues behind it.
 */
async function storedRows(daemon: RunningDaemon): Promise<number> {
  return daemon.database.transaction(async (db) => (await db.get<{ n: number }>('SELECT count(*) AS n FROM retained_messages'))?.n ?? -1);
}

describe('retained storage limits of the embedded broker', () => {
  it('refuses retained messages past broker.maxRetainedBytes, keeps them out of memory and the database, and restores only the accepted ones', async ({
    mqtt,
  }) => {
    const maxRetainedBytes = 1024 * KIB;
    const config = testMqttConfig({ broker: { maxRetainedBytes, maxRetainedBytesPerClient: maxRetainedBytes } });
    const daemon = await mqtt.start(config);
    const results = await flood(daemon.port, 300, 'attack');

    const accepted = Math.floor(maxRetainedBytes / PAYLOAD.length); // 17
    expect(results.slice(0, accepted).every((result) => result === 'handled')).toBe(true);
    expect(results.slice(accepted).every((result) => result === 'closed')).toBe(true);
    expect(daemon.service.stats()).toMatchObject({
      brokerRetainedRefused: 300 - accepted,
      brokerRetainedMessages: accepted,
      brokerRetainedBytes: accepted * PAYLOAD.length,
    });
    expect(daemon.service.stats().brokerRejectedPublishes).toBeGreaterThanOrEqual(300 - accepted);
    expect(await noRetainedMessage(daemon.port, `attack/${accepted}`)).toBe(true);
    await daemon.stop();
    expect(databaseBytes(mqtt.dbPath)).toBeLessThan(2 * maxRetainedBytes);

    const restarted = await mqtt.start(config);
    expect(await storedRows(restarted)).toBe(accepted);
    expect(restarted.service.stats().brokerRetainedMessages).toBe(accepted);
    expect(await retainedMessage(restarted.port, `attack/${accepted - 1}`)).toBe(PAYLOAD.toString());
    expect(await noRetainedMessage(restarted.port, 'attack/299')).toBe(true);
  }, 60_000); // 300 connections: about 3 s, more on a loaded 2-core machine

  it('at the default limits keeps 34 messages of 60 KB from anonymous clients (their shared 2 MiB) and refuses the rest', async ({
    mqtt,
  }) => {
    const daemon = await mqtt.start(testMqttConfig());
    const results = await flood(daemon.port, 100, 'defaults');
    expect(results.filter((result) => result === 'handled')).toHaveLength(34);
    expect(results.slice(34).every((result) => result === 'closed')).toBe(true);
    expect(daemon.service.stats().brokerRetainedBytes).toBeLessThanOrEqual(2 * 1024 * KIB);
  });

  it('trims a database filled beyond the limits (older release, or limits lowered) on start, keeping the oldest', async ({ mqtt }) => {
    const { clock } = mqtt;
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxRetainedMessages: 10 } }));
    expect(await publishOnce(daemon.port, 'trim/old', 'first', { qos: 1, retain: true })).toBe('handled');
    await waitUntil(async () => (await storedRows(daemon)) === 1, 'the first message in the database');
    clock.advance(60_000);
    expect((await flood(daemon.port, 9, 'trim/new')).every((result) => result === 'handled')).toBe(true);
    await daemon.stop();

    const restarted = await mqtt.start(testMqttConfig({ broker: { maxRetainedMessages: 4 } }));
    expect(restarted.service.stats().brokerRetainedMessages).toBe(4);
    await waitUntil(async () => (await storedRows(restarted)) === 4, 'the database trimmed to 4 messages');
    expect(await retainedMessage(restarted.port, 'trim/old')).toBe('first');
  });

  it('refuses past broker.maxRetainedMessages', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxRetainedMessages: 20 } }));
    const results = await flood(daemon.port, 40, 'many');
    expect(results.filter((result) => result === 'handled')).toHaveLength(20);
    expect(results.slice(20).every((result) => result === 'closed')).toBe(true);
  });

  it('caps all anonymous clients together at broker.maxRetainedBytesPerClient, whatever client ids they choose', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxRetainedBytesPerClient: 256 * KIB } }));
    // flood() without a client id: every publish comes from a fresh random id.
    expect(await flood(daemon.port, 6, 'hog')).toEqual(['handled', 'handled', 'handled', 'handled', 'closed', 'closed']);
    expect(await publishOnce(daemon.port, 'hog/fresh', PAYLOAD, { qos: 1, retain: true, clientId: 'a-brand-new-id' })).toBe('closed');
    // Replacing a message within the share is fine.
    expect(await publishOnce(daemon.port, 'hog/0', 'small', { qos: 1, retain: true })).toBe('handled');
  });

  it('caps one account at broker.maxRetainedBytesPerClient while another account can still retain', async ({ mqtt }) => {
    const hog = { username: 'hog', password: 'hog password 1' };
    const other = { username: 'other', password: 'other password' };
    const daemon = await mqtt.start(testMqttConfig({ broker: { users: [hog, other], maxRetainedBytesPerClient: 256 * KIB } }));
    const publish = (topic: string, login: typeof hog) =>
      publishOnce(daemon.port, topic, PAYLOAD, { qos: 1, retain: true, connect: login });
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await publish(`hog/${i}`, hog));
    expect(results).toEqual(['handled', 'handled', 'handled', 'handled', 'closed', 'closed']);
    expect(await publish('other/1', other)).toBe('handled');
  });

  it('always accepts deletes, which free the quota, and the file shrinks once the space is reclaimed', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxRetainedMessages: 40, maxRetainedBytesPerClient: 4 * 1024 * KIB } }));
    expect((await flood(daemon.port, 41, 'full')).filter((result) => result === 'handled')).toHaveLength(40);
    await waitUntil(async () => (await storedRows(daemon)) === 40, 'the 40 accepted messages in the database');
    const full = databaseBytes(mqtt.dbPath);
    expect(full).toBeGreaterThan(40 * PAYLOAD.length);

    for (let i = 0; i < 40; i++) expect(await publishOnce(daemon.port, `full/${i}`, '', { qos: 1, retain: true })).toBe('handled');
    expect(daemon.service.stats().brokerRetainedMessages).toBe(0);
    await waitUntil(async () => (await storedRows(daemon)) === 0, 'the deletes in the database');
    const result = await new SpaceReclaimer(daemon.database, silentLogger).reclaim();
    expect(result.action).toBe('incremental');
    expect(databaseBytes(mqtt.dbPath)).toBeLessThan(full / 4);

    expect(await publishOnce(daemon.port, 'full/again', PAYLOAD, { qos: 1, retain: true })).toBe('handled');
  });

  it('disconnects a client that keeps more QoS 2 bytes than broker.maxInflightBytesPerClient waiting for PUBREL', async ({ mqtt }) => {
    const maxPayloadBytes = 1024;
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxPayloadBytes, maxInflightBytesPerClient: 4 * maxPayloadBytes } }));
    const socket = createConnection({ host: '127.0.0.1', port: daemon.port });
    try {
      socket.on('error', () => undefined);
      socket.resume(); // read CONNACK/PUBRECs, or the broker's close is never seen
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(connectPacket('withholder'));
      // Five QoS 2 publishes, never a PUBREL: the fifth exceeds 4 × 1 KiB.
      for (let id = 1; id <= 5; id++) socket.write(qos2Publish(id, 'inflight/x', Buffer.alloc(maxPayloadBytes, 1)));
      await withDeadline(closed, 5000, 'the broker to close the connection past 4 in-flight QoS 2 messages');
    } finally {
      socket.destroy();
    }
  });

  it('gives back the quota of a retained QoS 2 message it admitted but then dropped past maxInflightBytesPerClient', async ({ mqtt }) => {
    const maxPayloadBytes = 1024;
    const daemon = await mqtt.start(testMqttConfig({ broker: { maxPayloadBytes, maxInflightBytesPerClient: 4 * maxPayloadBytes } }));
    const socket = createConnection({ host: '127.0.0.1', port: daemon.port });
    try {
      socket.on('error', () => undefined);
      socket.resume();
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(connectPacket('withholder'));
      // Five retained QoS 2 publishes on five topics, never a PUBREL: the fifth passes authorizePublish, then aedes drops it.
      for (let id = 1; id <= 5; id++) socket.write(qos2Publish(id, `leak/${id}`, Buffer.alloc(maxPayloadBytes, 1), true));
      await withDeadline(closed, 5000, 'the broker to close the connection past 4 in-flight QoS 2 messages');
    } finally {
      socket.destroy();
    }
    expect(await noRetainedMessage(daemon.port, 'leak/5')).toBe(true);
    await waitUntil(() => daemon.service.stats().brokerRetainedMessages === 4, 'the dropped message given back');
    expect(daemon.service.stats()).toMatchObject({ brokerRetainedMessages: 4, brokerRetainedBytes: 4 * maxPayloadBytes });
  });
});

function qos2Publish(messageId: number, topic: string, payload: Buffer, retain = false): Buffer {
  return packet(
    retain ? 0x35 : 0x34,
    Buffer.concat([lengthPrefixed(Buffer.from(topic)), Buffer.from([messageId >> 8, messageId & 0xff]), payload]),
  );
}
