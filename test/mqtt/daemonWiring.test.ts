/**
 * `npm start` gives a complete system: the configuration (file + env) loads
 * the MQTT keys and stations, and the composition root starts the embedded
 * broker and the bridge next to HTTP.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { createLogger } from '../../src/util/logger.js';
import { RecordingClient, mqttTempDir, waitUntil } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';

describe('daemon wiring', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  let daemon: RunningDaemon | undefined;
  let client: RecordingClient | undefined;
  afterEach(async () => {
    await client?.close();
    await daemon?.stop();
    client = daemon = undefined;
    temp.cleanup();
  });

  function writeConfig(content: unknown): string {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify(content));
    return file;
  }

  it('starts the embedded broker and the bridge from a config file, and publishes station states', async () => {
    const file = writeConfig({
      stations: [{ id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B' } }],
    });
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_PORT: '0' };
    const config = loadConfig({ argv: ['--config', file], env });
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    daemon = await startDaemon({ config, logger: createLogger({ level: 'info', destination: sink }) });
    const listening = lines.find((line) => line.msg === 'embedded MQTT broker listening');
    expect(listening).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) });
    client = await RecordingClient.connect(listening!.port as number);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client!.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('rtl_433/pi/events', payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!, { qos: 1 });
    await waitUntil(() => client!.json('mowability/garden/state')?.station === 'garden', 'station state', 10_000);
    // The MQTT side shares the database with the HTTP API, which stays healthy.
    const health = await fetch(`${daemon.httpAddress}/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { status: string; mfi: { checks: { database: { status: string } } } };
    expect(body.status).toBe('ok');
    expect(body.mfi.checks.database.status).toBe('ok');
  });

  it('rejects invalid stations with messages naming the station and the key', () => {
    const file = writeConfig({ stations: [{ id: 'garden', name: 'Garden', format: 'rtl433', topic: 'rtl_433/+/events' }] });
    let error: unknown;
    try {
      loadConfig({ argv: ['--config', file], env: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('stations[0] ("garden").format must be one of rtl_433, ecowitt2mqtt, weewx, json, fields');
  });
});
