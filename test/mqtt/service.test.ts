import { describe, expect } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { mqttTest as it, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import {
  FakeClock,
  RecordingClient,
  publishOnce,
  retainedMessage,
  testMqttConfig,
  waitUntil,
  type RunningDaemon,
} from '../helpers/mqttHarness.js';
import { payloadLines, payloadText } from '../helpers/mqttPayloads.js';

const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'rtl_433',
  topic: 'rtl_433/+/events',
  match: { model: 'Fineoffset-WH65B', id: 65 },
};
const davis: StationConfig = { id: 'davis', name: 'Davis', format: 'weewx', topic: 'weewx/loop' };
const WH65B = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!;
const NEIGHBOUR = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_03-g200.jsonl')[0]!;
const LOOP = payloadText('weewx-mqtt__kotori__vantagepro2_loop.json');

describe('MQTT daemon with the embedded broker', () => {
  // Set by start(); the fixture closes the clients and stops the daemons after each test.
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  let station: RecordingClient | undefined;
  let clock: FakeClock;

  async function start(mqtt: MqttDaemonFixture, stations: StationConfig[]): Promise<void> {
    clock = mqtt.clock;
    daemon = await mqtt.start(testMqttConfig({ stations }));
    observer = await mqtt.connect(daemon.port);
    await observer.client.subscribeAsync(['mowability/#', 'homeassistant/#'], { qos: 1 });
    station = await mqtt.connect(daemon.port);
  }

  it('turns rtl_433 events into a retained state, honestly reporting what is missing', async ({ mqtt }) => {
    await start(mqtt, [garden]);
    expect(daemon!.port).toBeGreaterThan(0);
    await waitUntil(() => observer!.text('mowability/bridge/state') === 'online', 'bridge online');
    await waitUntil(() => observer!.json('mowability/bridge/stats')?.connected === true, 'bridge stats');

    await station!.client.publishAsync('rtl_433/pi/events', NEIGHBOUR, { qos: 1 });
    await station!.client.publishAsync('rtl_433/pi/events', WH65B, { qos: 1 });
    await station!.client.publishAsync('rtl_433/pi/events', WH65B, { qos: 1 }); // repeated radio packet
    await waitUntil(() => daemon!.service.stats().received === 3, 'three events handled');
    await waitUntil(
      () => (observer!.json('mowability/garden/state')?.input as { temperature?: number } | undefined)?.temperature === 11.5,
      'first state',
    );
    const first = observer!.json('mowability/garden/state')!;
    expect(JSON.parse((await retainedMessage(daemon!.port, 'mowability/garden/state'))!)).toMatchObject({ station: 'garden' });
    // One counter reading is only a baseline: no rate yet, so the calculation cannot run.
    expect(first).toMatchObject({
      station: 'garden',
      mowable: false,
      index_score: null,
      error: { code: 'MISSING_REQUIRED_FIELDS', missing: ['precipitation_rate'] },
    });
    expect(daemon!.service.stats()).toMatchObject({ accepted: 1, duplicates: 1, ignored: 1, rejected: 0 });
    await waitUntil(() => observer!.text('mowability/garden/availability') === 'online', 'station online');

    // Twenty minutes of readings: the rain rate is derived from the counter's increments.
    for (let minute = 1; minute <= 20; minute++) {
      clock.advance(60_000);
      await station!.client.publishAsync('rtl_433/pi/events', WH65B, { qos: 1 });
      await waitUntil(() => daemon!.service.stats().accepted === minute + 1, `reading ${minute}`);
    }
    await waitUntil(
      () => observer!.json('mowability/garden/state')?.last_reading_at === new Date(clock.now()).toISOString(),
      'the last state',
    );
    const state = observer!.json('mowability/garden/state')!;
    expect(state).toMatchObject({
      station: 'garden',
      mfi_version: expect.any(String),
      main_status: expect.stringMatching(/^(OK|WARNING|BLOCK)$/),
      derived_fields: ['precipitation_rate'],
      input: { temperature: 11.5, humidity: 64, precipitation_rate: 0 },
    });
    expect(state.available_fields).toEqual(expect.arrayContaining(['temperature', 'precipitation_rate', 'humidity', 'wind_speed']));
    expect(state.last_reading_at).toBe(new Date(clock.now()).toISOString());
    expect(state.withheld_fields).toHaveProperty('rain_24h');
  });

  it('publishes Home Assistant discovery for every station, and again when HA comes online', async ({ mqtt }) => {
    await start(mqtt, [garden]);
    const indexTopic = 'homeassistant/sensor/mowability_garden_index/config';
    // The last config of a station's discovery, so the checks below do not race the rest of it.
    await waitUntil(() => observer!.latest.has('homeassistant/sensor/mowability_garden_last_reading/config'), 'discovery');
    const index = observer!.json(indexTopic)!;
    expect(await retainedMessage(daemon!.port, indexTopic)).toBe(observer!.text(indexTopic));
    expect(index).toMatchObject({
      unique_id: 'mowability_garden_index',
      state_topic: 'mowability/garden/state',
      unit_of_measurement: '%',
      availability_mode: 'all',
      availability: [{ topic: 'mowability/bridge/state' }, { topic: 'mowability/garden/availability' }],
      device: { identifiers: ['mowability_mowability_garden'] },
      origin: { name: 'mowability' },
    });
    const mowable = observer!.json('homeassistant/binary_sensor/mowability_garden_mowable/config')!;
    expect(mowable).toMatchObject({ payload_on: 'ON', payload_off: 'OFF', value_template: "{{ 'ON' if value_json.mowable else 'OFF' }}" });
    expect(observer!.json('homeassistant/sensor/mowability_garden_status/config')).toMatchObject({ device_class: 'enum' });
    expect(observer!.json('homeassistant/sensor/mowability_garden_rain_last_24h/config')).toMatchObject({
      device_class: 'precipitation',
      unit_of_measurement: 'mm',
    });
    expect(observer!.json('homeassistant/sensor/mowability_garden_minutes_since_rain/config')).toMatchObject({
      device_class: 'duration',
      unit_of_measurement: 'min',
    });
    expect(observer!.json('homeassistant/sensor/mowability_garden_min_temp_3h/config')).toMatchObject({
      device_class: 'temperature',
      unit_of_measurement: '°C',
    });
    for (const check of ['temperature', 'soiltemp', 'rain', 'wind', 'humidity']) {
      expect(observer!.latest.has(`homeassistant/sensor/mowability_garden_${check}_score/config`)).toBe(true);
    }

    const before = observer!.latest.get(indexTopic)!.count;
    const statesBefore = observer!.latest.get('mowability/garden/state')?.count ?? 0;
    await station!.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
    await waitUntil(() => observer!.latest.get(indexTopic)!.count > before, 'rediscovery after the HA birth message');
    await waitUntil(() => (observer!.latest.get('mowability/garden/state')?.count ?? 0) > statesBefore, 'states after rediscovery');
  });

  it('accepts WeeWX loop packets with a current dateTime and rejects ones older than 14 days', async ({ mqtt }) => {
    await start(mqtt, [davis]);
    await station!.client.publishAsync('weewx/loop', LOOP, { qos: 1 }); // dateTime 2017
    await waitUntil(() => daemon!.service.stats().rejected === 1, 'stale packet rejected');
    const packet = { ...JSON.parse(LOOP), dateTime: String(Math.floor(clock.now() / 1000) - 30) };
    await station!.client.publishAsync('weewx/loop', JSON.stringify(packet), { qos: 1 });
    await station!.client.publishAsync('weewx/loop', JSON.stringify(packet), { qos: 1 }); // QoS 1 redelivery
    await waitUntil(() => daemon!.service.stats().received === 3, 'all packets handled');
    await waitUntil(() => typeof observer!.json('mowability/davis/state')?.index_score === 'number', 'davis result');
    expect(observer!.json('mowability/davis/state')).toMatchObject({
      input: { temperature: expect.closeTo(3.556, 3), humidity: 90, precipitation_rate: 0 },
      last_reading_at: new Date(clock.now() - 30_000).toISOString(),
    });
    expect(daemon!.service.stats()).toMatchObject({ accepted: 1, duplicates: 1, rejected: 1 });
  });

  it('survives garbage without crashing and refuses oversized or spoofed publishes', async ({ mqtt }) => {
    await start(mqtt, [garden]);
    for (const bad of ['', '{', 'null', '\u0000\u0001', '{"model":"Fineoffset-WH65B","id":65,"temperature_C":"x"}', WH65B.slice(0, 50)]) {
      await station!.client.publishAsync('rtl_433/pi/events', bad, { qos: 1 });
    }
    await waitUntil(() => daemon!.service.stats().received === 6, 'garbage handled');
    expect(daemon!.service.stats()).toMatchObject({ accepted: 0, received: 6 });
    const stats = daemon!.service.stats();
    expect(stats.rejected + stats.ignored).toBe(6);

    // Each refusal closes the publisher's connection and is counted once (publishOnce waits for the broker).
    await observer!.client.subscribeAsync('rtl_433/#', { qos: 1 });
    const refused = () => daemon!.service.stats().brokerRejectedPublishes;
    expect(refused()).toBe(0);
    expect(await publishOnce(daemon!.port, 'rtl_433/pi/events', 'x'.repeat(70_000))).toBe('closed');
    expect(refused()).toBe(1);
    expect(await publishOnce(daemon!.port, 'mowability/garden/state', '{"mowable":true}', { retain: true })).toBe('closed');
    expect(refused()).toBe(2);
    // 22 levels, the limit is 16: refused (by aedes itself) and counted.
    const tooDeep = `rtl_433/${'a/'.repeat(20)}events`;
    expect(await publishOnce(daemon!.port, tooDeep, WH65B, { qos: 1 })).toBe('closed');
    await waitUntil(() => refused() === 3, 'the over-deep publish counted as refused');
    // 16 levels are fine and are delivered; the deeper one, published before, never was.
    const deepest = `rtl_433/${'a/'.repeat(14)}events`;
    expect(await publishOnce(daemon!.port, deepest, WH65B, { qos: 1 })).toBe('handled');
    await waitUntil(() => observer!.text(deepest) === WH65B, 'the 16-level publish delivered');
    expect(observer!.latest.has(tooDeep)).toBe(false);
    expect(observer!.latest.has('rtl_433/pi/events')).toBe(false);
    expect(observer!.json('mowability/garden/state')?.mowable).toBe(false);
    // Still alive and serving: a good reading goes through.
    await station!.client.publishAsync('rtl_433/pi/events', WH65B, { qos: 1 });
    await waitUntil(() => daemon!.service.stats().accepted === 1, 'good reading after garbage');
    expect(observer!.json('mowability/garden/state')?.mowable).toBe(false);
  });

  it('does not take a retained replay of unknown age for a new reading', async ({ mqtt }) => {
    const fields: StationConfig = { id: 'plain', name: 'Plain', format: 'fields', topic: 'plain/+' };
    await start(mqtt, [fields]);
    await station!.client.publishAsync('plain/temperature', '21.5', { qos: 1, retain: true });
    await waitUntil(() => daemon!.service.stats().accepted === 1, 'live reading accepted');
    await station!.close();
    await observer!.close();
    station = observer = undefined;
    await daemon!.stop();

    clock.advance(3_600_000);
    daemon = await mqtt.start(testMqttConfig({ stations: [fields] }));
    await waitUntil(() => daemon!.service.stats().ignored === 1, 'retained replay ignored');
    expect(daemon.service.stats().accepted).toBe(0);
    // The restored history still knows the value, and knows it is an hour old.
    expect(daemon.service.stationState('plain')?.withheld_fields).toMatchObject({ temperature: 'last value is 60 min old (limit 30 min)' });
  });

  it('handles a fast QoS 1 stream without losing the subscription', async ({ mqtt }) => {
    const diy: StationConfig = {
      id: 'diy',
      name: 'DIY',
      format: 'json',
      topic: 'diy/weather',
      fields: { temperature: 't', precipitation_rate: 'r' },
      timestampKey: 'ts',
    };
    await start(mqtt, [diy]);
    const total = 1500;
    const baseSeconds = Math.floor(clock.now() / 1000) - total;
    await Promise.all(
      Array.from({ length: total }, (_, i) =>
        station!.client.publishAsync('diy/weather', JSON.stringify({ t: 10 + (i % 50) / 10, r: 0, ts: baseSeconds + i }), { qos: 1 }),
      ),
    );
    await waitUntil(() => daemon!.service.stats().received === total, `${total} readings`, 15_000).catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(daemon!.service.stats())}`);
    });
    expect(daemon!.service.stats()).toMatchObject({ accepted: total, rejected: 0, connected: true });
  }, 30_000);

  // aedes 1.2 mishandles a QoS 1 message on a topic with an empty level ("plain/" for "plain/+") for
  // clean:false sessions ("no such packet", dropped connection, lost messages), which is why our
  // client uses a clean session on the embedded broker. The other levels are prototype-key hardening.
  it('keeps receiving after hostile topic levels: empty, __proto__, constructor', async ({ mqtt }) => {
    const plain: StationConfig = { id: 'plain', name: 'Plain', format: 'fields', topic: 'plain/+' };
    await start(mqtt, [plain]);
    for (const level of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', '']) {
      await station!.client.publishAsync(`plain/${level}`, '1', { qos: 1 });
    }
    for (let i = 0; i < 20; i++) await station!.client.publishAsync('plain/temperature', String(10 + i), { qos: 1 });
    await waitUntil(() => daemon!.service.stats().received === 25, 'all 25 messages').catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(daemon!.service.stats())}`);
    });
    expect(daemon!.service.stats()).toMatchObject({ ignored: 5, accepted: 20, connected: true });
  });
});
