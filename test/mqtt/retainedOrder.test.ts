/**
 * A subscriber never ends with an older retained state than the newest one published.
 *
 * aedes answers a SUBSCRIBE by reading the retained messages of its filters from its persistence
 * (a stream that reads ahead of what it has delivered) and handing each to the client; the
 * subscription itself is live before that. A message published between the read and the hand-over
 * therefore reached the subscriber live first, and then the older retained copy read before it
 * replaced it: a robot mower's controller kept `mowable: true` after the daemon had said false,
 * until the next publish. The tests hold aedes' retained lookup at exactly that point (read, not
 * yet handed over), publish a newer state meanwhile and wait until the subscriber has it; then the
 * lookup goes on. Real aedes, real mqtt.js clients, the daemon's in-process connection.
 */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { EmbeddedBroker } from '../../src/mqtt/broker.js';
import { InProcessConnection } from '../../src/mqtt/inProcessConnection.js';
import { SessionStore } from '../../src/mqtt/sessionStore.js';
import { retainedMessage, silentLogger, waitUntil } from '../helpers/mqttHarness.js';
import { testBroker } from '../helpers/testBroker.js';

const STATE = 'mowability/garden/state';
const AVAILABILITY = 'mowability/garden/availability';
/** Retained from the start and never republished: the last retained message of each SUBSCRIBE below. */
const BARRIER = 'mowability/bridge/state';

const GO = '{"mowable":true,"seq":1}';
const STOP = '{"mowable":false,"seq":2}';

interface Seen {
  topic: string;
  payload: string;
  retain: boolean;
}

type Lookup = 'createRetainedStreamCombi' | 'createRetainedStream';

/**
 * Holds the next retained lookup of `lookup` whose filters include `filter`: the retained
 * messages are read at once (the state they have now), then `meanwhile` runs, then they are
 * handed over, as aedes hands over what its stream read ahead.
 */
function holdNextLookup(lookup: Lookup, filter: string, meanwhile: () => Promise<void>): { held: () => boolean } {
  const original = Reflect.get(SessionStore.prototype, lookup) as (this: SessionStore, patterns: string | string[]) => Readable;
  let held = false;
  const spy = vi.spyOn(SessionStore.prototype, lookup).mockImplementation(function (this: SessionStore, patterns: string | string[]) {
    const read = original.call(this, patterns);
    if (![patterns].flat().includes(filter)) return read;
    spy.mockRestore();
    held = true;
    return Readable.from(handedOverAfter(read, meanwhile));
  } as never);
  return { held: () => held };
}

async function* handedOverAfter(read: Readable, meanwhile: () => Promise<void>): AsyncGenerator<unknown> {
  const messages: unknown[] = await read.toArray();
  await meanwhile();
  yield* messages;
}

/** The last message a client holds per topic. */
function lastPerTopic(seen: readonly Seen[]): Map<string, Seen> {
  return new Map(seen.map((message) => [message.topic, message]));
}

describe('retained messages and live ones published during a SUBSCRIBE', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function daemonOnBroker(): Promise<{ broker: EmbeddedBroker; connection: InProcessConnection }> {
    const broker = testBroker();
    await broker.start();
    cleanups.push(() => broker.stop());
    const connection = new InProcessConnection(broker, { baseTopic: 'mowability', willTopic: 'bridge/state' }, silentLogger);
    cleanups.push(() => connection.stop());
    connection.onConnect(() => connection.publish('bridge/state', 'online', { retain: true, qos: 1 }));
    connection.start();
    connection.publish('garden/state', GO, { retain: true, qos: 1 });
    connection.publish('garden/availability', 'online', { retain: true, qos: 1 });
    expect(await retainedMessage(broker.port, STATE)).toBe(GO);
    expect(await retainedMessage(broker.port, AVAILABILITY)).toBe('online');
    return { broker, connection };
  }

  async function client(broker: EmbeddedBroker, options: IClientOptions = {}): Promise<{ client: MqttClient; seen: Seen[] }> {
    const connected = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { reconnectPeriod: 0, ...options });
    cleanups.push(() => connected.endAsync(true));
    const seen: Seen[] = [];
    connected.on('message', (topic, payload, packet) => seen.push({ topic, payload: payload.toString(), retain: packet.retain }));
    return { client: connected, seen };
  }

  const cases: Array<{ name: string; filters: string[]; qos: 0 | 1; options?: IClientOptions }> = [
    { name: 'QoS 1', filters: [STATE, AVAILABILITY], qos: 1 },
    { name: 'QoS 0', filters: [STATE, AVAILABILITY], qos: 0 },
    {
      name: 'a persistent session (clean: false), QoS 1',
      filters: [STATE, AVAILABILITY],
      qos: 1,
      options: { clientId: 'mower-controller', clean: false },
    },
    { name: 'wildcard filters', filters: ['mowability/+/state', '+/garden/availability'], qos: 1 },
  ];

  it.each(cases)('a subscriber ($name) keeps the newest state, not the retained copy read before it', async ({ filters, qos, options }) => {
    const { broker, connection } = await daemonOnBroker();
    const mower = await client(broker, options);
    const hold = holdNextLookup('createRetainedStreamCombi', filters[0]!, async () => {
      // The daemon says "stop" while the subscriber's retained "go" is on its way.
      connection.publish('garden/state', STOP, { retain: true, qos: 1 });
      connection.publish('garden/availability', 'offline', { retain: true, qos: 1 });
      await waitUntil(() => mower.seen.some((m) => m.payload === STOP) && mower.seen.some((m) => m.payload === 'offline'), 'the live stop');
    });
    await mower.client.subscribeAsync([...filters, BARRIER], { qos });
    // The barrier is the lookup's last retained message: once it is here, every retained message before it was handed over or dropped.
    await waitUntil(() => mower.seen.some((m) => m.topic === BARRIER), 'the retained barrier');
    expect(hold.held()).toBe(true);
    const last = lastPerTopic(mower.seen);
    expect(last.get(STATE)?.payload).toBe(STOP);
    expect(last.get(AVAILABILITY)?.payload).toBe('offline');
    expect(mower.client.connected).toBe(true);
    expect(await retainedMessage(broker.port, STATE)).toBe(STOP);
  });

  // aedes asks its persistence to clear a dropped QoS 1 message of a persistent session by message id;
  // a retained copy has none, and the first queued message without one yet (the live "stop", queued
  // and not yet sent) was cleared instead, so sending it failed and the session was disconnected.
  it('a persistent session keeps its queued live message when the stale retained copy is dropped', async () => {
    const { broker, connection } = await daemonOnBroker();
    const mower = await client(broker, { clientId: 'mower-controller', clean: false });
    const enqueue = Reflect.get(SessionStore.prototype, 'outgoingEnqueueCombi') as SessionStore['outgoingEnqueueCombi'];
    let queued: () => void = () => undefined;
    const stopQueued = new Promise<void>((resolve) => (queued = resolve));
    vi.spyOn(SessionStore.prototype, 'outgoingEnqueueCombi').mockImplementation(async function (this: SessionStore, subs, packet) {
      await enqueue.call(this, subs, packet);
      if ('payload' in packet && String(packet.payload) === STOP) queued();
    });
    holdNextLookup('createRetainedStreamCombi', STATE, async () => {
      connection.publish('garden/state', STOP, { retain: true, qos: 1 });
      // Handed over while the live "stop" waits in the session's queue without a message id.
      await stopQueued;
    });
    await mower.client.subscribeAsync([STATE, BARRIER], { qos: 1 });
    await waitUntil(
      () => mower.seen.some((m) => m.topic === BARRIER) && mower.seen.some((m) => m.payload === STOP),
      'the barrier and the live stop',
    );
    expect(lastPerTopic(mower.seen).get(STATE)?.payload).toBe(STOP);
    expect(mower.seen.filter((m) => m.topic === STATE)).toEqual([{ topic: STATE, payload: STOP, retain: false }]);
    expect(mower.client.connected).toBe(true);
  });

  it('still hands over the retained messages that nothing replaced, flagged as retained', async () => {
    const { broker } = await daemonOnBroker();
    const mower = await client(broker);
    await mower.client.subscribeAsync([STATE, AVAILABILITY, BARRIER], { qos: 1 });
    await waitUntil(() => mower.seen.some((m) => m.topic === BARRIER), 'the retained barrier');
    expect(mower.seen).toEqual([
      { topic: STATE, payload: GO, retain: true },
      { topic: AVAILABILITY, payload: 'online', retain: true },
      { topic: BARRIER, payload: 'online', retain: true },
    ]);
  });

  it('a retained message deleted during the SUBSCRIBE is not handed over afterwards', async () => {
    const { broker, connection } = await daemonOnBroker();
    const mower = await client(broker);
    holdNextLookup('createRetainedStreamCombi', AVAILABILITY, async () => {
      connection.publish('garden/availability', '', { retain: true, qos: 1 });
      await waitUntil(() => mower.seen.some((m) => m.topic === AVAILABILITY && m.payload === ''), 'the live deletion');
    });
    await mower.client.subscribeAsync([AVAILABILITY, BARRIER], { qos: 1 });
    await waitUntil(() => mower.seen.some((m) => m.topic === BARRIER), 'the retained barrier');
    expect(mower.seen.filter((m) => m.topic === AVAILABILITY)).toEqual([{ topic: AVAILABILITY, payload: '', retain: false }]);
  });

  it("the daemon's own subscription keeps a station's newest retained message, not the copy read before it", async () => {
    const { broker, connection } = await daemonOnBroker();
    const station = await client(broker);
    await station.client.publishAsync('weather/garden', 'reading 1', { qos: 1, retain: true });
    await station.client.publishAsync('weather/zz-barrier', 'barrier', { qos: 1, retain: true });
    const received: string[] = [];
    holdNextLookup('createRetainedStream', 'weather/#', async () => {
      await station.client.publishAsync('weather/garden', 'reading 2', { qos: 1, retain: true });
      await waitUntil(() => received.includes('weather/garden=reading 2'), 'the live reading');
    });
    connection.subscribe('weather/#', (topic, payload) => void received.push(`${topic}=${payload.toString()}`));
    await waitUntil(() => received.includes('weather/zz-barrier=barrier'), 'the retained barrier');
    expect(received.filter((line) => line.startsWith('weather/garden')).at(-1)).toBe('weather/garden=reading 2');
  });
});

describe('the session store knows which retained message each topic holds', () => {
  const limits = {
    maxSessions: 2,
    maxSubscriptionsPerSession: 10,
    maxQueuedMessages: 10,
    maxQueuedBytes: 1024,
    maxInflightBytes: 64 * 1024,
  };
  const publish = (topic: string, payload: Buffer | string, brokerId: string | null = 'broker', retain = true) =>
    ({ cmd: 'publish', topic, payload, qos: 1, retain, dup: false, brokerId, brokerCounter: 1 }) as never;

  it('tells a copy of what a topic holds from one replaced or deleted since it was read', async () => {
    const store = new SessionStore(limits, () => true);
    const go = Buffer.from(GO);
    await store.storeRetained(publish(STATE, go));
    expect(store.holdsRetained({ topic: STATE, payload: go })).toBe(true);
    // A copy with the same bytes is not older, whichever publish it came from.
    expect(store.holdsRetained({ topic: STATE, payload: Buffer.from(GO) })).toBe(true);
    expect(store.holdsRetained({ topic: STATE, payload: GO })).toBe(true);
    await store.storeRetained(publish(STATE, Buffer.from(STOP)));
    expect(store.holdsRetained({ topic: STATE, payload: go })).toBe(false);
    expect(store.isStaleRetainedCopy({ topic: STATE, payload: go, retain: true, brokerId: null })).toBe(true);
    // Live messages are never judged, also when they keep their retain flag.
    expect(store.isStaleRetainedCopy({ topic: STATE, payload: go, retain: true, brokerId: 'broker' })).toBe(false);
    await store.storeRetained(publish(STATE, Buffer.alloc(0)));
    expect(store.holdsRetained({ topic: STATE, payload: Buffer.from(STOP) })).toBe(false);
    expect(store.holdsRetained({ topic: 'never/retained', payload: Buffer.alloc(0) })).toBe(false);
  });

  it('clears no queued message for a dropped retained copy, which was never queued', async () => {
    const store = new SessionStore(limits, () => true);
    const client = { id: 'mower-controller' } as never;
    await store.outgoingEnqueue({ clientId: 'mower-controller' }, publish(STATE, STOP));
    expect(await store.outgoingClearMessageId(client, publish(STATE, GO, null))).toBeUndefined();
    expect(store.queued('mower-controller').messages).toBe(1);
    // A queued message is still cleared by its own (here still undefined) message id.
    expect(await store.outgoingClearMessageId(client, publish(STATE, STOP, 'broker', false))).toMatchObject({
      topic: STATE,
      payload: STOP,
    });
    expect(store.queued('mower-controller').messages).toBe(0);
  });
});
