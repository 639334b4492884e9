/**
 * The subscription flood of the second hardening review, scaled down: one anonymous persistent
 * session with 20,000 filters kept the broker busy 12–15 s and 50,000 added 190 MB that stayed
 * after the client left; offline persistent sessions queued QoS 1 messages without a bound and
 * there was no bound on how many such sessions the broker kept. Real aedes on an ephemeral port,
 * real mqtt.js clients.
 */
import { afterEach, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { subscribeProblem } from '../../src/mqtt/subscribeGuard.js';
import { testBroker } from '../helpers/testBroker.js';
import { waitUntil, withDeadline } from '../helpers/wait.js';

const LIMITS = {
  maxFiltersPerSubscribe: 50,
  maxSubscriptionsPerClient: 100,
  maxSubscriptionsPerSession: 100,
  maxSessions: 4,
  maxQueuedMessages: 20,
  maxQueuedBytes: 16 * 1024,
  maxInflightBytes: 256 * 1024,
};

let broker: EmbeddedBroker | undefined;
const clients: MqttClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  await broker?.stop();
  broker = undefined;
});

async function startBroker(): Promise<EmbeddedBroker> {
  broker = testBroker({ sessionLimits: LIMITS, maxPayloadBytes: 64 * 1024 });
  await broker.start();
  return broker;
}

async function connect(options: IClientOptions = {}): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker!.port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

/** 'granted' on a SUBACK, 'closed' when the broker closed the connection instead. */
async function subscribe(client: MqttClient, filters: string[]): Promise<'granted' | 'closed'> {
  const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
  const granted = client.subscribeAsync(filters, { qos: 1 }).then(
    () => 'granted' as const,
    () => closed,
  );
  return withDeadline(Promise.race([granted, closed]), 5000, 'a SUBSCRIBE outcome');
}

const filters = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}/${i}`);

describe('SUBSCRIBE limits', () => {
  it('counts filters per packet and per client, a filter held already is not counted again', () => {
    const limits = { maxFiltersPerSubscribe: 3, maxSubscriptionsPerClient: 4 };
    expect(subscribeProblem(['a', 'b', 'c'], new Set(), limits)).toBeUndefined();
    expect(subscribeProblem(['a', 'b', 'c', 'd'], new Set(), limits)).toMatch(
      /4 filters in one SUBSCRIBE \(broker.maxFiltersPerSubscribe = 3\)/,
    );
    expect(subscribeProblem(['a', 'b'], new Set(['a', 'x', 'y']), limits)).toBeUndefined();
    expect(subscribeProblem(['b', 'c'], new Set(['a', 'x', 'y']), limits)).toMatch(/5 subscriptions for one client/);
  });

  it('closes a persistent session sending 2,000 filters in one SUBSCRIBE before any is kept', async () => {
    const started = await startBroker();
    const attacker = await connect({ clientId: 'flood', clean: false });
    const startedAt = Date.now();
    expect(await subscribe(attacker, filters('flood', 2000))).toBe('closed');
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(started.subscribeRefused).toBe(1);
    expect(started.sessions.count).toBe(0);
    // The broker still serves everyone else at once.
    const other = await connect();
    expect(await subscribe(other, ['ok/#'])).toBe('granted');
  });

  it('closes a client whose subscriptions would pass broker.maxSubscriptionsPerClient, also across reconnects of a persistent session', async () => {
    const started = await startBroker();
    const first = await connect({ clientId: 'many', clean: false });
    expect(await subscribe(first, filters('a', 50))).toBe('granted');
    expect(await subscribe(first, filters('b', 50))).toBe('granted');
    expect(await subscribe(first, filters('a', 50))).toBe('granted');
    expect(await subscribe(first, ['c/0'])).toBe('closed');
    const again = await connect({ clientId: 'many', clean: false });
    expect(await subscribe(again, ['d/0'])).toBe('closed');
    expect(started.subscribeRefused).toBe(2);
    expect(started.sessions.count).toBe(1);
  });
});

describe('persistent session bookkeeping', () => {
  it('forgets what a session unsubscribed, and keeps no new session while every kept one is online', async () => {
    const started = await startBroker();
    const leaving = await connect({ clientId: 'leaving', clean: false });
    expect(await subscribe(leaving, ['x/1', 'x/2'])).toBe('granted');
    await leaving.unsubscribeAsync(['x/1', 'x/2']);
    await waitUntil(() => started.sessions.count === 0, 'the emptied session to be forgotten');
    const online: MqttClient[] = [];
    for (let i = 0; i < LIMITS.maxSessions; i++) {
      online.push(await connect({ clientId: `on${i}`, clean: false }));
      expect(await subscribe(online[i]!, [`on${i}/#`])).toBe('granted');
    }
    const extra = await connect({ clientId: 'extra', clean: false });
    expect(await subscribe(extra, ['extra/#'])).toBe('granted');
    expect(started.sessions).toMatchObject({ count: LIMITS.maxSessions, evicted: 0 });
  });
});

describe('offline persistent sessions', () => {
  it('queue at most broker.maxQueuedMessagesPerSession messages and drop the rest for that session only', async () => {
    const started = await startBroker();
    const sleeper = await connect({ clientId: 'sleeper', clean: false });
    expect(await subscribe(sleeper, ['q/#'])).toBe('granted');
    await sleeper.endAsync();
    const publisher = await connect();
    for (let i = 0; i < 50; i++) await publisher.publishAsync(`q/${i}`, `m${i}`, { qos: 1 });
    expect(started.sessions.queueDropped).toBe(30);

    const received: string[] = [];
    const woken = mqtt.connect(`mqtt://127.0.0.1:${started.port}`, { clientId: 'sleeper', clean: false, reconnectPeriod: 0 });
    clients.push(woken);
    woken.on('message', (_topic, payload) => received.push(payload.toString('utf8')));
    await waitUntil(() => received.length >= 20, 'the queued messages');
    // Online again: nothing is cut.
    for (let i = 0; i < 30; i++) await publisher.publishAsync(`q/live${i}`, `l${i}`, { qos: 1 });
    await waitUntil(() => received.length === 50, 'the live messages');
    expect(received.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(started.sessions.queueDropped).toBe(30);
  });

  it('queue at most broker.maxQueuedBytesPerSession payload bytes', async () => {
    const started = await startBroker();
    const sleeper = await connect({ clientId: 'bytes', clean: false });
    expect(await subscribe(sleeper, ['big/#'])).toBe('granted');
    await sleeper.endAsync();
    const publisher = await connect();
    for (let i = 0; i < 10; i++) await publisher.publishAsync(`big/${i}`, Buffer.alloc(5000, 'x'), { qos: 1 });
    expect(started.sessions.queueDropped).toBe(7);
  });

  it('are kept up to broker.maxPersistentSessions: a new one replaces the offline session that connected least recently', async () => {
    const started = await startBroker();
    for (let i = 0; i < 6; i++) {
      const client = await connect({ clientId: `s${i}`, clean: false });
      expect(await subscribe(client, [`s${i}/#`])).toBe('granted');
      await client.endAsync();
    }
    expect(started.sessions).toMatchObject({ count: 4, evicted: 2 });
    const evicted = await connect({ clientId: 's0', clean: false });
    const kept = await connect({ clientId: 's5', clean: false });
    const publisher = await connect();
    const seen: string[] = [];
    evicted.on('message', (topic) => seen.push(topic));
    kept.on('message', (topic) => seen.push(topic));
    await publisher.publishAsync('s0/x', 'a', { qos: 1 });
    await publisher.publishAsync('s5/x', 'b', { qos: 1 });
    await waitUntil(() => seen.includes('s5/x'), 'the kept session to receive');
    expect(seen).toEqual(['s5/x']);
  });
});
