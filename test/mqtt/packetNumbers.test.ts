/**
 * mqtt-packet's number cache (65,536 Buffers, about 6 MB of heap) must never be built:
 * neither by the embedded broker answering clients nor by our own mqtt.js client.
 */
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { internalConnection, testBroker } from '../helpers/testBroker.js';

// The cache object mqtt-packet fills on its first write when caching is on (mqtt-packet/numbers.js).
const numberCache = (createRequire(import.meta.url)('mqtt-packet/numbers.js') as { cache: Record<number, Buffer> }).cache;

function broker(): EmbeddedBroker {
  return testBroker();
}

describe('the MQTT packet number cache', () => {
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(() => {
    // mqtt-packet's default, as a fresh process has it.
    mqttPacket.writeToStream.cacheNumbers = true;
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is not built when the embedded broker answers a client (CONNACK, SUBACK, PUBACK, PUBLISH)', async () => {
    const embedded = broker();
    await embedded.start();
    cleanups.push(() => embedded.stop());
    // A client with mqtt.js defaults (writeCache on): only the broker's writes decide.
    const station = await RecordingClient.connect(embedded.port);
    cleanups.push(() => station.close());
    await station.client.subscribeAsync('garden/#', { qos: 1 });
    await station.client.publishAsync('garden/rain', '0.3', { qos: 1 });
    await waitUntil(() => station.text('garden/rain') === '0.3', 'the message back from the broker');
    expect(mqttPacket.writeToStream.cacheNumbers).toBe(false);
    expect(Object.keys(numberCache)).toHaveLength(0);
  });

  it('is not built by our own client', async () => {
    const embedded = broker();
    await embedded.start();
    cleanups.push(() => embedded.stop());
    mqttPacket.writeToStream.cacheNumbers = true;
    const connection = internalConnection(embedded);
    cleanups.push(() => connection.stop('offline'));
    connection.start();
    const observer = await RecordingClient.connect(embedded.port);
    cleanups.push(() => observer.close());
    await observer.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => connection.connected, 'our client connected');
    connection.publish('garden/state', 'on', { retain: true });
    await waitUntil(() => observer.text('mowability/garden/state') === 'on', 'our client published');
    expect(Object.keys(numberCache)).toHaveLength(0);
  });
});
