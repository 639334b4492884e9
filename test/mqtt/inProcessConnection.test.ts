/**
 * The daemon reaches its embedded broker in process (src/mqtt/broker.ts openInProcess): the same
 * MQTT login and packets as over loopback TCP, without the socket. Here the connection's URL is a
 * port nobody listens on, so every message below crossed the in-process stream.
 */
import { afterEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { bridgeConnectionOptions } from '../../src/mqtt/bridgeConnection.js';
import type { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { MqttConnection } from '../../src/mqtt/client.js';
import { testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { internalConnection, testBroker } from '../helpers/testBroker.js';

const inProcessConnection = (broker: EmbeddedBroker): MqttConnection => internalConnection(broker, 'inProcess');

describe('the in-process connection to the embedded broker', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is what the bridge uses when the broker offers it', () => {
    const endpoint = { port: 4242, internalUser: { username: 'internal', password: 'secret' }, internalClientId: 'mowability-abc', openInProcess: () => undefined as never };
    expect(bridgeConnectionOptions(testMqttConfig(), endpoint).stream).toBeTypeOf('function');
    expect(bridgeConnectionOptions(testMqttConfig(), { ...endpoint, openInProcess: undefined }).stream).toBeUndefined();
  });

  it('logs in as the daemon, receives what TCP clients publish and publishes what they receive', async () => {
    const broker = testBroker();
    await broker.start();
    cleanups.push(() => broker.stop());
    const connection = inProcessConnection(broker);
    cleanups.push(() => connection.stop('offline'));
    const received: string[] = [];
    connection.subscribe('weather/#', (topic, payload) => void received.push(`${topic}=${payload.toString()}`));
    connection.start();
    await waitUntil(() => connection.connected, 'the in-process connection');

    const station = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0 });
    cleanups.push(() => station.endAsync(true));
    await waitUntil(async () => {
      await station.publishAsync('weather/garden', '21.5', { qos: 1 });
      return received.length > 0;
    }, 'a station message through the broker');
    expect(received[0]).toBe('weather/garden=21.5');

    // Our topics are the daemon's own: only the internal login may publish there (src/mqtt/brokerAccess.ts).
    connection.publish('garden/state', '{"mowable":true}', { retain: true, qos: 1 });
    const reader = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0 });
    cleanups.push(() => reader.endAsync(true));
    const states: string[] = [];
    reader.on('message', (_topic, payload) => states.push(payload.toString()));
    await waitUntil(async () => {
      await reader.subscribeAsync('mowability/garden/state', { qos: 1 });
      return states.length > 0;
    }, 'the retained state');
    expect(states[0]).toBe('{"mowable":true}');
  });

  // A socket's two ends close together, a stream pair's do not: without closing them together the
  // client's stop waited for its 3 s limit (src/mqtt/client.ts) on every shutdown.
  it('closes with the client: stopping does not wait for the stop limit', async () => {
    const broker = testBroker();
    await broker.start();
    cleanups.push(() => broker.stop());
    const connection = inProcessConnection(broker);
    connection.start();
    await waitUntil(() => connection.connected, 'the in-process connection');
    await connection.stop('offline');
    await waitUntil(() => broker.openConnections === 0, 'the broker to let the connection go');
  }, 2500);

  it('fails at once while the broker is not running', async () => {
    const stream = testBroker().openInProcess();
    const error = await new Promise<Error>((resolve) => stream.once('error', resolve));
    expect(error.message).toMatch(/not running/);
  });
});
