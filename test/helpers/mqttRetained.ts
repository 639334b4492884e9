/**
 * What a broker holds retained, asked the way a new subscriber would, without waiting out a
 * timeout to conclude that nothing is there.
 *
 * The barrier: one SUBSCRIBE names the filter first and a topic that is known to hold a
 * retained message last (by default the daemon's own `mowability/bridge/state`). Brokers send
 * the retained messages of one SUBSCRIBE filter by filter, in order (aedes streams them one
 * after the other from its persistence, Mosquitto queues them while it handles the packet),
 * so once the barrier's retained message has arrived, every retained message under the filter
 * has arrived before it.
 */
import mqtt, { type IClientOptions } from 'mqtt';
import { waitUntil, withDeadline } from './wait.js';

/** Retained by the daemon whenever its bridge has connected once ('online', or 'offline' after a stop). */
export const RETAINED_BARRIER_TOPIC = 'mowability/bridge/state';

export interface RetainedLookup {
  /** Login and other options of the asking client (brokers with accounts refuse anonymous clients). */
  connect?: IClientOptions;
  /** How long the barrier may take to arrive: a failure deadline, not a wait for absence. */
  timeoutMs?: number;
}

/**
 * Every retained message under `filter`, by topic. Throws when the barrier topic holds no
 * retained message within the deadline (is the daemon's bridge connected?).
 */
export async function retainedUnder(port: number, filter: string, lookup: RetainedLookup = {}): Promise<Map<string, string>> {
  for (;;) {
    const result = await lookupOnce(port, filter, lookup);
    if (result !== 'again') return result;
  }
}

/** The retained message on `topic`, or undefined when the broker holds none. */
export async function retainedNow(port: number, topic: string, lookup: RetainedLookup = {}): Promise<string | undefined> {
  return (await retainedUnder(port, topic, lookup)).get(topic);
}

/** Waits until the broker holds a retained message on `topic` (it may be published only later) and returns it. */
export async function retainedMessage(port: number, topic: string, connect: IClientOptions = {}, timeoutMs = 10_000): Promise<string> {
  let payload: string | undefined;
  await waitUntil(
    async () => (payload = await retainedNow(port, topic, { connect, timeoutMs })) !== undefined,
    `a retained message on ${topic}`,
    timeoutMs,
  );
  return payload!;
}

/** True when the broker holds no retained message on `topic`. */
export async function noRetainedMessage(port: number, topic: string, connect: IClientOptions = {}): Promise<boolean> {
  return (await retainedNow(port, topic, { connect })) === undefined;
}

/** Waits until the retained message on `topic` (undefined: none) satisfies `accept`. */
export async function waitForRetained(
  port: number,
  topic: string,
  accept: (payload: string | undefined) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  await waitUntil(async () => accept(await retainedNow(port, topic, { timeoutMs })), what, timeoutMs);
}

/**
 * One lookup on a fresh connection. 'again' when the barrier arrived live (it was published
 * only after our SUBSCRIBE, so the retained stream proves nothing): the caller asks again.
 */
async function lookupOnce(port: number, filter: string, lookup: RetainedLookup): Promise<Map<string, string> | 'again'> {
  // For the barrier topic itself, its first message (retained, or live once published) is the answer.
  const barrierOnly = filter === RETAINED_BARRIER_TOPIC;
  if (!barrierOnly && matchesFilter(filter, RETAINED_BARRIER_TOPIC))
    throw new Error(`${filter} covers the barrier ${RETAINED_BARRIER_TOPIC}: ask for a narrower filter`);
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...lookup.connect });
  const retained = new Map<string, string>();
  try {
    const barrier = new Promise<'done' | 'again'>((resolve) => {
      client.on('message', (topic, payload, packet) => {
        if (topic === RETAINED_BARRIER_TOPIC) {
          if (barrierOnly) retained.set(topic, payload.toString('utf8'));
          resolve(packet.retain || barrierOnly ? 'done' : 'again');
        } else if (packet.retain && payload.length > 0) {
          retained.set(topic, payload.toString('utf8'));
        }
      });
    });
    await client.subscribeAsync(barrierOnly ? [filter] : [filter, RETAINED_BARRIER_TOPIC], { qos: 1 });
    const outcome = await withDeadline(
      barrier,
      lookup.timeoutMs ?? 10_000,
      `the retained barrier ${RETAINED_BARRIER_TOPIC} (is the daemon's bridge connected?)`,
    );
    return outcome === 'again' ? 'again' : retained;
  } finally {
    await client.endAsync(true);
  }
}

/** MQTT topic filter matching (+ one level, # the rest): does `filter` cover `topic`? */
function matchesFilter(filter: string, topic: string): boolean {
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  for (let i = 0; i < filterLevels.length; i++) {
    if (filterLevels[i] === '#') return true;
    if (i >= topicLevels.length || (filterLevels[i] !== '+' && filterLevels[i] !== topicLevels[i])) return false;
  }
  return filterLevels.length === topicLevels.length;
}
