/**
 * `npm start` gives a complete system: the configuration (file + env) loads
 * the MQTT keys and stations, and the composition root starts the embedded
 * broker and the bridge next to HTTP.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';

describe('daemon wiring', () => {
  it('starts the embedded broker and the bridge from a config file, and publishes station states', async ({ mqtt }) => {
    const served = await mqtt.serve({
      stations: [{ id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B' } }],
    });
    const listening = served.log.lines().find((line) => line.msg === 'embedded MQTT broker listening');
    expect(listening).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) });
    const client = await mqtt.connect(served.brokerPort!);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('rtl_433/pi/events', payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!, {
      qos: 1,
    });
    await waitUntil(() => client.json('mowability/garden/state')?.station === 'garden', 'station state', 10_000);
    // The MQTT side shares the database with the HTTP API, which stays healthy.
    const health = await fetch(`${served.httpAddress}/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { status: string; mfi: { checks: { database: { status: string } } } };
    expect(body.status).toBe('ok');
    expect(body.mfi.checks.database.status).toBe('ok');
  });

  it('rejects invalid stations with messages naming the station and the key', ({ mqtt }) => {
    const file = join(mqtt.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ stations: [{ id: 'garden', name: 'Garden', format: 'rtl433', topic: 'rtl_433/+/events' }] }));
    let error: unknown;
    try {
      loadConfig({ argv: ['--config', file], env: {}, units: stationUnitConfigs() });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      'stations[0] ("garden").format must be one of rtl_433, ecowitt2mqtt, weewx, json, fields',
    );
  });
});
