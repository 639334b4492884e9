import { describe, expect } from 'vitest';
import mqtt from 'mqtt';
import { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { internalConnection, testBroker } from '../helpers/testBroker.js';

function brokerOn(port = 0, users: Array<{ username: string; password: string }> = []): EmbeddedBroker {
  return testBroker({ port, users });
}

const connectionTo = internalConnection;

describe('the mqtt.js wrapper', () => {
  it('keeps only the latest message per topic while disconnected, refuses wildcards, survives a throwing handler', async ({
    mqtt: fixture,
  }) => {
    const broker = brokerOn();
    await broker.start();
    fixture.defer(() => broker.stop());
    const observer = await fixture.connect(broker.port);
    await observer.client.subscribeAsync('mowability/#', { qos: 1 });

    const connection = connectionTo(broker);
    fixture.defer(() => connection.stop('offline'));
    const received: string[] = [];
    connection.subscribe('stations/#', (topic) => {
      if (topic === 'stations/bad') throw new Error('handler bug');
    });
    connection.subscribe('stations/#', (_topic, payload) => {
      received.push(payload.toString());
    });
    connection.start();
    for (const value of ['one', 'two', 'three']) connection.publish('garden/state', value, { retain: true });
    expect(() => connection.publish('garden/+', 'x')).toThrow(/wildcards are not allowed/);
    expect(() => connection.publishAbsolute('homeassistant/#', 'x')).toThrow(/wildcards are not allowed/);

    await waitUntil(() => observer.text('mowability/garden/state') === 'three', 'flushed latest state');
    expect(observer.latest.get('mowability/garden/state')?.count).toBe(1);

    const station = await fixture.connect(broker.port);
    await station.client.publishAsync('stations/bad', 'x', { qos: 1 });
    await station.client.publishAsync('stations/good', 'y', { qos: 1 });
    await waitUntil(() => received.includes('y'), 'message after a throwing handler');

    // A clean shutdown says "offline" explicitly (retained), as the Last Will would after a crash.
    await connection.stop('offline');
    await waitUntil(() => observer.text('mowability/bridge/state') === 'offline', 'explicit offline');
  });
});

describe('embedded broker with accounts', () => {
  it('refuses anonymous and wrong logins, accepts configured users, and our own client still works', async ({ mqtt: fixture }) => {
    const users = [{ username: 'rtl433', password: 'correct horse' }];
    const daemon = await fixture.start(testMqttConfig({ broker: { users } }));
    const url = `mqtt://127.0.0.1:${daemon.port}`;
    await expect(mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000 })).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );
    await expect(
      mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000, username: 'rtl433', password: 'wrong password' }),
    ).rejects.toThrow(/Bad username or password|Not authorized/i);
    const client = await fixture.connect(daemon.port, { username: 'rtl433', password: 'correct horse' });
    await client.client.subscribeAsync('mowability/bridge/state', { qos: 1 });
    await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'bridge online with authentication on');
  });
});
