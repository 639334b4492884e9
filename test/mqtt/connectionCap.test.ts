/**
 * broker.maxClients: the connection after the cap is closed at once, counted,
 * and the slot comes back when a client leaves. The daemon's own connection
 * counts too and keeps working.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { StationConfig } from '../../src/ingest/types.js';
import { FakeClock, mqttTempDir, startMqttDaemon, testMqttConfig, waitUntil, withDeadline, type RunningDaemon } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };

/** 'connected' after a CONNACK, 'closed' when the broker closed the connection first. */
async function tryConnect(port: number, clients: MqttClient[]): Promise<'connected' | 'closed'> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  client.on('error', () => undefined);
  return withDeadline(
    new Promise((resolve) => {
      client.once('connect', () => resolve('connected'));
      client.once('close', () => resolve('closed'));
    }),
    6000,
    'a connect outcome',
  );
}

describe('broker.maxClients', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  const clients: MqttClient[] = [];

  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.endAsync(true);
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  it('(f) refuses connection number maxClients + 1, counts it, and frees the slot when a client leaves', async () => {
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ stations: [garden], broker: { maxClients: 3 } }), new FakeClock());
    await waitUntil(() => daemon!.service.stats().connected, 'the daemon connected to its broker');
    // The daemon's own connection is the first of the three.
    expect(await tryConnect(daemon.port, clients)).toBe('connected');
    expect(await tryConnect(daemon.port, clients)).toBe('connected');
    expect(await tryConnect(daemon.port, clients)).toBe('closed');
    expect(daemon.service.stats().brokerRefusedConnections).toBe(1);
    expect(daemon.service.stats().connected).toBe(true);

    await clients[0]!.endAsync();
    await waitUntil(async () => (await tryConnect(daemon!.port, clients)) === 'connected', 'a free slot after a client left');
    expect(daemon.service.stats().connected).toBe(true);
  });
});
