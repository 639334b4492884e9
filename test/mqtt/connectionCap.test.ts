/**
 * broker.maxClients: the connection after the cap is closed at once, counted,
 * and the slot comes back when a client leaves. The daemon's own traffic takes
 * no slot (it uses aedes in process) and keeps working.
 */
import { createConnection, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import { testMqttConfig, waitUntil, withDeadline, type RunningDaemon, type TestSideConfig } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };

/** 'connected' after a CONNACK, 'closed' when the broker closed the connection first. */
async function tryConnect(
  port: number,
  clients: MqttClient[],
  login: { username?: string; password?: string } = {},
): Promise<'connected' | 'closed'> {
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

/** Connections the broker has handled so far: admitted (still open) or refused. */
function handledConnections(daemon: RunningDaemon): number {
  const stats = daemon.service.stats();
  return stats.brokerClients + stats.brokerRefusedConnections;
}

/** An idle TCP connection (no CONNECT, as an attacker holding slots would do): 'open', or 'closed' by the broker. */
async function holdSocket(host: string, daemon: RunningDaemon, sockets: Socket[]): Promise<'open' | 'closed'> {
  const handled = handledConnections(daemon);
  const refused = daemon.service.stats().brokerRefusedConnections;
  const socket = createConnection({ host, port: daemon.port });
  sockets.push(socket);
  socket.on('error', () => undefined);
  const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
  await withDeadline(new Promise((resolve) => socket.once('connect', resolve)), 5000, 'a TCP connection');
  // The broker admits or refuses a socket as it accepts it; a refused one is destroyed at once.
  await waitUntil(() => handledConnections(daemon) > handled, 'the broker to admit or refuse the socket');
  if (daemon.service.stats().brokerRefusedConnections === refused) return 'open';
  return withDeadline(closed, 5000, 'the refused socket to close');
}

describe('broker.maxClients', () => {
  // The fixture ends the clients and stops the daemon; the sockets must go first (the server's close waits for them).
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  function start(fixture: MqttDaemonFixture, config: TestSideConfig): Promise<RunningDaemon> {
    fixture.defer(async () => {
      for (const client of clients.splice(0)) await client.endAsync(true);
      for (const socket of sockets.splice(0)) socket.destroy();
    });
    return fixture.start(config);
  }

  it('(f) refuses connection number maxClients + 1, counts it, and frees the slot when a client leaves', async ({ mqtt: fixture }) => {
    const daemon = await start(fixture, testMqttConfig({ stations: [garden], broker: { maxClients: 3 } }));
    await waitUntil(() => daemon.service.stats().connected, 'the daemon connected to its broker');
    // The daemon holds none of the three.
    expect(daemon.service.stats().brokerClients).toBe(0);
    for (let i = 0; i < 3; i++) expect(await tryConnect(daemon.port, clients)).toBe('connected');
    expect(await tryConnect(daemon.port, clients)).toBe('closed');
    expect(daemon.service.stats().brokerRefusedConnections).toBe(1);
    expect(daemon.service.stats().connected).toBe(true);

    await clients[0]!.endAsync();
    await waitUntil(async () => (await tryConnect(daemon.port, clients)) === 'connected', 'a free slot after a client left');
    expect(daemon.service.stats().connected).toBe(true);
  });

  it('(f) keeps the last slot for loopback: a LAN host holding every other slot cannot shut out a local client', async ({
    mqtt: fixture,
  }) => {
    const account = { username: 'station', password: 'station password' };
    const daemon = await start(
      fixture,
      testMqttConfig({ stations: [garden], broker: { host: '0.0.0.0', users: [account], maxClients: 4 } }),
    );
    await waitUntil(() => daemon.service.stats().connected, 'the daemon connected to its broker');
    const lan = lanAddress();
    // The daemon holds no slot; the LAN may take three, the fourth is loopback's.
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await holdSocket(lan, daemon, sockets));
    expect(held).toEqual(['open', 'open', 'open', 'closed', 'closed']);
    // A local rtl_433 reconnecting: a loopback connection still gets in.
    expect(await tryConnect(daemon.port, clients, account)).toBe('connected');
    expect(daemon.service.stats().brokerRefusedConnections).toBe(2);
    expect(daemon.service.stats().connected).toBe(true);
  });
});
