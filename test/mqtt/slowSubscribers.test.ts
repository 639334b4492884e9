/**
 * The slow-subscriber attack, on loopback: an anonymous client subscribes to `#`, publishes
 * 130 × 60 KB to itself in one write and never reads again. Before the per-client bounds aedes
 * held every delivery to it (and with it the daemon's one-at-a-time publishing and its other
 * deliveries) until its 60 s drain timeout: a reading's state took 52.8 s to reach another
 * subscriber, and every reconnect repeated it. The bound that matters is aedes' drain timeout:
 * the state must arrive well before it, and the slow client must be the one that goes.
 */
import type { Socket } from 'node:net';
import { describe, expect } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import mqtt from 'mqtt';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { lengthPrefixed, packet, pausedSubscriber } from '../helpers/mqttRaw.js';
import { testMqttConfig, waitUntil, withDeadline, type RecordingClient, type RunningDaemon } from '../helpers/mqttHarness.js';
import { testBroker } from '../helpers/testBroker.js';

const station: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const PAYLOAD = Buffer.alloc(60 * 1024, 'x');
const FLOOD_MESSAGES = 130;
/** aedes' default drain timeout, which was the only bound before: the state must arrive well before it. */
const AEDES_DRAIN_TIMEOUT_MS = 60_000;
const WELL_BEFORE_MS = 15_000;

/** QoS 0 PUBLISH. */
function publishQos0(topic: string, payload: Buffer): Buffer {
  return packet(0x30, Buffer.concat([lengthPrefixed(Buffer.from(topic)), payload]));
}

/** The attacker: subscribes to `#`, stops reading, then publishes FLOOD_MESSAGES × 60 KB to itself in one write. */
async function slowSubscriber(port: number, clientId: string, sockets: Socket[]): Promise<Socket> {
  const socket = await pausedSubscriber(port, clientId, '#');
  sockets.push(socket);
  socket.write(Buffer.concat(Array.from({ length: FLOOD_MESSAGES }, (_, i) => publishQos0(`attack/${clientId}/${i}`, PAYLOAD))));
  return socket;
}

/**
 * Resolves when the broker has closed the attacker's connection. A paused socket notices no close,
 * so this reads again (what the broker sent, then the end) once the broker has dropped a client.
 */
async function closedByBroker(socket: Socket, daemon: RunningDaemon, dropped: number): Promise<void> {
  await waitUntil(() => daemon.service.stats().brokerSlowClientsDropped >= dropped, `${dropped} slow client(s) dropped`, WELL_BEFORE_MS);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.resume();
  await withDeadline(closed, WELL_BEFORE_MS, "the slow client's connection closed");
}

interface Scene {
  daemon: RunningDaemon;
  ha: RecordingClient;
  sockets: Socket[];
}

async function scene(mqtt: MqttDaemonFixture): Promise<Scene> {
  const sockets: Socket[] = [];
  mqtt.defer(() => {
    for (const socket of sockets) socket.destroy();
  });
  const daemon = await mqtt.start(testMqttConfig({ stations: [station], station: { recomputeDebounceMs: 0 } }));
  const ha = await mqtt.connect(daemon.port);
  await ha.client.subscribeAsync(['mowability/#', 'homeassistant/#'], { qos: 1 });
  return { daemon, ha, sockets };
}

/** Publishes a reading and resolves with the milliseconds until Home Assistant's subscriber has its state. */
async function readingLatency(mqtt: MqttDaemonFixture, scene: Scene, temperature: number): Promise<number> {
  const started = Date.now();
  mqtt.clock.advance(60_000);
  const rtl = await mqtt.connect(scene.daemon.port);
  await rtl.client.publishAsync('garden/temperature', String(temperature), { qos: 1 });
  const arrived = (): boolean =>
    (scene.ha.json('mowability/garden/state')?.input as { temperature?: number } | undefined)?.temperature === temperature;
  await waitUntil(arrived, `the state of the reading ${temperature} °C at the subscriber`, AEDES_DRAIN_TIMEOUT_MS + 10_000, 50);
  await rtl.close();
  return Date.now() - started;
}

describe('a subscriber that stops reading', () => {
  it(
    "does not hold back the next reading's state for other subscribers, and is the one disconnected",
    async ({ mqtt }) => {
      const s = await scene(mqtt);
      expect(await readingLatency(mqtt, s, 10)).toBeLessThan(WELL_BEFORE_MS);
      const attacker = await slowSubscriber(s.daemon.port, 'slowpoke', s.sockets);
      const latencies = [await readingLatency(mqtt, s, 11), await readingLatency(mqtt, s, 12), await readingLatency(mqtt, s, 13)];
      expect(Math.max(...latencies)).toBeLessThan(WELL_BEFORE_MS);
      await closedByBroker(attacker, s.daemon, 1);
      expect(s.daemon.service.stats().connected).toBe(true);
    },
    3 * AEDES_DRAIN_TIMEOUT_MS,
  );

  it(
    'reconnecting again and again does not repeat the delay',
    async ({ mqtt }) => {
      const s = await scene(mqtt);
      for (let round = 0; round < 3; round++) {
        const attacker = await slowSubscriber(s.daemon.port, `slowpoke${round}`, s.sockets);
        expect(await readingLatency(mqtt, s, 20 + round)).toBeLessThan(WELL_BEFORE_MS);
        await closedByBroker(attacker, s.daemon, round + 1);
      }
      expect(s.daemon.service.stats().brokerSlowClientsDropped).toBe(3);
    },
    5 * AEDES_DRAIN_TIMEOUT_MS,
  );

  it('is disconnected after broker.slowClientSeconds with its buffer full, even under the byte bound, and logged with its client id and address', async ({
    mqtt: fixture,
  }) => {
    const capture = captureLogger('warn');
    // A byte bound the flood never reaches: only the time bound can end it.
    const broker = testBroker({
      maxPayloadBytes: 64 * 1024,
      slowSubscribers: { maxOutgoingBytes: 256 * 1024 * 1024, slowClientSeconds: 1 },
      logger: capture.logger,
    });
    await broker.start();
    fixture.defer(() => broker.stop());
    const stalled = await pausedSubscriber(broker.port, 'stalled-reader', '#');
    fixture.defer(() => void stalled.destroy());
    const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0 });
    fixture.defer(() => publisher.endAsync(true));
    for (let i = 0; i < FLOOD_MESSAGES; i++) await publisher.publishAsync(`flood/${i}`, PAYLOAD, { qos: 0 });
    await waitUntil(() => broker.slowClientsDropped > 0, 'the stalled reader dropped by the time bound', WELL_BEFORE_MS);
    // aedes reports the timeout once per write that waited; it is one client.
    expect(broker.slowClientsDropped).toBe(1);
    const line = capture
      .lines()
      .find((entry) => String(entry.msg).startsWith('MQTT client disconnected so that it holds back nobody else'));
    expect(line).toMatchObject({
      clientId: 'stalled-reader',
      remoteAddress: '127.0.0.1',
      msg: expect.stringContaining('broker.slowClientSeconds = 1'),
    });
  });
});
