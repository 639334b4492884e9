/**
 * The composition root wires the MQTT bridge's counters into GET /metrics:
 * a reading published to the embedded broker shows up in the scrape.
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';

describe('daemon /metrics', () => {
  async function scrape(httpAddress: string) {
    const response = await fetch(`${httpAddress}/metrics`);
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  }

  it('reports the MQTT counters, the broker connection and process metrics', async ({ mqtt }) => {
    const daemon = await mqtt.serve({
      stations: [{ id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B' } }],
    });
    const client = await mqtt.connect(daemon.brokerPort!);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client.text('mowability/bridge/state') === 'online', 'bridge online');
    await client.client.publishAsync('rtl_433/pi/events', payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!, {
      qos: 1,
    });
    await waitUntil(
      async () => sampleValue(await scrape(daemon.httpAddress), 'mowability_mqtt_station_messages_accepted_total') === 1,
      'the reading counted',
      10_000,
    );

    const families = await scrape(daemon.httpAddress);
    expect(sampleValue(families, 'mowability_mqtt_station_messages_received_total')).toBe(1);
    expect(sampleValue(families, 'mowability_mqtt_connected')).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'received' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'accepted' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_messages_total', { station: 'garden', outcome: 'rejected' })).toBe(0);
    // This test's client only: the daemon uses its broker in process, without a connection.
    expect(sampleValue(families, 'mowability_broker_clients')).toBe(1);
    expect(families.get('process_cpu_seconds_total')?.type).toBe('counter');
    expect(
      sampleValue(families, 'mowability_http_requests_total', { route: '/metrics', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });
});
