/**
 * The daemon's traffic on its embedded broker goes through aedes' in-process API
 * (src/mqtt/inProcessConnection.ts): no client connection, no MQTT packets of its own. What other
 * clients see stays as it was with a client connection: retained messages, QoS, order, the final
 * `offline`, and that only the daemon writes its topics. Real aedes, real mqtt.js clients.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { InProcessConnection, OWN_PUBLISH_PATIENCE_MS, type OwnPacket, type OwnTraffic } from '../../src/mqtt/inProcessConnection.js';
import { pausedSubscriber } from '../helpers/mqttRaw.js';
import { noRetainedMessage, publishOnce, retainedMessage, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { testBroker } from '../helpers/testBroker.js';

interface Seen {
  topic: string;
  payload: string;
  qos: number;
  retain: boolean;
}

describe('the in-process connection to the embedded broker', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function runningBroker(overrides: Parameters<typeof testBroker>[0] = {}): Promise<EmbeddedBroker> {
    const broker = testBroker(overrides);
    await broker.start();
    cleanups.push(() => broker.stop());
    return broker;
  }

  function daemonConnection(broker: EmbeddedBroker): InProcessConnection {
    const connection = new InProcessConnection(broker, { baseTopic: 'mowability', willTopic: 'bridge/state' }, silentLogger);
    cleanups.push(() => connection.stop());
    // The retained lookups (test/helpers/mqttRetained.ts) use the daemon's bridge state as their barrier.
    connection.onConnect(() => connection.publish('bridge/state', 'online', { retain: true, qos: 1 }));
    return connection;
  }

  /** What a client saw, without the bridge state every connection here publishes. */
  const beyondBridgeState = (seen: Seen[]): Seen[] => seen.filter((m) => m.topic !== 'mowability/bridge/state');

  async function client(broker: EmbeddedBroker, options: IClientOptions = {}): Promise<{ client: MqttClient; seen: Seen[] }> {
    const connected = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, ...options });
    cleanups.push(() => connected.endAsync(true));
    const seen: Seen[] = [];
    connected.on('message', (topic, payload, packet) =>
      seen.push({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain }),
    );
    return { client: connected, seen };
  }

  it('receives live messages and, at start, the retained messages other clients left, flagged as retained', async () => {
    const broker = await runningBroker();
    const station = await client(broker);
    await station.client.publishAsync('weather/garden', 'retained before', { qos: 1, retain: true });
    const connection = daemonConnection(broker);
    const received: string[] = [];
    connection.subscribe(
      'weather/#',
      (topic, payload, retained) => void received.push(`${topic}=${payload.toString()} ${retained ? 'retained' : 'live'}`),
    );
    connection.start();
    await waitUntil(() => received.length === 1, 'the retained message');
    await station.client.publishAsync('weather/garden', 'live', { qos: 0 });
    await waitUntil(() => received.length === 2, 'the live message');
    expect(received).toEqual(['weather/garden=retained before retained', 'weather/garden=live live']);
    // A subscription after start gets the retained messages of its filter too.
    connection.subscribe(
      'weather/garden',
      (_topic, payload, retained) => void received.push(`late ${payload.toString()} ${String(retained)}`),
    );
    await waitUntil(() => received.length === 3, 'the retained message for a later subscription');
    expect(received[2]).toBe('late retained before true');
  });

  it('opens no client connection: the broker counts none and sends no packets for the daemon', async () => {
    const broker = await runningBroker({ sysTopics: true, users: [{ username: 'watcher', password: 'watcher password' }] });
    const watcher = await client(broker, { username: 'watcher', password: 'watcher password' });
    await watcher.client.subscribeAsync(['$SYS/+/new/clients', 'mowability/#'], { qos: 0 });
    const connection = daemonConnection(broker);
    connection.subscribe('weather/#', () => undefined);
    connection.start();
    connection.publish('garden/state', '{"mowable":false}', { retain: true, qos: 1 });
    await waitUntil(() => watcher.seen.some((m) => m.topic === 'mowability/garden/state'), 'the state');
    expect(connection.connected).toBe(true);
    expect(broker.openConnections).toBe(1);
    expect(watcher.seen.filter((m) => m.topic.endsWith('/new/clients')).map((m) => m.payload)).toEqual([]);
  });

  it('delivers with the QoS and retain flag asked for, queues QoS 1 for an offline session, and keeps retained states', async () => {
    const broker = await runningBroker();
    const connection = daemonConnection(broker);
    connection.start();
    const session = { clientId: 'home-assistant', clean: false };
    const subscriber = await client(broker, session);
    await subscriber.client.subscribeAsync('mowability/#', { qos: 1 });
    connection.publish('garden/state', 'state 1', { retain: true, qos: 1 });
    connection.publish('bridge/stats', 'stats', { retain: true, qos: 0 });
    await waitUntil(() => beyondBridgeState(subscriber.seen).length === 2, 'both messages');
    expect(beyondBridgeState(subscriber.seen)).toEqual([
      { topic: 'mowability/garden/state', payload: 'state 1', qos: 1, retain: false },
      { topic: 'mowability/bridge/stats', payload: 'stats', qos: 0, retain: false },
    ]);
    await subscriber.client.endAsync();
    connection.publish('garden/state', 'state 2', { retain: true, qos: 1 });
    connection.publish('garden/availability', 'online', { retain: false, qos: 1 });
    expect(await retainedMessage(broker.port, 'mowability/garden/state')).toBe('state 2');
    const back = await client(broker, session);
    await waitUntil(() => beyondBridgeState(back.seen).length === 2, 'the queued messages');
    expect(beyondBridgeState(back.seen).map((m) => `${m.payload}/${m.qos}`)).toEqual(['state 2/1', 'online/1']);
  });

  // aedes numbers every message and drops, per subscriber, one numbered below a message it already
  // delivered; a QoS 1 message takes an extra asynchronous step that a QoS 0 one skips. Published all
  // at once, the QoS 0 stats overtook the QoS 1 discovery configs before them, which never arrived.
  it('publishes in order, one at a time: a burst of QoS 1 then QoS 0 reaches a subscriber whole', async () => {
    const broker = await runningBroker();
    const connection = daemonConnection(broker);
    connection.start();
    const subscriber = await client(broker);
    await subscriber.client.subscribeAsync(['homeassistant/#', 'mowability/#'], { qos: 1 });
    for (let i = 0; i < 20; i++)
      connection.publishAbsolute(`homeassistant/sensor/mowability_e${i}/config`, `{"n":${i}}`, { retain: true, qos: 1 });
    connection.publish('bridge/stats', '{}', { retain: true, qos: 0 });
    await waitUntil(() => subscriber.seen.some((m) => m.topic === 'mowability/bridge/stats'), 'the stats');
    await waitUntil(() => beyondBridgeState(subscriber.seen).length === 21, 'every config');
    expect(
      beyondBridgeState(subscriber.seen)
        .map((m) => m.topic)
        .slice(0, 2),
    ).toEqual(['homeassistant/sensor/mowability_e0/config', 'homeassistant/sensor/mowability_e1/config']);
  });

  it('publishes a burst whole and in order to a subscriber while another one has stopped reading', async () => {
    const broker = await runningBroker({
      maxPayloadBytes: 64 * 1024,
      slowSubscribers: { maxOutgoingBytes: 256 * 1024, slowClientSeconds: 60 },
    });
    const connection = daemonConnection(broker);
    connection.start();
    const stalled = await pausedSubscriber(broker.port, 'stalled', '#');
    cleanups.push(async () => void stalled.destroy());
    const subscriber = await client(broker);
    await subscriber.client.subscribeAsync(['homeassistant/#', 'mowability/#'], { qos: 1 });
    // 200 × 30 KB: far more than loopback's socket buffers let the stalled subscriber take unread.
    const config = 'x'.repeat(30_000);
    for (let i = 0; i < 200; i++)
      connection.publishAbsolute(`homeassistant/sensor/mowability_e${i}/config`, config, { retain: true, qos: 1 });
    connection.publish('bridge/stats', '{}', { retain: true, qos: 0 });
    await waitUntil(() => subscriber.seen.some((m) => m.topic === 'mowability/bridge/stats'), 'the stats', 20_000);
    const configs = beyondBridgeState(subscriber.seen).filter((m) => m.topic.startsWith('homeassistant/'));
    expect(configs.map((m) => m.topic)).toEqual(Array.from({ length: 200 }, (_, i) => `homeassistant/sensor/mowability_e${i}/config`));
  }, 30_000);

  it('never lets a publish the broker does not complete hold the next one for longer than its patience', async () => {
    vi.useFakeTimers();
    cleanups.push(async () => void vi.useRealTimers());
    const published: string[] = [];
    const stuck: OwnTraffic = {
      running: true,
      publishOwn: (packet: OwnPacket, done) => {
        published.push(packet.topic);
        // The first publish never completes; the others at once.
        if (published.length > 1) done();
      },
      subscribeOwn: (_filter, _deliver, done) => done(),
      unsubscribeOwn: () => undefined,
      retainedOf: async function* () {},
      holdsRetained: () => true,
    };
    const connection = new InProcessConnection(stuck, { baseTopic: 'mowability', willTopic: 'bridge/state' }, silentLogger);
    connection.start();
    connection.publish('garden/state', '{"mowable":true}');
    connection.publish('garden/state', '{"mowable":false}');
    connection.publish('garden/availability', 'online');
    await vi.advanceTimersByTimeAsync(OWN_PUBLISH_PATIENCE_MS - 1);
    expect(published).toEqual(['mowability/garden/state']);
    await vi.advanceTimersByTimeAsync(1);
    expect(published).toEqual(['mowability/garden/state', 'mowability/garden/state', 'mowability/garden/availability']);
  });

  it('says offline on a clean stop, where a client connection had its will, and then receives nothing', async () => {
    const broker = await runningBroker();
    const connection = daemonConnection(broker);
    const received: string[] = [];
    connection.subscribe('weather/#', (_topic, payload) => void received.push(payload.toString()));
    // Published before start: sent at start, like a client's offline queue.
    connection.publish('garden/availability', 'online', { retain: true, qos: 1 });
    expect(connection.connected).toBe(false);
    connection.start();
    await waitUntil(async () => (await retainedMessage(broker.port, 'mowability/garden/availability')) === 'online', 'online');
    await connection.stop('offline');
    expect(connection.connected).toBe(false);
    expect(await retainedMessage(broker.port, 'mowability/bridge/state')).toBe('offline');
    expect(await publishOnce(broker.port, 'weather/garden', 'after stop', { qos: 1 })).toBe('handled');
    expect(received).toEqual([]);
  });

  it("keeps the daemon's topics its own: another client's publish there is still refused", async () => {
    const broker = await runningBroker();
    const connection = daemonConnection(broker);
    connection.start();
    connection.publish('garden/state', '{"mowable":false}', { retain: true, qos: 1 });
    await waitUntil(async () => (await retainedMessage(broker.port, 'mowability/garden/state')) !== undefined, 'our state');
    expect(await publishOnce(broker.port, 'mowability/garden/state', '{"mowable":true}', { qos: 1, retain: true })).toBe('closed');
    expect(
      await publishOnce(broker.port, 'homeassistant/sensor/x/config', '{"uniq_id":"mowability_garden_mowable"}', { qos: 1, retain: true }),
    ).toBe('handled');
    expect(await retainedMessage(broker.port, 'mowability/garden/state')).toBe('{"mowable":false}');
    expect(broker.rejectedPublishes).toBe(1);
  });

  it('refuses its own publish past broker.maxPayloadBytes (counted), wildcard topics, and is refused while the broker is down', async () => {
    const broker = await runningBroker({ maxPayloadBytes: 64 });
    const connection = daemonConnection(broker);
    connection.start();
    connection.publish('garden/state', 'x'.repeat(65), { retain: true, qos: 1 });
    await waitUntil(() => broker.rejectedPublishes === 1, 'the refusal');
    expect(await noRetainedMessage(broker.port, 'mowability/garden/state')).toBe(true);
    expect(() => connection.publish('garden/#', 'x')).toThrow(/wildcards/);
    await broker.stop();
    expect(connection.connected).toBe(false);
    const errors: string[] = [];
    broker.publishOwn(
      { topic: 'mowability/x', payload: Buffer.from('x'), qos: 0, retain: false },
      (err) => void errors.push(String(err?.message)),
    );
    broker.subscribeOwn(
      'weather/#',
      () => undefined,
      (err) => void errors.push(String(err?.message)),
    );
    expect(errors).toEqual(['the embedded MQTT broker is not running', 'the embedded MQTT broker is not running']);
  });

  it('does not hand $SYS messages to a filter starting with a wildcard, and drops a filter on unsubscribe', async () => {
    const broker = await runningBroker();
    const connection = daemonConnection(broker);
    const all: string[] = [];
    const sys: string[] = [];
    connection.subscribe('#', (topic) => void all.push(topic));
    connection.subscribe('$SYS/+/new/clients', (topic) => void sys.push(topic));
    connection.start();
    await publishOnce(broker.port, 'weather/garden', 'x', { qos: 1 });
    await waitUntil(() => sys.length > 0 && all.includes('weather/garden'), 'both messages');
    expect(all.filter((topic) => topic.startsWith('$'))).toEqual([]);
    connection.unsubscribe('#');
    connection.unsubscribe('#');
    await publishOnce(broker.port, 'weather/garden', 'y', { qos: 1 });
    await waitUntil(() => sys.length > 1, 'the second client');
    expect(all.filter((topic) => topic === 'weather/garden')).toHaveLength(1);
  });
});
