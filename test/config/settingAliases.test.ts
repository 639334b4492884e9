/**
 * The station side's settings moved from `mqtt.*` to `station.*`; the old names (file keys and
 * environment variables) keep working, each reported once for the daemon's deprecation line.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadConfiguration } from '../../src/config/load.js';
import { listSettings } from '../../src/config/schema.js';
import { deprecationMessage, SETTING_ALIASES } from '../../src/config/settingAliases.js';
import { logDeprecatedSettings } from '../../src/daemon.js';
import { useConfigFile } from '../helpers/configFile.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

describe('renamed settings', () => {
  const configFile = useConfigFile();

  const loadedWithFile = (content: unknown, env: Record<string, string> = {}) =>
    loadConfiguration({ env: { MOWABILITY_CONFIG: configFile.write(content), ...env } });
  const withFile = (content: unknown, env: Record<string, string> = {}) => loadedWithFile(content, env).config;

  it('names the old keys and environment variables the docs promise, each moved to a station.* setting that exists', () => {
    expect(SETTING_ALIASES.map((alias) => [alias.from, alias.fromEnv])).toEqual([
      ['mqtt.recomputeDebounceMs', 'MOWABILITY_MQTT_RECOMPUTE_DEBOUNCE_MS'],
      ['mqtt.recomputeIntervalSeconds', 'MOWABILITY_MQTT_RECOMPUTE_INTERVAL_SECONDS'],
      ['mqtt.mowableOnThreshold', 'MOWABILITY_MQTT_MOWABLE_ON_THRESHOLD'],
      ['mqtt.mowableOffThreshold', 'MOWABILITY_MQTT_MOWABLE_OFF_THRESHOLD'],
      ['mqtt.mowableOnDelayMinutes', 'MOWABILITY_MQTT_MOWABLE_ON_DELAY_MINUTES'],
    ]);
    const keys = new Set(listSettings().map(({ key }) => key));
    for (const alias of SETTING_ALIASES) {
      expect(keys.has(alias.to)).toBe(true);
      expect(keys.has(alias.from)).toBe(false);
    }
  });

  it('reads an old key in the config file as its station.* key and reports it', () => {
    const { config, deprecated: uses } = loadedWithFile({
      mqtt: { recomputeDebounceMs: 250, baseTopic: 'lawn' },
      station: { mowableOnDelayMinutes: 5 },
    });
    expect(config.station.recomputeDebounceMs).toBe(250);
    expect(config.station.mowableOnDelayMinutes).toBe(5);
    expect(config.mqtt.baseTopic).toBe('lawn');
    expect(config.mqtt).not.toHaveProperty('recomputeDebounceMs');
    expect(uses.map((use) => [use.used, use.instead])).toEqual([['mqtt.recomputeDebounceMs', 'station.recomputeDebounceMs']]);
    expect(deprecationMessage(uses[0]!)).toContain('"mqtt.recomputeDebounceMs" is deprecated');
    expect(deprecationMessage(uses[0]!)).toContain('"station.recomputeDebounceMs"');
  });

  it('reads an old environment variable as the new one and reports both names', () => {
    const { config, deprecated } = loadConfiguration({
      env: { MOWABILITY_MQTT_MOWABLE_ON_THRESHOLD: '80', MOWABILITY_MQTT_MOWABLE_OFF_THRESHOLD: '75' },
    });
    expect(config.station.mowableOnThreshold).toBe(80);
    expect(config.station.mowableOffThreshold).toBe(75);
    expect(deprecated.map((use) => [use.used, use.instead])).toEqual([
      ['MOWABILITY_MQTT_MOWABLE_ON_THRESHOLD', 'MOWABILITY_STATION_MOWABLE_ON_THRESHOLD'],
      ['MOWABILITY_MQTT_MOWABLE_OFF_THRESHOLD', 'MOWABILITY_STATION_MOWABLE_OFF_THRESHOLD'],
    ]);
  });

  it('checks an old name like the new one: an invalid value and the cross-key rules name the station.* key', () => {
    expect(() => loadConfig({ env: { MOWABILITY_MQTT_MOWABLE_ON_THRESHOLD: '50', MOWABILITY_MQTT_MOWABLE_OFF_THRESHOLD: '60' } })).toThrow(
      /"station.mowableOffThreshold" \(60\) must not be above "station.mowableOnThreshold" \(50\)/,
    );
    expect(() => withFile({ mqtt: { recomputeIntervalSeconds: 0 } })).toThrow(/"station.recomputeIntervalSeconds" = 0 is invalid/);
  });

  it('refuses the old and the new name together, in the file and in the environment', () => {
    expect(() => withFile({ mqtt: { recomputeDebounceMs: 250 }, station: { recomputeDebounceMs: 100 } })).toThrow(ConfigError);
    expect(() => withFile({ mqtt: { recomputeDebounceMs: 250 }, station: { recomputeDebounceMs: 100 } })).toThrow(
      /remove "mqtt.recomputeDebounceMs"/,
    );
    expect(() =>
      loadConfig({ env: { MOWABILITY_MQTT_RECOMPUTE_DEBOUNCE_MS: '1', MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '2' } }),
    ).toThrow(/remove MOWABILITY_MQTT_RECOMPUTE_DEBOUNCE_MS/);
  });

  it('reports nothing for a configuration in the new names', () => {
    const { config, deprecated } = loadedWithFile(
      { station: { recomputeDebounceMs: 10 } },
      { MOWABILITY_STATION_MOWABLE_ON_DELAY_MINUTES: '3' },
    );
    expect(config.station.mowableOnDelayMinutes).toBe(3);
    expect(deprecated).toEqual([]);
  });

  it('the daemon logs one warning line per old name, naming the old and the new one', () => {
    const { deprecated } = loadedWithFile({ mqtt: { mowableOnDelayMinutes: 0 } }, { MOWABILITY_MQTT_RECOMPUTE_INTERVAL_SECONDS: '30' });
    const log = captureLogger('info');
    logDeprecatedSettings(deprecated, log.logger);
    const lines = log.lines().filter((line) => line.level === 40);
    expect(lines.map((line) => line.msg)).toEqual([
      expect.stringMatching(/"MOWABILITY_MQTT_RECOMPUTE_INTERVAL_SECONDS" is deprecated.*"MOWABILITY_STATION_RECOMPUTE_INTERVAL_SECONDS"/),
      expect.stringMatching(/"mqtt.mowableOnDelayMinutes" is deprecated.*"station.mowableOnDelayMinutes"/),
    ]);
    expect(lines[0]).toMatchObject({
      setting: 'MOWABILITY_MQTT_RECOMPUTE_INTERVAL_SECONDS',
      instead: 'MOWABILITY_STATION_RECOMPUTE_INTERVAL_SECONDS',
    });
  });
});

describe('station.maxPayloadBytes', () => {
  it('follows broker.maxPayloadBytes when 0 (the default), so an older configuration keeps its limit', () => {
    expect(loadConfig({ env: {} }).station.maxPayloadBytes).toBe(65536);
    expect(loadConfig({ env: { MOWABILITY_BROKER_MAX_PAYLOAD_BYTES: '2048' } }).station.maxPayloadBytes).toBe(2048);
    expect(
      loadConfig({ env: { MOWABILITY_BROKER_MAX_PAYLOAD_BYTES: '2048', MOWABILITY_STATION_MAX_PAYLOAD_BYTES: '512' } }).station
        .maxPayloadBytes,
    ).toBe(512);
  });
});
