/**
 * The retained-message lookups of the tests (test/helpers/mqttRetained.ts) answer "absent"
 * from a barrier instead of a timeout, so they must be seen to find what is there: many
 * retained messages under one filter, each delivered before the barrier.
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import {
  noRetainedMessage,
  publishOnce,
  retainedMessage,
  retainedUnder,
  testMqttConfig,
  waitForRetained,
  waitUntil,
} from '../helpers/mqttHarness.js';

describe('retained lookups against the embedded broker', () => {
  it('find every retained message under a filter, and nothing that is not there', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig());
    const publisher = await mqtt.connect(daemon.port);
    for (let i = 0; i < 60; i++) await publisher.client.publishAsync(`lookup/${i}`, `value ${i}`, { qos: 1, retain: true });
    await waitUntil(() => daemon.service.stats().connected, 'the bridge connected (it retains the barrier)');

    const found = await retainedUnder(daemon.port, 'lookup/#');
    expect(found.size).toBe(60);
    expect(found.get('lookup/59')).toBe('value 59');
    expect(await noRetainedMessage(daemon.port, 'lookup/0')).toBe(false);
    expect(await noRetainedMessage(daemon.port, 'lookup/60')).toBe(true);
    expect(await retainedMessage(daemon.port, 'lookup/7')).toBe('value 7');

    // A delete is seen as one: the lookup reflects the broker's state, not what a client once saw.
    expect(await publishOnce(daemon.port, 'lookup/7', '', { qos: 1, retain: true })).toBe('handled');
    await waitForRetained(daemon.port, 'lookup/7', (payload) => payload === undefined, 'the delete');
    await expect(retainedUnder(daemon.port, 'mowability/#')).rejects.toThrow(/covers the barrier/);
  });
});
