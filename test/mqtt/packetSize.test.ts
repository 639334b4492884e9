import { createConnection } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PacketLengthWatch } from '../../src/mqtt/packetLengthWatch.js';
import { remainingLength } from '../helpers/mqttRaw.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { RecordingClient, testMqttConfig, waitUntil, withDeadline } from '../helpers/mqttHarness.js';

function packet(bodyLength: number): Buffer {
  return Buffer.concat([Buffer.from([0x30]), remainingLength(bodyLength), Buffer.alloc(bodyLength, 1)]);
}

describe('packet length watch', () => {
  it('follows packet boundaries across arbitrary chunking and flags only oversized packets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1 }),
        (lengths, cuts) => {
          const stream = Buffer.concat(lengths.map(packet));
          const watch = new PacketLengthWatch(2000);
          let flagged: number | undefined;
          let offset = 0;
          for (let i = 0; offset < stream.length && flagged === undefined; i++) {
            const size = cuts[i % cuts.length]!;
            flagged = watch.feed(stream.subarray(offset, offset + size));
            offset += size;
          }
          expect(flagged).toBe(lengths.find((length) => length > 2000));
        },
      ),
    );
    expect(new PacketLengthWatch(10).feed(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff]))).toBe(-1);
  });
});

describe('embedded broker packet size limit', () => {
  mqttTest('closes a connection that announces a huge packet before its body arrives, and keeps serving others', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig());
    const socket = createConnection({ host: '127.0.0.1', port: daemon.port });
    try {
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.write(Buffer.concat([Buffer.from([0x30]), remainingLength(50 * 1024 * 1024)]));
      socket.write(Buffer.alloc(1024, 1));
      await withDeadline(closed, 5000, 'the broker to close the connection announcing 50 MiB');
    } finally {
      socket.destroy();
    }
    expect(daemon.service.stats().brokerRejectedPublishes).toBe(1);
    const client = await RecordingClient.connect(daemon.port);
    try {
      await client.client.subscribeAsync('mowability/bridge/state', { qos: 1 });
      await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'broker still serving');
    } finally {
      await client.close();
    }
  });
});
