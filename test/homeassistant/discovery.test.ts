import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { BrokerAccess } from '../../src/mqtt/brokerAccess.js';
import {
  allDiscoveryMessages,
  discoveryIdProblems,
  discoveryTopicFilters,
  isOurDiscoveryConfig,
  entityIdCollisions,
  entitySlug,
  HA_ENTITY_ID_PATTERN,
} from '../../src/homeassistant/discovery.js';
import { UNKNOWN_TIMESTAMP } from '../../src/homeassistant/timestampSensors.js';
import { forecastEntities } from '../../src/forecast/forecastEntities.js';
import { lawnEntities, mowedNowButton } from '../../src/lawn/lawnEntities.js';
import { controlEntities } from '../../src/station/controlEntities.js';
import { mowerControlEntities } from '../../src/mower/mowerEntities.js';
import { haDiscoveryViolations, haStateViolation } from '../helpers/haRules.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { testMqttConfig, waitUntil, type RecordingClient } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';

const station = (id: string): StationConfig => ({
  id,
  name: `Station ${id}`,
  format: 'rtl_433',
  topic: 'rtl_433/+/events',
  match: { model: 'Fineoffset-WH65B', id: 65 },
});
const discovery = (stations: StationConfig[], supportUrl?: string) =>
  allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '1.2.3', supportUrl, stations });

describe('Home Assistant discovery configs', () => {
  it("follow Home Assistant's rules for every entity of the bridge and of stations with any allowed id", () => {
    const messages = discovery([station('garden'), station('Back-Yard'), station('WH65B-2_x')], 'https://example.org/mowability');
    expect(messages.length).toBeGreaterThan(40);
    for (const message of messages) expect(haDiscoveryViolations(message.topic, message.payload)).toEqual([]);
    for (const message of messages)
      expect(message.payload.origin).toEqual({ name: 'mowability', sw_version: '1.2.3', support_url: 'https://example.org/mowability' });
    expect(discovery([station('garden')])[0]!.payload.origin).toEqual({ name: 'mowability', sw_version: '1.2.3' });
    const entityIds = messages.map((message) => message.payload.default_entity_id);
    expect(new Set(entityIds).size).toBe(entityIds.length);
  });

  it('link every device to its page of the status page when homeassistant.configurationUrl is set, and not otherwise', () => {
    const linked = allDiscoveryMessages({
      prefix: 'homeassistant',
      baseTopic: 'mowability',
      softwareVersion: '1.2.3',
      configurationUrl: 'http://pi.local:8080',
      stations: [station('Back-Yard')],
    });
    const devices = new Map(
      linked.map((message) => [message.owner ?? 'bridge', (message.payload.device as Record<string, unknown>).configuration_url]),
    );
    expect(Object.fromEntries(devices)).toEqual({
      bridge: 'http://pi.local:8080/',
      'Back-Yard': 'http://pi.local:8080/stations/Back-Yard',
    });
    for (const message of linked) expect(haDiscoveryViolations(message.topic, message.payload)).toEqual([]);
    for (const message of discovery([station('garden')])) expect(message.payload.device).not.toHaveProperty('configuration_url');
  });

  it('refuses a configuration URL that is not http(s) or carries credentials', () => {
    expect(() => loadConfig({ env: { MOWABILITY_HOMEASSISTANT_CONFIGURATION_URL: 'ftp://pi.local/' } })).toThrow(
      /homeassistant.configurationUrl.*http/,
    );
    expect(() => loadConfig({ env: { MOWABILITY_HOMEASSISTANT_CONFIGURATION_URL: 'http://admin:secret@pi.local/' } })).toThrow(
      /credentials/,
    );
    expect(
      loadConfig({ env: { MOWABILITY_HOMEASSISTANT_CONFIGURATION_URL: 'http://pi.local:8080/' } }).homeassistant.configurationUrl,
    ).toBe('http://pi.local:8080/');
  });

  it('the validator refuses what Home Assistant refuses', () => {
    const [index] = discovery([station('garden')]).filter((message) => message.topic.endsWith('_garden_index/config'));
    const bad = { ...index!.payload, default_entity_id: 'sensor.mowability_Back-Yard_index', object_id: 'mowability_Back-Yard_index' };
    expect(haDiscoveryViolations(index!.topic, bad)).toHaveLength(2);
    expect(haDiscoveryViolations(index!.topic, { ...index!.payload, device_class: 'humidity', unit_of_measurement: 'mm' })).toHaveLength(1);
    expect(haDiscoveryViolations(index!.topic, { ...index!.payload, device_class: 'enum', options: ['a'] })).toEqual([
      expect.stringContaining('must not have a unit'),
      expect.stringContaining('state_class measurement is not valid for device_class enum'),
    ]);
    const [number] = allDiscoveryMessages({
      prefix: 'homeassistant',
      baseTopic: 'mowability',
      softwareVersion: '1',
      stations: [station('garden')],
      extraEntities: (id) => controlEntities('mowability', id),
    }).filter((message) => message.topic.endsWith('_garden_mowable_on_delay_minutes/config'));
    expect(haDiscoveryViolations(number!.topic, number!.payload)).toEqual([]);
    const { command_topic: _command, ...withoutCommand } = number!.payload;
    expect(haDiscoveryViolations(number!.topic, withoutCommand)).toEqual([expect.stringContaining('number without command_topic')]);
    expect(haDiscoveryViolations(number!.topic, { ...number!.payload, min: 10, max: 5, unit_of_measurement: '%' })).toHaveLength(2);
  });

  it('lower-cases the entity ids of "Back-Yard" but keeps its unique ids, topics and owned filters', () => {
    const messages = discovery([station('Back-Yard')]);
    const index = messages.find((message) => message.payload.unique_id === 'mowability_Back-Yard_index')!;
    expect(index.topic).toBe('homeassistant/sensor/mowability_Back-Yard_index/config');
    expect(index.payload).toMatchObject({
      default_entity_id: 'sensor.mowability_back_yard_index',
      object_id: 'mowability_back_yard_index',
      state_topic: 'mowability/Back-Yard/state',
    });
    const filters = discoveryTopicFilters('homeassistant', 'mowability', [station('Back-Yard')]);
    const access = new BrokerAccess({ users: [], ownedTopics: ['mowability/#', ...filters], sysTopicsForAccounts: false });
    for (const message of messages) {
      expect(access.isOwnedTopic(message.topic)).toBe(true);
      // The stale-config sweep recognises every one of them, the bridge's connection entity included.
      expect(isOurDiscoveryConfig(JSON.stringify(message.payload), 'mowability')).toBe(true);
    }
    expect(isOurDiscoveryConfig(JSON.stringify(index.payload), 'other')).toBe(false);
  });

  it('finds stations whose ids give the same entity id', () => {
    expect(discoveryIdProblems('homeassistant', 'mowability', [station('Back-Yard'), station('garden'), station('back_yard')])).toEqual([
      expect.stringMatching(
        /^station "Back-Yard" and station "back_yard" would both get the Home Assistant entity id "sensor.mowability_back_yard_index"/,
      ),
    ]);
    expect(discoveryIdProblems('homeassistant', 'mowability', [station('Back-Yard'), station('garden')])).toEqual([]);
  });
});

describe('discovery with the lawn and forecast entities', () => {
  it("gives every entity, the units' included, the origin block and Home Assistant's rules", () => {
    const messages = allDiscoveryMessages({
      prefix: 'homeassistant',
      baseTopic: 'mowability',
      softwareVersion: '1.2.3',
      supportUrl: 'https://example.org/m',
      stations: [station('garden')],
      extraEntities: (id) => [
        ...lawnEntities(),
        mowedNowButton('mowability', id),
        ...forecastEntities(),
        ...controlEntities('mowability', id),
        ...mowerControlEntities('mowability', id),
      ],
    });
    expect(messages.map((message) => message.payload.object_id)).toEqual(
      expect.arrayContaining([
        'mowability_garden_last_cut',
        'mowability_garden_mowable_for',
        'mowability_bridge_version',
        'mowability_garden_mowed_now',
        'mowability_garden_mowable_on_threshold',
        'mowability_garden_mowable_off_threshold',
        'mowability_garden_mowable_on_delay_minutes',
        'mowability_garden_mower_class',
        'mowability_garden_automatic_mowing',
      ]),
    );
    const byKey = new Map(messages.map((message) => [String(message.payload.object_id), message]));
    // Per-component discovery (one config topic per entity), which every HA since 2024.1 reads.
    expect(byKey.get('mowability_garden_mower_class')!.topic).toBe('homeassistant/select/mowability_garden_mower_class/config');
    expect(byKey.get('mowability_garden_mowable_on_delay_minutes')!.topic).toBe(
      'homeassistant/number/mowability_garden_mowable_on_delay_minutes/config',
    );
    expect(byKey.get('mowability_garden_mowed_now')!.payload).toMatchObject({
      command_topic: 'mowability/garden/control/mowed_now',
      payload_press: 'PRESS',
    });
    expect(byKey.get('mowability_garden_mowed_now')!.payload).not.toHaveProperty('state_topic');
    for (const key of ['mowable_on_threshold', 'mowable_off_threshold', 'mowable_on_delay_minutes', 'mower_class'])
      expect(byKey.get(`mowability_garden_${key}`)!.payload, key).toMatchObject({
        entity_category: 'config',
        command_topic: `mowability/garden/control/${key}/set`,
        state_topic: 'mowability/garden/state',
      });
    for (const message of messages) {
      expect(message.payload.origin, message.topic).toEqual({
        name: 'mowability',
        sw_version: '1.2.3',
        support_url: 'https://example.org/m',
      });
      expect(haDiscoveryViolations(message.topic, message.payload)).toEqual([]);
    }
  });
});

describe('timestamp sensors', () => {
  const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const messages = allDiscoveryMessages({
    prefix: 'homeassistant',
    baseTopic: 'mowability',
    softwareVersion: '1.2.3',
    stations: [station('garden')],
    extraEntities: () => [...lawnEntities(), ...forecastEntities()],
  });
  const timestamps = messages.filter((message) => message.payload.device_class === 'timestamp');
  const at = '2026-06-15T08:00:00.000Z';
  // States with and without each value: no lawn/forecast object, null values, and known ones.
  const states: Array<Record<string, unknown>> = [
    { main_status: 'NO_DATA' },
    { last_reading_at: null, lawn: { last_cut_at: null }, forecast: { next_window: null } },
    { last_reading_at: at, lawn: { last_cut_at: at }, forecast: { next_window: { start: at, end: at } } },
  ];

  it('render a valid ISO time with offset, or make the entity unavailable (Home Assistant before 2024.10 logs anything else)', () => {
    expect(timestamps.map((message) => message.payload.object_id)).toEqual(
      expect.arrayContaining([
        'mowability_garden_last_reading',
        'mowability_garden_last_cut',
        'mowability_garden_next_window_start',
        'mowability_garden_next_window_end',
      ]),
    );
    for (const { payload } of timestamps) {
      const availability = payload.availability as Array<{ topic: string; value_template?: string }>;
      const own = availability.filter((entry) => entry.topic === payload.state_topic && entry.value_template !== undefined);
      expect(own, String(payload.object_id)).toHaveLength(1);
      expect(payload.availability_mode).toBe('all');
      for (const state of states) {
        const value = renderHaTemplate(String(payload.value_template), state);
        const available = renderHaTemplate(own[0]!.value_template!, state);
        expect(value, `${String(payload.object_id)} for ${JSON.stringify(state)}`).toMatch(ISO_WITH_OFFSET);
        expect(['online', 'offline']).toContain(available);
        // A known value is shown as it is; only an unavailable entity carries the placeholder.
        if (available === 'online') expect(value).toBe(at);
        else expect(value).toBe(UNKNOWN_TIMESTAMP);
      }
    }
    const lastCut = timestamps.find((message) => message.payload.object_id === 'mowability_garden_last_cut')!;
    const own = (lastCut.payload.availability as Array<{ value_template?: string }>).at(-1)!.value_template!;
    expect(renderHaTemplate(own, states[2])).toBe('online');
    expect(renderHaTemplate(own, states[1])).toBe('offline');
  });
});

describe('a configuration with colliding entity ids', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.cleanup());

  function load(discoveryOn: boolean): unknown {
    const file = join(temp.dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ stations: [station('Back-Yard'), station('back-yard')], homeassistant: { discovery: discoveryOn } }),
    );
    return loadConfig({ env: {}, argv: ['--config', file] });
  }

  it('exits 78 naming both stations while discovery is on', () => {
    let error: unknown;
    try {
      load(true);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(78);
    expect((error as ConfigError).problems).toEqual([
      expect.stringContaining('station "Back-Yard" and station "back-yard" would both get'),
    ]);
  });

  it('is accepted without discovery (MQTT topics are case-sensitive)', () => {
    expect(load(false)).toMatchObject({ stations: [{ id: 'Back-Yard' }, { id: 'back-yard' }] });
  });
});

const WH65B = payloadLines('rtl433-json__rtl_433_tests__Fineoffset-WH65B_02-g001.jsonl')[0]!;

describe('discovery end to end through the embedded broker', () => {
  mqttTest('retains every config, and their templates resolve against the published state and stats', async ({ mqtt }) => {
    const recorder = async (filters: string[]): Promise<RecordingClient> => {
      const client = await mqtt.connect(daemon.port);
      if (filters.length > 0) await client.client.subscribeAsync(filters, { qos: 1 });
      return client;
    };
    const { clock } = mqtt;
    const backYard = station('Back-Yard');
    const daemon = await mqtt.start(testMqttConfig({ stations: [backYard] }));
    const sender = await recorder([]);
    const observer = await recorder(['mowability/#']);
    // Twenty minutes of readings, so the rain rate can be derived and the calculation runs.
    for (let minute = 0; minute <= 20; minute++) {
      await sender.client.publishAsync('rtl_433/pi/events', WH65B, { qos: 1 });
      await waitUntil(() => daemon.service.stats().accepted === minute + 1, `reading ${minute}`);
      clock.advance(60_000);
    }
    await waitUntil(() => typeof observer.json('mowability/Back-Yard/state')?.index_score === 'number', 'a computed state');
    // Home Assistant's birth message makes the daemon republish everything, the stats included.
    await sender.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
    await waitUntil(() => observer.json('mowability/bridge/stats')?.accepted === 21, 'stats after the readings');

    // A client connecting now sees only retained messages: every config must be among them.
    const expected = allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '', stations: [backYard] });
    const late = await recorder(['homeassistant/#']);
    await waitUntil(() => expected.every((message) => late.latest.has(message.topic)), 'every retained discovery config');
    const payloadOf: Record<string, unknown> = {
      'mowability/Back-Yard/state': observer.json('mowability/Back-Yard/state'),
      'mowability/bridge/stats': observer.json('mowability/bridge/stats'),
    };
    const state = payloadOf['mowability/Back-Yard/state'] as Record<string, any>;
    const stats = payloadOf['mowability/bridge/stats'] as Record<string, any>;
    const rendered = new Map<string, string>();
    for (const { topic } of expected) {
      expect(late.latest.get(topic)!.retain).toBe(true);
      const config = late.json(topic)!;
      expect(haDiscoveryViolations(topic, config)).toEqual([]);
      if (typeof config.value_template !== 'string') continue;
      rendered.set(String(config.default_entity_id), renderHaTemplate(config.value_template, payloadOf[String(config.state_topic)]));
    }

    const input = state.input as Record<string, number>;
    expect(input).toMatchObject({ temperature: 11.5, humidity: 64, precipitation_rate: 0 });
    const entity = (id: string): string | undefined => rendered.get(id);
    expect(entity('sensor.mowability_back_yard_index')).toBe(String(state.index_score));
    expect(entity('sensor.mowability_back_yard_status')).toBe(state.main_status);
    expect(entity('binary_sensor.mowability_back_yard_mowable')).toBe(state.mowable ? 'ON' : 'OFF');
    expect(entity('sensor.mowability_back_yard_temperature')).toBe('11.5');
    expect(entity('sensor.mowability_back_yard_humidity')).toBe('64');
    expect(entity('sensor.mowability_back_yard_wind_speed')).toBe(String(input.wind_speed));
    expect(entity('sensor.mowability_back_yard_wind_gusts')).toBe(String(input.wind_gusts));
    expect(entity('sensor.mowability_back_yard_precipitation_rate')).toBe('0');
    // Twenty minutes cannot cover the last hour: the field is withheld and the entity is unknown.
    expect(state.withheld_fields).toHaveProperty('rain_1h');
    expect(entity('sensor.mowability_back_yard_rain_1h')).toBe('None');
    expect(entity('sensor.mowability_back_yard_data_quality')).toBe(state.data_quality);
    expect(
      haStateViolation(late.json('homeassistant/sensor/mowability_Back-Yard_data_quality/config')!, String(state.data_quality)),
    ).toBeUndefined();
    expect(entity('sensor.mowability_back_yard_limiting_check')).toBe(state.score_basis.limiting_check ?? 'none');
    expect(entity('sensor.mowability_back_yard_soiltemp_score')).toBe(
      state.checks.soiltemp?.score == null ? 'None' : String(state.checks.soiltemp.score),
    );
    expect(entity('sensor.mowability_bridge_version')).toBe(stats.version);
    expect(typeof stats.version).toBe('string');
    expect(entity('sensor.mowability_bridge_readings_accepted')).toBe(String(stats.accepted));
    expect(entity('sensor.mowability_bridge_states_published')).toBe(String(stats.statesPublished));
    for (const [id, value] of rendered) expect(value, id).not.toMatch(/undefined|\[object/);

    const status = late.json('homeassistant/sensor/mowability_Back-Yard_status/config')!;
    expect(status.json_attributes_topic).toBe('mowability/Back-Yard/state');
    const attributes = JSON.parse(renderHaTemplate(String(status.json_attributes_template), state)) as Record<string, unknown>;
    expect(attributes).toEqual({
      withheld_fields: state.withheld_fields,
      derived_fields: ['precipitation_rate'],
      history_coverage: state.history_coverage,
      missing_fields: state.missing_fields,
      data_quality: state.data_quality,
      error: null,
      last_upload_refused: null,
    });
    const connection = late.json('homeassistant/binary_sensor/mowability_bridge_connection_state/config')!;
    expect(connection).toMatchObject({ state_topic: 'mowability/bridge/state', payload_on: 'online', device_class: 'connectivity' });
    expect(observer.text('mowability/bridge/state')).toBe(connection.payload_on);
  });
});

describe('Home Assistant ids from station ids', () => {
  it('lower-cases station ids and turns "-" into "_"', () => {
    expect(entitySlug('Back-Yard')).toBe('back_yard');
    expect(entitySlug('garden')).toBe('garden');
    expect(entitySlug('WH65B_2')).toBe('wh65b_2');
    expect(HA_ENTITY_ID_PATTERN.test(`sensor.mowability_${entitySlug('A-b-C_9')}_index`)).toBe(true);
  });

  it('names both owners when two would share an entity id or unique id', () => {
    const problems = entityIdCollisions([
      { owner: 'Back-Yard', uniqueId: 'm_Back-Yard_index', entityId: 'sensor.mowability_back_yard_index' },
      { owner: 'Back-Yard', uniqueId: 'm_Back-Yard_status', entityId: 'sensor.mowability_back_yard_status' },
      { owner: 'back_yard', uniqueId: 'm_back_yard_index', entityId: 'sensor.mowability_back_yard_index' },
      { owner: undefined, uniqueId: 'm_back_yard_status', entityId: 'sensor.x' },
      { owner: 'back_yard', uniqueId: 'm_back_yard_status', entityId: 'sensor.y' },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^station "Back-Yard" and station "back_yard" would both get the Home Assistant entity id "sensor.mowability_back_yard_index"/,
      ),
      expect.stringMatching(
        /^the bridge device and station "back_yard" would both get the Home Assistant entity unique id "m_back_yard_status"/,
      ),
    ]);
    expect(problems[0]).toContain('"stations[].id"');
  });

  it('finds nothing when every id is distinct', () => {
    expect(
      entityIdCollisions([
        { owner: 'a', uniqueId: 'u1', entityId: 'sensor.a' },
        { owner: 'b', uniqueId: 'u2', entityId: 'sensor.b' },
      ]),
    ).toEqual([]);
  });
});
