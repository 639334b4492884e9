/**
 * The daemon against an external broker: Debian's mosquitto. Fails (does not
 * skip) when CI is set and mosquitto is missing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { StationConfig } from '../../src/ingest/types.js';
import { clientIdFor } from '../../src/mqtt/settings.js';
import { FakeClock, mqttTempDir, retainedMessage, startMqttDaemon, testMqttConfig, waitUntil, type RunningDaemon } from '../helpers/mqttHarness.js';
import { MOSQUITTO_BINARY, Mosquitto, freePort, mosquittoAvailable } from '../helpers/mqttMosquitto.js';

const available = mosquittoAvailable();
const required = Boolean(process.env.CI);
if (!available && !required) {
  console.warn(`external-broker tests skipped: ${MOSQUITTO_BINARY} not found (install the Debian package "mosquitto"; with CI set they fail instead)`);
}

const diy: StationConfig = {
  id: 'diy',
  name: 'DIY',
  format: 'json',
  topic: 'diy/weather',
  fields: { temperature: 't', precipitation_rate: 'r' },
  timestampKey: 'ts',
};

describe.skipIf(!available && !required)('external broker (mosquitto)', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  const clock = new FakeClock(Date.parse('2026-06-15T08:00:00Z'));
  let broker: Mosquitto | undefined;
  let daemon: RunningDaemon | undefined;
  let publisher: MqttClient | undefined;

  afterEach(async () => {
    await publisher?.endAsync(true);
    await daemon?.stop();
    await broker?.stop('SIGKILL');
    publisher = daemon = broker = undefined;
    temp.cleanup();
  });

  it('requires mosquitto in CI', () => {
    expect(available, `${MOSQUITTO_BINARY} is missing`).toBe(true);
  });

  it('starts without a reachable broker, connects when it appears, and loses no reading across a broker restart', async () => {
    const port = await freePort();
    const config = testMqttConfig({
      stations: [diy],
      mqtt: { url: `mqtt://127.0.0.1:${port}`, reconnectMaxSeconds: 1 },
      broker: { enabled: false },
    });
    // Nothing listens yet: start() must return at once and the daemon keeps running.
    daemon = await startMqttDaemon(temp.dbPath, config, clock);
    expect(daemon.service.stats().connected).toBe(false);

    broker = new Mosquitto(temp.dir, port);
    await broker.start();
    await waitUntil(() => daemon!.service.stats().connected, 'daemon connected', 10_000);
    expect(await retainedMessage(port, 'mowability/bridge/state')).toBe('online');
    expect(await retainedMessage(port, 'homeassistant/sensor/mowability_diy_index/config')).toContain('"unique_id":"mowability_diy_index"');

    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: 'station-publisher', clean: false, reconnectPeriod: 200 });
    const total = 60;
    const baseSeconds = Math.floor(clock.now() / 1000) - 3600;
    const publish = (i: number) =>
      publisher!.publishAsync('diy/weather', JSON.stringify({ t: 10 + i / 10, r: 0, ts: baseSeconds + i * 30 }), { qos: 1 });

    for (let i = 0; i < total / 2; i++) await publish(i);
    await waitUntil(() => daemon!.service.stats().accepted >= 10, 'first readings');
    // Restart the broker mid-stream; the publisher's QoS 1 queue and our persistent session carry the rest.
    await broker.stop('SIGTERM');
    const pending = Array.from({ length: total / 2 }, (_, k) => publish(total / 2 + k));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await broker.start();
    await Promise.all(pending);
    await waitUntil(() => daemon!.service.stats().accepted === total, `all ${total} readings`, 15_000).catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(daemon!.service.stats())}\n${broker!.output}`);
    });
    const stats = daemon.service.stats();
    expect(stats.accepted).toBe(total);
    expect(stats.rejected).toBe(0);
    await waitUntil(async () => (await retainedMessage(port, 'mowability/bridge/state')) === 'online', 'online again after the restart');
  });

  it('subscribes again when the broker comes back without our session', async () => {
    const port = await freePort();
    broker = new Mosquitto(temp.dir, port);
    await broker.start();
    const config = testMqttConfig({ stations: [diy], mqtt: { url: `mqtt://127.0.0.1:${port}`, reconnectMaxSeconds: 1 }, broker: { enabled: false } });
    daemon = await startMqttDaemon(temp.dbPath, config, clock);
    await waitUntil(() => daemon!.service.stats().connected, 'connected');
    await broker.stop('SIGKILL'); // no persistence file written: the session is gone
    rmSync(join(temp.dir, 'mosquitto.db'), { force: true });
    await broker.start();
    await waitUntil(async () => (await retainedMessage(port, 'mowability/bridge/state', 300)) === 'online', 'reconnected', 10_000);
    const seconds = Math.floor(clock.now() / 1000);
    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    await waitUntil(async () => {
      await publisher!.publishAsync('diy/weather', JSON.stringify({ t: 12, r: 0, ts: seconds }), { qos: 1 });
      return daemon!.service.stats().accepted >= 1;
    }, 'a reading through the renewed subscription', 10_000);
  });

  it('removes the retained discovery configs of a station that is no longer configured', async () => {
    const port = await freePort();
    broker = new Mosquitto(temp.dir, port);
    await broker.start();
    const old: StationConfig = { ...diy, id: 'old', topic: 'old/weather' };
    const external = { mqtt: { url: `mqtt://127.0.0.1:${port}` }, broker: { enabled: false } };
    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ ...external, stations: [diy, old] }), clock);
    await waitUntil(async () => (await retainedMessage(port, 'homeassistant/sensor/mowability_old_index/config')) !== undefined, 'old station discovered');
    // Someone else's config under the same prefix must survive.
    const foreign = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    await foreign.publishAsync('homeassistant/sensor/other_thing/config', JSON.stringify({ name: 'x', unique_id: 'other', origin: { name: 'other' } }), { qos: 1, retain: true });
    await foreign.endAsync();
    await daemon.stop();

    daemon = await startMqttDaemon(temp.dbPath, testMqttConfig({ ...external, stations: [diy] }), clock);
    await waitUntil(async () => (await retainedMessage(port, 'homeassistant/sensor/mowability_old_index/config', 300)) === undefined, 'stale config removed', 10_000);
    expect(await retainedMessage(port, 'homeassistant/binary_sensor/mowability_old_mowable/config', 300)).toBeUndefined();
    expect(await retainedMessage(port, 'homeassistant/sensor/mowability_diy_index/config')).toContain('mowability_diy_index');
    expect(await retainedMessage(port, 'homeassistant/sensor/other_thing/config')).toContain('"unique_id":"other"');
  });

  it('uses a stable client id derived from the base topic', () => {
    const config = testMqttConfig();
    expect(clientIdFor(config)).toBe(clientIdFor(testMqttConfig()));
    expect(clientIdFor(config)).toMatch(/^mowability-[0-9a-f]{8}$/);
    expect(clientIdFor(testMqttConfig({ mqtt: { baseTopic: 'other' } }))).not.toBe(clientIdFor(config));
    expect(clientIdFor(testMqttConfig({ mqtt: { clientId: 'mine' } }))).toBe('mine');
  });
});
