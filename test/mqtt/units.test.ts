import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reconnectDelayMs } from '../../src/mqtt/client.js';
import { discoveryMessages } from '../../src/homeassistant/discovery.js';
import { INITIAL_MOWABLE, nextMowable, type MowableState } from '../../src/station/mowable.js';
import { crossKeyProblems } from '../../src/config/crossKeyRules.js';
import { validateTopicPrefix } from '../../src/config/mqttValues.js';
import { topicMatches } from '../../src/mqtt/topics.js';
import { testMqttConfig } from '../helpers/mqttHarness.js';

const settings = { onThreshold: 70, offThreshold: 60, onDelayMs: 15 * 60_000 };
const MIN = 60_000;

describe('mowable hysteresis', () => {
  it('turns on only after the index stayed at or above the on-threshold for the delay', () => {
    let state: MowableState = INITIAL_MOWABLE;
    state = nextMowable(state, 80, 'OK', 0, settings);
    expect(state.mowable).toBe(false);
    state = nextMowable(state, 75, 'OK', 14 * MIN, settings);
    expect(state.mowable).toBe(false);
    state = nextMowable(state, 72, 'OK', 15 * MIN, settings);
    expect(state.mowable).toBe(true);
    // Between the thresholds it stays on.
    state = nextMowable(state, 65, 'WARNING', 20 * MIN, settings);
    expect(state.mowable).toBe(true);
    // Below the off-threshold it goes off at once.
    state = nextMowable(state, 59, 'WARNING', 21 * MIN, settings);
    expect(state).toEqual({ mowable: false, aboveSinceMs: null });
  });

  it('restarts the on-timer when the index dips between the thresholds', () => {
    let state = nextMowable(INITIAL_MOWABLE, 80, 'OK', 0, settings);
    state = nextMowable(state, 65, 'WARNING', 10 * MIN, settings);
    state = nextMowable(state, 80, 'OK', 11 * MIN, settings);
    state = nextMowable(state, 80, 'OK', 20 * MIN, settings);
    expect(state.mowable).toBe(false);
    expect(nextMowable(state, 80, 'OK', 26 * MIN, settings).mowable).toBe(true);
  });

  it('goes off at once on BLOCK or without a result, whatever the history', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.option(fc.nat(), { nil: null }), fc.integer({ min: 0, max: 100 }), (mowable, aboveSinceMs, score) => {
        const previous = { mowable, aboveSinceMs };
        expect(nextMowable(previous, score, 'BLOCK', 1e9, settings).mowable).toBe(false);
        expect(nextMowable(previous, null, null, 1e9, settings).mowable).toBe(false);
      }),
    );
  });
});

describe('Home Assistant discovery', () => {
  const messages = discoveryMessages({
    prefix: 'ha',
    baseTopic: 'home/mow',
    softwareVersion: '1.2.3',
    stationId: 'garden',
    stationName: 'Garden',
  });
  const VALID_UNITS: Record<string, string[]> = {
    temperature: ['°C', '°F', 'K'],
    precipitation: ['cm', 'in', 'mm'],
    duration: ['s', 'min', 'h', 'd'],
  };

  it('uses only units Home Assistant accepts for each device class', () => {
    for (const { payload } of messages) {
      const deviceClass = payload.device_class as string | undefined;
      if (deviceClass && VALID_UNITS[deviceClass]) expect(VALID_UNITS[deviceClass]).toContain(payload.unit_of_measurement);
      if (deviceClass === 'enum') {
        expect(payload.unit_of_measurement).toBeUndefined();
        expect(Array.isArray(payload.options)).toBe(true);
      }
    }
  });

  it('gives unique ids that include the base topic, one device, and availability on bridge AND station', () => {
    const ids = messages.map((m) => m.payload.unique_id as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { topic, payload } of messages) {
      expect(payload.unique_id).toMatch(/^home_mow_garden_/);
      expect(topic).toBe(`ha/${topic.split('/')[1]}/${String(payload.unique_id)}/config`);
      expect(topic).not.toMatch(/[+#]/);
      expect(payload.device).toEqual(messages[0]!.payload.device);
      expect(payload.availability_mode).toBe('all');
      // A timestamp sensor adds its own state topic (unavailable while the time is unknown: src/homeassistant/timestampSensors.ts).
      const availability = payload.availability as Array<{ topic: string }>;
      expect(availability.slice(0, 2)).toEqual([{ topic: 'home/mow/bridge/state' }, { topic: 'home/mow/garden/availability' }]);
      expect(availability.slice(2).map((entry) => entry.topic)).toEqual(
        payload.device_class === 'timestamp' ? ['home/mow/garden/state'] : [],
      );
      expect(payload.origin).toEqual({ name: 'mowability', sw_version: '1.2.3' });
      expect(payload.state_topic).toBe('home/mow/garden/state');
    }
    expect(messages.map((m) => m.topic.split('/')[1])).toContain('binary_sensor');
  });
});

describe('MQTT configuration rules', () => {
  it('refuses a non-loopback broker without users, like Mosquitto 2', () => {
    expect(crossKeyProblems(testMqttConfig({ broker: { host: '0.0.0.0' } }))[0]).toMatch(
      /"broker.host" = "0.0.0.0" listens beyond this machine/,
    );
    expect(crossKeyProblems(testMqttConfig({ broker: { host: '::1' } }))).toEqual([]);
    expect(
      crossKeyProblems(testMqttConfig({ broker: { host: '0.0.0.0', users: [{ username: 'rtl', password: 'long enough' }] } })),
    ).toEqual([]);
  });

  it('refuses a discovery prefix equal to (or overlapping) the base topic', () => {
    expect(crossKeyProblems(testMqttConfig({ homeassistant: { prefix: 'mowability' } }))[0]).toMatch(/must differ from "mqtt.baseTopic"/);
    expect(crossKeyProblems(testMqttConfig({ homeassistant: { prefix: 'mowability', discovery: false } }))).toEqual([]);
  });

  it('refuses inverted thresholds, a bad URL, a lone client key, and station topics under our base topic', () => {
    const problems = crossKeyProblems(
      testMqttConfig({
        station: { mowableOnThreshold: 50, mowableOffThreshold: 60 },
        mqtt: { url: 'http://x', key: '/k.pem' },
        stations: [{ id: 's', name: 'S', format: 'fields', topic: 'mowability/+' }],
      }),
    );
    expect(problems).toHaveLength(4);
  });

  it('validates topic prefixes and matches wildcards', () => {
    expect(() => validateTopicPrefix('a/+/b')).toThrow(/wildcards/);
    expect(() => validateTopicPrefix('/a')).toThrow(/empty levels/);
    expect(() => validateTopicPrefix('mowability')).not.toThrow();
    expect(topicMatches('rtl_433/+/events', 'rtl_433/pi/events')).toBe(true);
    expect(topicMatches('rtl_433/+/events', 'rtl_433/pi/events/x')).toBe(false);
    expect(topicMatches('garden/#', 'garden')).toBe(true);
    expect(topicMatches('#', '$SYS/x')).toBe(false);
  });
});

describe('reconnect back-off', () => {
  it('retries every second through a short outage, then doubles up to the cap', () => {
    const delays = Array.from({ length: 14 }, (_, i) => reconnectDelayMs(i + 1, 60_000));
    expect(delays).toEqual([1000, 1000, 1000, 1000, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
    expect(reconnectDelayMs(1, 500)).toBe(500);
  });
});
