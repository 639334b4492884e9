/**
 * The guarantee of test/mqtt/retainedOrder.test.ts, driven without hooks against both kinds of
 * broker the daemon publishes through: a subscriber subscribes to a retained topic among others,
 * and as soon as its SUBACK is in, a publisher replaces that topic's value; the subscriber must end
 * with the new value. The embedded broker (aedes) sends the SUBACK first and then streams the
 * retained messages, reading them ahead of what it has handed over, so the topic's old value was
 * read before the publish and sent after it (every subscriber ended with the old value without the
 * fix). Debian's mosquitto queues a SUBSCRIBE's retained messages while it handles the packet,
 * before it reads any later publish, so it needs nothing from us.
 */
import { describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { mqttTest } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { testBroker } from '../helpers/testBroker.js';
import { MOSQUITTO_BINARY, mosquittoAvailable } from '../../bench/lib/mosquitto.js';

/**
 * Retained topics before the hot one (and three times as many after it): aedes' retained stream
 * reads about 16 messages ahead of what it has sent, so the hot one is read at once and sent after these.
 */
const FILLERS = 15;
const SUBSCRIBERS = 8;
const HOT = 'order/hot';
/** Retained before the burst; its filter comes last in each SUBSCRIBE, so its retained copy is handed over last. */
const BARRIER = 'order-barrier/done';

async function connect(port: number): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000 });
}

/**
 * Each subscriber subscribes and the publisher publishes a newer value right behind its SUBSCRIBE;
 * returns, per subscriber, the hot value it holds once its retained messages are all in and the
 * value it should hold.
 */
async function subscribersRacingAnUpdate(port: number): Promise<Array<{ holds: string; newest: string }>> {
  const clients: MqttClient[] = [];
  try {
    const publisher = await connect(port);
    clients.push(publisher);
    const filler = (i: number) => publisher.publishAsync(`order/filler${String(i).padStart(2, '0')}`, 'x', { qos: 1, retain: true });
    for (let i = 0; i < FILLERS; i++) await filler(i);
    await publisher.publishAsync(HOT, 'value 0', { qos: 1, retain: true });
    for (let i = FILLERS; i < 4 * FILLERS; i++) await filler(i);
    await publisher.publishAsync(BARRIER, 'done', { qos: 1, retain: true });
    const outcome: Array<{ holds: string; newest: string }> = [];
    for (let round = 1; round <= SUBSCRIBERS; round++) {
      const subscriber = await connect(port);
      clients.push(subscriber);
      const newest = `value ${round}`;
      const seen = { hot: '', newest: false, barrier: false };
      subscriber.on('message', (topic, payload) => {
        if (topic === HOT) seen.hot = payload.toString();
        if (topic === HOT && seen.hot === newest) seen.newest = true;
        if (topic === BARRIER) seen.barrier = true;
      });
      // Published as soon as the SUBACK is in: brokers send the SUBACK before the retained messages.
      await subscriber.subscribeAsync(['order/#', BARRIER], { qos: 1 });
      await publisher.publishAsync(HOT, newest, { qos: 1, retain: true });
      // An older retained copy handed over late comes before the barrier (a SUBSCRIBE's retained messages arrive in filter order).
      await waitUntil(() => seen.barrier && seen.newest, 'the retained messages and the newest value');
      outcome.push({ holds: seen.hot, newest });
    }
    return outcome;
  } finally {
    for (const client of clients) await client.endAsync(true);
  }
}

function expectNewest(outcome: Array<{ holds: string; newest: string }>): void {
  expect(outcome.map(({ holds }) => holds)).toEqual(outcome.map(({ newest }) => newest));
}

describe('subscribers racing an update of a retained topic', () => {
  it('end with the new value on the embedded broker', async () => {
    const broker = testBroker({ retainedLimits: { maxMessages: 100, maxBytes: 64 * 1024, maxBytesPerClient: 64 * 1024 } });
    await broker.start();
    try {
      expectNewest(await subscribersRacingAnUpdate(broker.port));
    } finally {
      await broker.stop();
    }
  });
});

const available = mosquittoAvailable();
describe.skipIf(!available && !process.env.CI)(`subscribers racing an update of a retained topic on ${MOSQUITTO_BINARY}`, () => {
  mqttTest('end with the new value on mosquitto', async ({ mqtt: fixture }) => {
    const mosquitto = await fixture.mosquitto();
    expectNewest(await subscribersRacingAnUpdate(mosquitto.port));
  });
});
