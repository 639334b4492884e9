/**
 * The QoS 2 attack scaled down: anonymous clients publish 60 KB QoS 2 messages and never send
 * PUBREL, so the broker holds every one (MQTT 3.1.1 §4.3.3). aedes bounds that per client only
 * (broker.maxInflightBytesPerClient): 60 clients × 120 × 60 KB grew the daemon from 106 to 565 MB.
 * broker.maxInflightBytes bounds all clients together.
 */
import { createConnection, type Socket } from 'node:net';
import { describe, expect } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { connectPacket, lengthPrefixed, packet } from '../helpers/mqttRaw.js';
import { testMqttConfig, waitUntil, withDeadline } from '../helpers/mqttHarness.js';

const station: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const PAYLOAD = Buffer.alloc(60 * 1024, 'q');
const MAX_INFLIGHT_BYTES = 2 * 1024 * 1024;
const CLIENTS = 6;
const MESSAGES_PER_CLIENT = 12; // 6 × 12 × 60 KB = 4.2 MiB, twice the bound; each client alone stays under its own 8 MiB

/** QoS 2 PUBLISH with packet id `id`. */
function publishQos2(topic: string, id: number, payload: Buffer): Buffer {
  const messageId = Buffer.alloc(2);
  messageId.writeUInt16BE(id);
  return packet(0x34, Buffer.concat([lengthPrefixed(Buffer.from(topic)), messageId, payload]));
}

/**
 * Connects, publishes MESSAGES_PER_CLIENT QoS 2 messages in one write and never sends PUBREL.
 * Resolves with the PUBRECs received (each one a message the broker now holds) once every message
 * has one or the broker closed the connection; the socket stays open otherwise (holding its messages).
 */
async function withholdPubrel(port: number, clientId: string, sockets: Socket[]): Promise<{ held: number; closed: boolean }> {
  const socket = createConnection({ port, host: '127.0.0.1' });
  sockets.push(socket);
  socket.on('error', () => undefined);
  return withDeadline(
    new Promise((resolve) => {
      let received = Buffer.alloc(0);
      let connected = false;
      let held = 0;
      socket.once('connect', () => socket.write(connectPacket(clientId)));
      socket.once('close', () => resolve({ held, closed: true }));
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        // CONNACK and PUBREC are both four bytes.
        while (received.length >= 4) {
          const type = received[0]! >> 4;
          received = received.subarray(4);
          if (type === 2 && !connected) {
            connected = true;
            socket.write(
              Buffer.concat(Array.from({ length: MESSAGES_PER_CLIENT }, (_, i) => publishQos2(`attack/${clientId}/${i}`, i + 1, PAYLOAD))),
            );
          } else if (type === 5 && ++held === MESSAGES_PER_CLIENT) resolve({ held, closed: false });
        }
      });
    }),
    20_000,
    `client ${clientId}'s QoS 2 messages handled`,
  );
}

describe('QoS 2 messages awaiting PUBREL, all clients together', () => {
  it('holds at most broker.maxInflightBytes, disconnects the client that would pass it, and the daemon keeps publishing', async ({
    mqtt,
  }) => {
    const sockets: Socket[] = [];
    mqtt.defer(() => {
      for (const socket of sockets) socket.destroy();
    });
    const daemon = await mqtt.start(
      testMqttConfig({ stations: [station], station: { recomputeDebounceMs: 0 }, broker: { maxInflightBytes: MAX_INFLIGHT_BYTES } }),
    );
    const ha = await mqtt.connect(daemon.port);
    await ha.client.subscribeAsync('mowability/#', { qos: 1 });

    const outcomes = [];
    for (let i = 0; i < CLIENTS; i++) outcomes.push(await withholdPubrel(daemon.port, `hoarder${i}`, sockets));

    // Two clients' messages fit; each later client passes the bound with its eleventh and is
    // disconnected (the newest offender), its clean session's messages released with it.
    expect(outcomes.map((outcome) => outcome.closed)).toEqual([false, false, true, true, true, true]);
    const heldBytes = outcomes.filter((outcome) => !outcome.closed).reduce((sum, outcome) => sum + outcome.held, 0) * PAYLOAD.length;
    expect(heldBytes).toBeLessThanOrEqual(MAX_INFLIGHT_BYTES);
    // A disconnected client's messages are released as aedes finishes closing it.
    await waitUntil(() => daemon.service.stats().brokerInflightBytes === heldBytes, "the broker holding only the open clients' messages");
    expect(daemon.service.stats().brokerInflightRefused).toBeGreaterThanOrEqual(CLIENTS - 2);

    // The daemon's own publishing goes on while the bound is full.
    mqtt.clock.advance(60_000);
    const rtl = await mqtt.connect(daemon.port);
    await rtl.client.publishAsync('garden/temperature', '17.5', { qos: 1 });
    await waitUntil(
      () => (ha.json('mowability/garden/state')?.input as { temperature?: number } | undefined)?.temperature === 17.5,
      'the state at the subscriber',
    );

    // Clean sessions: their held messages go with their connections.
    for (const socket of sockets) socket.destroy();
    await waitUntil(() => daemon.service.stats().brokerInflightBytes === 0, 'the held QoS 2 messages released');
  });
});
