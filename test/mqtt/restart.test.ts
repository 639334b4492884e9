import { describe, expect } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { publishOnce, retainedMessage, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events', match: { id: 65 } };
const WH65B = JSON.parse(payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!) as Record<string, unknown>;

// A daemon stopped and started again on its file: 2.3 s on a quiet machine.
describe('restart', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('keeps the history, the rain counter baseline and retained station data across stop/start on the same file', async ({ mqtt }) => {
    const { clock } = mqtt;
    const config = testMqttConfig({ stations: [garden], history: { flushIntervalSeconds: 60 } });
    let daemon = await mqtt.start(config);
    let client = await mqtt.connect(daemon.port);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await client.client.publishAsync('weather/garden/raw', 'kept across restarts', { qos: 1, retain: true });
    // Another tool's discovery config on our broker is user data too.
    await client.client.publishAsync('homeassistant/sensor/rtl433_wh65b_t/config', '{"name":"WH65B temperature"}', {
      qos: 1,
      retain: true,
    });

    // 70 minutes of readings; the counter rises by 0.3 mm in minute 50.
    let total = 1125.9;
    for (let minute = 0; minute < 70; minute++) {
      if (minute === 50) total += 0.3;
      await client.client.publishAsync('rtl_433/pi/events', JSON.stringify({ ...WH65B, rain_mm: total }), { qos: 1 });
      await waitUntil(() => daemon.service.stats().accepted === minute + 1, `reading ${minute}`);
      clock.advance(60_000);
    }
    clock.advance(-60_000);
    await waitUntil(() => client.json('mowability/garden/state')?.last_reading_at === new Date(clock.now()).toISOString(), 'last state');
    const before = client.json('mowability/garden/state')!;
    expect(before.input).toMatchObject({ rain_1h: 0.3, minutes_since_rain: 19, precipitation_rate: 0 });
    expect(daemon.service.stats().historyCommits).toBe(0); // flush interval not reached: SIGTERM must not lose it
    await client.close();
    await daemon.stop();

    daemon = await mqtt.start(config);
    client = await mqtt.connect(daemon.port);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client.json('mowability/garden/state') !== undefined, 'state after restart');
    const after = client.json('mowability/garden/state')!;
    expect(after.input).toEqual(before.input);
    expect(after.withheld_fields).toEqual(before.withheld_fields);
    expect(after.last_reading_at).toBe(before.last_reading_at);
    expect(await retainedMessage(daemon.port, 'weather/garden/raw')).toBe('kept across restarts');
    expect(await retainedMessage(daemon.port, 'homeassistant/sensor/rtl433_wh65b_t/config')).toBe('{"name":"WH65B temperature"}');
    expect(await retainedMessage(daemon.port, 'mowability/bridge/state')).toBe('online');

    // The counter baseline survived: the next reading adds only its own increment.
    clock.advance(60_000);
    await publishOnce(daemon.port, 'rtl_433/pi/events', JSON.stringify({ ...WH65B, rain_mm: total + 0.2 }), { qos: 1 });
    await waitUntil(
      () => (client.json('mowability/garden/state')?.input as { rain_1h?: number })?.rain_1h === 0.5,
      'rain_1h after restart',
    );
  });
});
