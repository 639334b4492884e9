/**
 * The composition root wires the MQTT bridge's counters into GET /metrics:
 * a reading published to the embedded broker shows up in the scrape.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { createLogger } from '../../src/util/logger.js';
import { RecordingClient, mqttTempDir, waitUntil } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';

describe('daemon /metrics', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  let client: RecordingClient | undefined;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    await client?.close();
    await daemon?.stop();
    client = daemon = undefined;
    temp.cleanup();
  });

  async function scrape() {
    const response = await fetch(`${daemon!.httpAddress}/metrics`);
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  }

  it('reports the MQTT counters, the broker connection and process metrics', async () => {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ stations: [{ id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B' } }] }));
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_PORT: '0' };
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    daemon = await startDaemon({ config: loadConfig({ argv: ['--config', file], env }), logger: createLogger({ level: 'info', destination: sink }) });
    const port = lines.find((line) => line.msg === 'embedded MQTT broker listening')?.port as number;
    client = await RecordingClient.connect(port);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client!.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('rtl_433/pi/events', payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!, { qos: 1 });
    await waitUntil(async () => sampleValue(await scrape(), 'mowability_mqtt_station_messages_accepted_total') === 1, 'the reading counted', 10_000);

    const families = await scrape();
    expect(sampleValue(families, 'mowability_mqtt_station_messages_received_total')).toBe(1);
    expect(sampleValue(families, 'mowability_mqtt_connected')).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'received' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'accepted' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'rejected' })).toBe(0);
    // The daemon's own connection and this test's client.
    expect(sampleValue(families, 'mowability_broker_clients')).toBe(2);
    expect(families.get('process_cpu_seconds_total')?.type).toBe('counter');
    expect(sampleValue(families, 'mowability_http_requests_total', { route: '/metrics', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
  });
});
