import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MqttConnection } from '../../src/mqtt/client.js';
import { BIRTH_DELAY_MS, DISCOVERY_SWEEP_MS, DiscoveryPublisher } from '../../src/mqtt/discoveryPublisher.js';
import { silentLogger } from '../helpers/mqttHarness.js';

type Handler = (topic: string, payload: Buffer, retained: boolean) => void;

/** Records publishes and lets the test deliver messages to subscriptions. */
function fakeConnection() {
  const handlers = new Map<string, Handler>();
  const published: Array<[string, string]> = [];
  const unsubscribed: string[] = [];
  const connection: Pick<MqttConnection, 'publishAbsolute' | 'subscribe' | 'unsubscribe'> = {
    publishAbsolute: (topic, payload) => void published.push([topic, String(payload)]),
    subscribe: (filter, handler) => {
      // The test calls the handler synchronously and ignores what it returns, as the connection does.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      handlers.set(filter, handler);
    },
    unsubscribe: (filter) => void unsubscribed.push(filter),
  };
  const deliver = (filter: string, topic: string, payload: string, retained = true) =>
    handlers.get(filter)!(topic, Buffer.from(payload), retained);
  return { connection, published, unsubscribed, deliver };
}

const settings = { discovery: true, prefix: 'homeassistant', statusTopic: 'homeassistant/status', birthResendSeconds: 60 };
const current = { topic: 'homeassistant/sensor/mowability_garden_index/config', payload: { unique_id: 'mowability_garden_index' } };

describe('DiscoveryPublisher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const publisher = (discovery = true) =>
    new DiscoveryPublisher({ settings: { ...settings, discovery }, baseTopic: 'mowability', messages: () => [current], log: silentLogger });

  it('publishes every config retained, and nothing when discovery is off', () => {
    const fake = fakeConnection();
    publisher().publish(fake.connection);
    publisher(false).publish(fake.connection);
    expect(fake.published).toEqual([[current.topic, JSON.stringify(current.payload)]]);
  });

  it("sweeps once per start: deletes our retained configs that are no longer current, leaves others' alone", async () => {
    const fake = fakeConnection();
    const discovery = publisher();
    discovery.sweepStale(fake.connection);
    discovery.sweepStale(fake.connection);
    const filter = 'homeassistant/+/+/config';
    const ghost = 'homeassistant/sensor/mowability_old_index/config';
    fake.deliver(
      filter,
      ghost,
      JSON.stringify({
        origin: { name: 'mowability' },
        availability: [{ topic: 'mowability/bridge/state' }],
        state_topic: 'mowability/old/state',
      }),
    );
    fake.deliver(
      filter,
      'homeassistant/sensor/zigbee_1/config',
      JSON.stringify({ origin: { name: 'zigbee2mqtt' }, availability: [{ topic: 'mowability/bridge/state' }] }),
    );
    fake.deliver(filter, current.topic, JSON.stringify(current.payload));
    fake.deliver(
      filter,
      'homeassistant/sensor/mowability_live/config',
      JSON.stringify({ origin: { name: 'mowability' }, state_topic: 'mowability/bridge/state' }),
      false,
    );
    await vi.advanceTimersByTimeAsync(DISCOVERY_SWEEP_MS - 1);
    expect(fake.published).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.unsubscribed).toEqual([filter]);
    expect(fake.published).toEqual([[ghost, '']]);
  });

  it('asks for one republish per burst of Home Assistant birth messages, after the delay', async () => {
    const fake = fakeConnection();
    const discovery = publisher();
    let republished = 0;
    discovery.onBirth(fake.connection, () => republished++);
    fake.deliver('homeassistant/status', 'homeassistant/status', 'online\n', false);
    fake.deliver('homeassistant/status', 'homeassistant/status', 'online', false);
    fake.deliver('homeassistant/status', 'homeassistant/status', 'offline', false);
    await vi.advanceTimersByTimeAsync(BIRTH_DELAY_MS);
    expect(republished).toBe(1);
    fake.deliver('homeassistant/status', 'homeassistant/status', 'online', false);
    discovery.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(republished).toBe(1);
  });

  it('coalesces a flood of births: at most one re-send per birthResendSeconds, the last birth never lost', async () => {
    const fake = fakeConnection();
    const discovery = publisher();
    let republished = 0;
    discovery.onBirth(fake.connection, () => republished++);
    // 50 births a second for two minutes, from any number of clients.
    for (let ms = 0; ms < 120_000; ms += 20) {
      fake.deliver('homeassistant/status', 'homeassistant/status', 'online', false);
      await vi.advanceTimersByTimeAsync(20);
    }
    // At 1 s, then at the end of each 60 s window that saw a birth: 1 s, 61 s, 121 s.
    expect(republished).toBe(2);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(republished).toBe(3);
    expect(discovery).toMatchObject({ birthsReceived: 6000, birthResends: 3 });
    // A quiet window ends without a re-send; the next birth after it is answered after the short delay again.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(republished).toBe(3);
    fake.deliver('homeassistant/status', 'homeassistant/status', 'online', false);
    await vi.advanceTimersByTimeAsync(BIRTH_DELAY_MS);
    expect(republished).toBe(4);
    discovery.stop();
  });
});
