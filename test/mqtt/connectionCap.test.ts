/**
 * broker.maxClients: the connection after the cap is closed at once, counted,
 * and the slot comes back when a client leaves. The daemon's own connection
 * counts too and keeps working.
 */
import { createConnection, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { StationConfig } from '../../src/ingest/types.js';
import { FakeClock, mqttTempDir, startMqttDaemon, testMqttConfig, waitUntil, withDeadline, type RunningDaemon } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };

/** 'connected' after a CONNACK, 'closed' when the broker closed the connection first. */
async function tryConnect(port: number, clients: MqttClient[], login: { username?: string; password?: string } = {}): Promise<'connected' | 'closed'> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...login });
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

/** This machine's first non-loopback IPv4 address: connections to it arrive from a non-loopback address. */
function lanAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 interface');
  return address;
}

/** An idle TCP connection (no CONNECT, as an attacker holding slots would do): 'open', or 'closed' by the broker. */
async function holdSocket(host: string, port: number, sockets: Socket[]): Promise<'open' | 'closed'> {
  const socket = createConnection({ host, port });
  sockets.push(socket);
  socket.on('error', () => undefined);
  await withDeadline(new Promise((resolve) => socket.once('connect', resolve)), 5000, 'a TCP connection');
  // A refused socket is closed at once; an admitted one stays open for the connect timeout (10 s).
  return withDeadline(
    new Promise((resolve) => {
      socket.once('close', () => resolve('closed'));
      setTimeout(() => resolve('open'), 500);
    }),
    5000,
    'the broker to keep or close the socket',
  );
}

describe('broker.maxClients', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.endAsync(true);
    // Before stopping: the server's close waits for open sockets.
    for (const socket of sockets.splice(0)) socket.destroy();
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

  it('(f) keeps the last slot for loopback: a LAN host holding every other slot cannot shut the daemon out', async () => {
    const account = { username: 'station', password: 'station password' };
    const config = testMqttConfig({ stations: [garden], broker: { host: '0.0.0.0', users: [account], maxClients: 4 } });
    daemon = await startMqttDaemon(temp.dbPath, config, new FakeClock());
    await waitUntil(() => daemon!.service.stats().connected, 'the daemon connected to its broker');
    const lan = lanAddress();
    // The daemon holds one slot; the LAN may take two more, the fourth is loopback's.
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await holdSocket(lan, daemon.port, sockets));
    expect(held).toEqual(['open', 'open', 'closed', 'closed']);
    // What the daemon does when it reconnects: a loopback connection still gets in.
    expect(await tryConnect(daemon.port, clients, account)).toBe('connected');
    expect(daemon.service.stats().brokerRefusedConnections).toBe(2);
  });
});
