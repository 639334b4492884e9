/**
 * The daemon against an external broker: Debian's mosquitto. Fails (does not
 * skip) when CI is set and mosquitto is missing.
 */
import { describe, expect } from 'vitest';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { StationConfig } from '../../src/ingest/types.js';
import { MINUTE_MS } from '../../src/history/windows.js';
import { clientIdFor } from '../../src/mqtt/settings.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import {
  mqttTempDir,
  noRetainedMessage,
  retainedMessage,
  testMqttConfig,
  waitForRetained,
  waitUntil,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';
import { MOSQUITTO_BINARY, Mosquitto, MosquittoPortInUseError, mosquittoAvailable, onFreePort } from '../../bench/lib/mosquitto.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const available = mosquittoAvailable();
const required = Boolean(process.env.CI);
if (!available && !required) {
  console.warn(
    `external-broker tests skipped: ${MOSQUITTO_BINARY} not found (install the Debian package "mosquitto"; with CI set they fail instead)`,
  );
}

const diy: StationConfig = {
  id: 'diy',
  name: 'DIY',
  format: 'json',
  topic: 'diy/weather',
  fields: { temperature: 't', precipitation_rate: 'r', rain_delta: 'd' },
  timestampKey: 'ts',
};

describe('external broker settings', () => {
  it('uses a stable client id derived from the base topic', () => {
    const config = testMqttConfig();
    expect(clientIdFor(config)).toBe(clientIdFor(testMqttConfig()));
    expect(clientIdFor(config)).toMatch(/^mowability-[0-9a-f]{8}$/);
    expect(clientIdFor(testMqttConfig({ mqtt: { baseTopic: 'other' } }))).not.toBe(clientIdFor(config));
    expect(clientIdFor(testMqttConfig({ mqtt: { clientId: 'mine' } }))).toBe('mine');
  });

  it('the mosquitto helper fails with a clear message when the binary is missing', async () => {
    const temp = mqttTempDir();
    try {
      const broker = new Mosquitto(temp.dir, 1, join(temp.dir, 'no-such-mosquitto'));
      await expect(broker.start()).rejects.toThrow(
        /cannot run mosquitto at .*no-such-mosquitto \(.*ENOENT.*\); install the Debian package "mosquitto"/,
      );
    } finally {
      temp.cleanup();
    }
  });
});

// mosquitto started, stopped and restarted: up to 3.5 s a test on a quiet machine.
describe.skipIf(!available && !required)('external broker (mosquitto)', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  // The fixture stops the daemons, kills the brokers and removes the temp dir after each test.
  it('requires mosquitto in CI', () => {
    expect(available, `${MOSQUITTO_BINARY} is missing`).toBe(true);
  });

  it('the mosquitto helper retries on another port when its port was taken meanwhile', async ({ mqtt }) => {
    const blocker = createServer();
    mqtt.defer(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    await expect(mqtt.mosquitto({ port: taken })).rejects.toBeInstanceOf(MosquittoPortInUseError);
    const tried: number[] = [];
    const broker = await onFreePort(async (port) => {
      tried.push(port);
      return mqtt.mosquitto({ port: tried.length === 1 ? taken : port });
    });
    expect(tried).toHaveLength(2);
    expect(broker.port).not.toBe(taken);
    const probe = await mqtt.connect(broker.port); // it serves MQTT
    expect(await probe.client.subscribeAsync('nothing/here', { qos: 1 })).toEqual([{ topic: 'nothing/here', qos: 1 }]);
  });

  it('starts without a reachable broker, connects when it appears, and loses no reading across a broker restart', async ({ mqtt }) => {
    const { clock } = mqtt;
    let daemon: RunningDaemon | undefined;
    let broker: Mosquitto | undefined;
    const port = await onFreePort(async (candidate) => {
      const config = testMqttConfig({
        stations: [diy],
        mqtt: { url: `mqtt://127.0.0.1:${candidate}`, reconnectMaxSeconds: 1 },
        broker: { enabled: false },
      });
      // Nothing listens yet: start() must return at once and the daemon keeps running.
      const started = await mqtt.start(config);
      try {
        expect(started.service.stats().connected).toBe(false);
        broker = await mqtt.mosquitto({ port: candidate });
        daemon = started;
        return candidate;
      } catch (err) {
        await started.stop();
        throw err;
      }
    });
    const running = daemon!;
    await waitUntil(() => running.service.stats().connected, 'daemon connected', 10_000);
    expect(await retainedMessage(port, 'mowability/bridge/state')).toBe('online');
    expect(await retainedMessage(port, 'homeassistant/sensor/mowability_diy_index/config')).toContain('"unique_id":"mowability_diy_index"');

    const station = (await mqtt.connect(port, { clientId: 'station-publisher', clean: false, reconnectPeriod: 200 })).client;
    // One reading every 30 s for 30 minutes, each with 0.1 mm of rain and its own temperature.
    const total = 60;
    const baseSeconds = Math.floor(clock.now() / 1000) - 3600;
    const publish = (i: number) =>
      station.publishAsync('diy/weather', JSON.stringify({ t: 10 + i / 10, r: 0, d: 0.1, ts: baseSeconds + i * 30 }), { qos: 1 });

    for (let i = 0; i < total / 2; i++) await publish(i);
    await waitUntil(() => running.service.stats().accepted >= 10, 'first readings');
    // Restart the broker mid-stream; the publisher's QoS 1 queue and our persistent session carry the rest.
    await broker!.stop('SIGTERM');
    const pending = Array.from({ length: total / 2 }, (_, k) => publish(total / 2 + k));
    // Both sides have seen the broker go: the readings queue up in the publisher's QoS 1 store.
    await waitUntil(() => !station.connected && !running.service.stats().connected, 'both clients to notice the broker is down');
    await broker!.start();
    await Promise.all(pending);
    await waitUntil(() => running.service.stats().accepted === total, `all ${total} readings`, 15_000).catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(running.service.stats())}\n${broker!.output}`);
    });
    expect(running.service.stats()).toMatchObject({ accepted: total, rejected: 0 });

    // What counts is the stored history: every reading once, redeliveries not doubled.
    await running.service.flush();
    const buckets = await running.database.all<{ minute: number; rain_mm: number; temp_min_c: number }>(
      "SELECT minute, rain_mm, temp_min_c FROM history_buckets WHERE station = 'diy' ORDER BY minute",
    );
    const baseMinute = (baseSeconds * 1000) / MINUTE_MS;
    expect(buckets.map((b) => b.minute)).toEqual(Array.from({ length: total / 2 }, (_, k) => baseMinute + k));
    buckets.forEach((bucket, k) => {
      expect(bucket.temp_min_c).toBeCloseTo(10 + (2 * k) / 10, 9); // the lower of the minute's two readings
      expect(bucket.rain_mm).toBeCloseTo(0.2, 9);
    });
    const latest = await running.database.get<{ value: number }>(
      "SELECT value FROM history_latest WHERE station = 'diy' AND field = 'temperature'",
    );
    expect(latest?.value).toBeCloseTo(10 + (total - 1) / 10, 9);
    await waitForRetained(port, 'mowability/bridge/state', (payload) => payload === 'online', 'online again after the restart');
  });

  it('subscribes again when the broker comes back without our session', async ({ mqtt }) => {
    const broker = await mqtt.mosquitto();
    const port = broker.port;
    const config = testMqttConfig({
      stations: [diy],
      mqtt: { url: `mqtt://127.0.0.1:${port}`, reconnectMaxSeconds: 1 },
      broker: { enabled: false },
    });
    const running = await mqtt.start(config);
    await waitUntil(() => running.service.stats().connected, 'connected');
    await broker.stop('SIGKILL'); // no persistence file written: the session is gone
    rmSync(join(mqtt.dir, 'mosquitto.db'), { force: true });
    await broker.start();
    // Nothing retained survived: 'online' appears only when the daemon has reconnected.
    await waitForRetained(port, 'mowability/bridge/state', (payload) => payload === 'online', 'reconnected');
    const seconds = Math.floor(mqtt.clock.now() / 1000);
    const station = (await mqtt.connect(port)).client;
    await waitUntil(
      async () => {
        await station.publishAsync('diy/weather', JSON.stringify({ t: 12, r: 0, ts: seconds }), { qos: 1 });
        return running.service.stats().accepted >= 1;
      },
      'a reading through the renewed subscription',
      10_000,
    );
  });

  it('removes the retained discovery configs of a station that is no longer configured', async ({ mqtt }) => {
    const broker = await mqtt.mosquitto();
    const port = broker.port;
    const old: StationConfig = { ...diy, id: 'old', topic: 'old/weather' };
    const external = { mqtt: { url: `mqtt://127.0.0.1:${port}` }, broker: { enabled: false } };
    const daemon = await mqtt.start(testMqttConfig({ ...external, stations: [diy, old] }));
    await waitForRetained(
      port,
      'homeassistant/sensor/mowability_old_index/config',
      (payload) => payload !== undefined,
      'old station discovered',
    );
    // Someone else's config under the same prefix must survive.
    const foreign = (await mqtt.connect(port)).client;
    await foreign.publishAsync(
      'homeassistant/sensor/other_thing/config',
      JSON.stringify({ name: 'x', unique_id: 'other', origin: { name: 'other' } }),
      { qos: 1, retain: true },
    );
    await foreign.endAsync();
    await daemon.stop();

    await mqtt.start(testMqttConfig({ ...external, stations: [diy] }));
    await waitForRetained(
      port,
      'homeassistant/sensor/mowability_old_index/config',
      (payload) => payload === undefined,
      'stale config removed',
    );
    expect(await noRetainedMessage(port, 'homeassistant/binary_sensor/mowability_old_mowable/config')).toBe(true);
    expect(await retainedMessage(port, 'homeassistant/sensor/mowability_diy_index/config')).toContain('mowability_diy_index');
    expect(await retainedMessage(port, 'homeassistant/sensor/other_thing/config')).toContain('"unique_id":"other"');
  });
});
