/**
 * Rules that span several keys (convict validates one key at a time) and need nothing but the
 * configuration. loadConfig runs them, and the MQTT side again for a configuration built in code.
 */
import { discoveryIdProblems } from '../homeassistant/discovery.js';
import { isLoopbackHost } from '../util/loopback.js';
import { unitSliceOf } from '../ingest/types.js';
import type { AppConfig, MqttSideConfig, StationSideConfig } from './schema.js';
import { unitStationKeys, type UnitConfigSpec } from './unitSettings.js';

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** One client or network must not be able to fill the pending registrations (docs/api.md, "Registration"). */
function registrationProblems(registration: AppConfig['registration']): string[] {
  const { maxPending, maxPendingPerNetwork, maxPendingPerAddress } = registration;
  const problems: string[] = [];
  if (maxPendingPerNetwork >= maxPending) {
    problems.push(
      `"registration.maxPendingPerNetwork" (${maxPendingPerNetwork}) must be below "registration.maxPending" (${maxPending}), so one network cannot pause registration for everyone`,
    );
  }
  if (maxPendingPerAddress > maxPendingPerNetwork) {
    problems.push(
      `"registration.maxPendingPerAddress" (${maxPendingPerAddress}) must not be above "registration.maxPendingPerNetwork" (${maxPendingPerNetwork}): a client's addresses lie in its network`,
    );
  }
  return problems;
}

/** `homeassistant.commandAccount` must name an account of the embedded broker, and only there means something. */
function commandAccountProblems(config: MqttSideConfig, secretsOptional: boolean): string[] {
  const account = config.homeassistant.commandAccount;
  if (account === '') return [];
  if (config.mqtt.url !== '')
    return [
      `"homeassistant.commandAccount" = "${account}" names an account of the embedded broker, but "mqtt.url" points at an external broker, where the daemon cannot see who publishes: leave it empty and give only Home Assistant's user write access to the command topics in that broker's ACL (docs/mqtt.md, "Who may command")`,
    ];
  // The accounts are a secret the admin commands do not load.
  if (secretsOptional || config.broker.users.some((user) => user.username === account)) return [];
  return [
    `"homeassistant.commandAccount" = "${account}" names no account of "broker.users": add {"username": "${account}", "password": "..."} to broker.users (the login Home Assistant uses), or set it to one of the listed usernames, or leave it empty`,
  ];
}

/** Problems no single key can see; empty when the configuration is consistent. */
export function crossKeyProblems(
  config: MqttSideConfig & Pick<StationSideConfig, 'station'> & Partial<Pick<AppConfig, 'registration' | 'store' | 'http'>>,
  options: { secretsOptional?: boolean; units?: readonly UnitConfigSpec[] } = {},
): string[] {
  const problems: string[] = [...sharedStoreProblems(config)];
  // The accounts are a secret (a credential only the service gets); the admin commands never start the broker.
  if (!options.secretsOptional && config.broker.enabled && !isLoopbackHost(config.broker.host) && config.broker.users.length === 0) {
    problems.push(
      `"broker.host" = "${config.broker.host}" listens beyond this machine, so "broker.users" must list at least one username/password (MOWABILITY_BROKER_USERS='[{"username":"rtl433","password":"..."}]'), or use 127.0.0.1, or turn the embedded broker off (broker.enabled false)`,
    );
  }
  problems.push(...commandAccountProblems(config, options.secretsOptional === true));
  if (config.homeassistant.discovery && overlaps(config.homeassistant.prefix, config.mqtt.baseTopic)) {
    problems.push(
      `"homeassistant.prefix" = "${config.homeassistant.prefix}" must differ from "mqtt.baseTopic" = "${config.mqtt.baseTopic}" (and not contain it)`,
    );
  }
  if (config.station.mowableOffThreshold > config.station.mowableOnThreshold) {
    problems.push(
      `"station.mowableOffThreshold" (${config.station.mowableOffThreshold}) must not be above "station.mowableOnThreshold" (${config.station.mowableOnThreshold})`,
    );
  }
  if (config.mqtt.url !== '' && !/^(mqtts?|wss?):\/\/[^/]/.test(config.mqtt.url)) {
    problems.push(`"mqtt.url" must start with mqtt://, mqtts://, ws:// or wss:// followed by a host`);
  }
  // Each unit's rules across its own settings (the loader passes the whole configuration, holding their values).
  for (const unit of new Set(options.units ?? [])) {
    const values = unit.settings && (config as Readonly<Record<string, unknown>>)[unit.settings.key];
    if (unit.settings?.problems && typeof values === 'object' && values !== null)
      problems.push(...unit.settings.problems(values as Readonly<Record<string, unknown>>));
  }
  if (config.registration?.enabled) problems.push(...registrationProblems(config.registration));
  if (config.http) problems.push(...connectionReserveProblems(config.http));
  const hasFile = (name: 'cert' | 'key'): boolean => config.mqtt[name] !== '';
  if (hasFile('cert') !== hasFile('key')) problems.push('"mqtt.cert" and "mqtt.key" must be set together');
  const underBase = (topic: string): boolean => topic === config.mqtt.baseTopic || topic.startsWith(`${config.mqtt.baseTopic}/`);
  for (const station of config.stations) {
    if (underBase(station.topic)) {
      problems.push(
        `station "${station.id}" topic "${station.topic}" lies under "mqtt.baseTopic" = "${config.mqtt.baseTopic}", where we publish`,
      );
    }
    for (const unit of unitStationKeys(options.units ?? [])) {
      const slice = unitSliceOf(station, unit.key);
      for (const topic of slice === undefined ? [] : (unit.topics?.(slice) ?? [])) {
        if (underBase(topic))
          problems.push(
            `station "${station.id}" ${unit.key}.topic "${topic}" lies under "mqtt.baseTopic" = "${config.mqtt.baseTopic}", where only we may publish`,
          );
      }
    }
  }
  // Home Assistant would give two owners one entity id.
  if (config.homeassistant.discovery)
    problems.push(...discoveryIdProblems(config.homeassistant.prefix, config.mqtt.baseTopic, config.stations));
  return problems;
}

/** The reserve is part of the cap: a reserve as large as the cap would leave no slot for a client holding one. */
function connectionReserveProblems({
  maxConnections,
  connectionReserve,
}: Pick<AppConfig['http'], 'maxConnections' | 'connectionReserve'>): string[] {
  if (maxConnections === 0 || connectionReserve < maxConnections) return [];
  return [
    `"http.connectionReserve" (${connectionReserve}) must be below "http.maxConnections" (${maxConnections}); lower the reserve (e.g. an eighth of the cap) or set it to 0`,
  ];
}

/** The shared stores' URLs are secrets: the problems name the setting, never its value. */
function sharedStoreProblems(config: Partial<Pick<AppConfig, 'store' | 'http'>>): string[] {
  const problems: string[] = [];
  if (config.store?.kind === 'postgres' && !/^postgres(ql)?:\/\/[^/]/.test(config.store.url)) {
    problems.push(
      '"store.kind" = "postgres" needs "store.url" = postgres://user:password@host:5432/database (best as the systemd credential store.url)',
    );
  }
  const redis = config.http?.rateLimitStore ?? '';
  if (redis !== '' && !/^rediss?:\/\/[^/]/.test(redis)) problems.push('"http.rateLimitStore" must be empty or a redis:// or rediss:// URL');
  return problems;
}
