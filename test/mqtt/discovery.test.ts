import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { BrokerAccess } from '../../src/mqtt/brokerAccess.js';
import { allDiscoveryMessages, discoveryIdProblems, discoveryTopicFilters, isOurDiscoveryConfig } from '../../src/mqtt/discovery.js';
import { haDiscoveryViolations } from '../helpers/haRules.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { FakeClock, RecordingClient, mqttTempDir, startMqttDaemon, testMqttConfig, waitUntil, type RunningDaemon } from '../helpers/mqttHarness.js';
import { payloadLines } from '../helpers/mqttPayloads.js';

const station = (id: string): StationConfig => ({ id, name: `Station ${id}`, format: 'rtl_433', topic: 'rtl_433/+/events', match: { model: 'Fineoffset-WH65B', id: 65 } });
const discovery = (stations: StationConfig[], supportUrl?: string) =>
  allDiscoveryMessages({ prefix: 'homeassistant', baseTopic: 'mowability', softwareVersion: '1.2.3', supportUrl, stations });

describe('Home Assistant discovery configs', () => {
  it("follow Home Assistant's rules for every entity of the bridge and of stations with any allowed id", () => {
    const messages = discovery([station('garden'), station('Back-Yard'), station('WH65B-2_x')], 'https://example.org/mowability');
    expect(messages.length).toBeGreaterThan(40);
    for (const message of messages) expect(haDiscoveryViolations(message.topic, message.payload)).toEqual([]);
    const entityIds = messages.map((message) => message.payload.default_entity_id);
    expect(new Set(entityIds).size).toBe(entityIds.length);
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
  });

  it('lower-cases the entity ids of "Back-Yard" but keeps its unique ids, topics and owned filters', () => {
    const messages = discovery([station('Back-Yard')]);
    const index = messages.find((message) => message.payload.unique_id === 'mowability_Back-Yard_index')!;
    expect(index.topic).toBe('homeassistant/sensor/mowability_Back-Yard_index/config');
    expect(index.payload).toMatchObject({ default_entity_id: 'sensor.mowability_back_yard_index', object_id: 'mowability_back_yard_index', state_topic: 'mowability/Back-Yard/state' });
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
      expect.stringMatching(/^station "Back-Yard" and station "back_yard" would both get the Home Assistant entity id "sensor.mowability_back_yard_index"/),
    ]);
    expect(discoveryIdProblems('homeassistant', 'mowability', [station('Back-Yard'), station('garden')])).toEqual([]);
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
    writeFileSync(file, JSON.stringify({ stations: [station('Back-Yard'), station('back-yard')], homeassistant: { discovery: discoveryOn } }));
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
    expect((error as ConfigError).problems).toEqual([expect.stringContaining('station "Back-Yard" and station "back-yard" would both get')]);
  });

  it('is accepted without discovery (MQTT topics are case-sensitive)', () => {
    expect(load(false)).toMatchObject({ stations: [{ id: 'Back-Yard' }, { id: 'back-yard' }] });
  });
});
