/**
 * `homeassistant/status` `online` at 50/s made the daemon re-send every discovery config (116
 * configs, ~100 KB) to every subscriber once a second. Now one connection may send only a few
 * births per window, and what arrives from many connections is coalesced into one re-send per
 * `homeassistant.birthResendSeconds`.
 */
import { describe, expect, it as unit } from 'vitest';
import { BirthLimit, MAX_BIRTHS_PER_CONNECTION } from '../../src/mqtt/birthLimit.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { publishOnce, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const CONFIG_TOPIC = 'homeassistant/binary_sensor/mowability_garden_mowable/config';

describe('births per connection', () => {
  unit('allows a few per window and connection, other topics always', () => {
    let nowMs = 0;
    const limit = new BirthLimit({ topic: 'homeassistant/status', windowMs: 60_000 }, () => nowMs);
    const connection = {};
    for (let i = 0; i < MAX_BIRTHS_PER_CONNECTION; i++) expect(limit.problem(connection, 'homeassistant/status')).toBeUndefined();
    expect(limit.problem(connection, 'homeassistant/status')).toMatch(/more than 3 messages to homeassistant\/status/);
    expect(limit.problem({}, 'homeassistant/status')).toBeUndefined();
    expect(limit.problem(connection, 'rtl_433/events')).toBeUndefined();
    nowMs = 60_000;
    expect(limit.problem(connection, 'homeassistant/status')).toBeUndefined();
  });
});

describe('a flood of Home Assistant birth messages', () => {
  it('refuses a connection repeating it, and re-sends discovery once per window for births from many connections', async ({ mqtt }) => {
    const daemon = await mqtt.start(testMqttConfig({ stations: [garden] }));
    const observer = await mqtt.connect(daemon.port);
    await observer.client.subscribeAsync('homeassistant/#', { qos: 1 });
    await waitUntil(() => observer.latest.get(CONFIG_TOPIC)?.count === 1, 'the retained config');
    const sends = () => observer.latest.get(CONFIG_TOPIC)?.count ?? 0;

    // One connection repeating `online`: refused after a few.
    const flooder = await mqtt.connect(daemon.port);
    const closed = new Promise<void>((resolve) => flooder.client.once('close', () => resolve()));
    for (let i = 0; i <= MAX_BIRTHS_PER_CONNECTION; i++) flooder.client.publish('homeassistant/status', 'online', { qos: 0 });
    await closed;

    // Many connections, one birth each, for 2.5 s and at least 20 of them (a loaded machine connects
    // slowly): before, a re-send every second.
    const until = Date.now() + 2500;
    for (let births = 0; births <= 20 || Date.now() < until; births++) {
      expect(await publishOnce(daemon.port, 'homeassistant/status', 'online', { qos: 1 })).toBe('handled');
    }
    await waitUntil(() => sends() >= 2, 'the first re-send');
    expect(await publishOnce(daemon.port, 'sync/marker', 'x', { qos: 1 })).toBe('handled');
    expect(sends()).toBe(2);
    expect(daemon.service.stats().brokerRejectedPublishes).toBe(1);
  });
});
