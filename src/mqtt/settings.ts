/**
 * The MQTT side's view of the configuration, rules that span several keys,
 * and derived values (client id, history options).
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { StationConfig } from '../ingest/types.js';
import type { HistoryOptions } from '../history/stationHistory.js';
import { MINUTE_MS } from '../history/windows.js';
import type { BrokerUser } from './brokerUsers.js';
import { discoveryIdProblems } from './discovery.js';

export interface MqttSideConfig {
  readonly mqtt: {
    readonly url: string;
    readonly username: string;
    readonly password: string;
    readonly clientId: string;
    readonly ca: string;
    readonly cert: string;
    readonly key: string;
    readonly rejectUnauthorized: boolean;
    readonly keepaliveSeconds: number;
    readonly reconnectMaxSeconds: number;
    readonly baseTopic: string;
    readonly recomputeDebounceMs: number;
    readonly mowableOnThreshold: number;
    readonly mowableOffThreshold: number;
    readonly mowableOnDelayMinutes: number;
  };
  readonly broker: {
    readonly enabled: boolean;
    readonly host: string;
    readonly port: number;
    readonly users: readonly BrokerUser[];
    readonly maxPayloadBytes: number;
    readonly maxTopicLevels: number;
    readonly persistRetained: boolean;
    readonly maxClients: number;
    readonly sysTopics: boolean;
    readonly maxRetainedMessages: number;
    readonly maxRetainedBytes: number;
    readonly maxRetainedBytesPerClient: number;
    readonly maxInflightBytesPerClient: number;
  };
  readonly homeassistant: {
    readonly discovery: boolean;
    readonly prefix: string;
    readonly statusTopic: string;
  };
  readonly history: {
    readonly rainCounterReset: string;
    readonly maxRainIncrementMm: number;
    readonly maxGapMinutes: number;
    readonly freshnessMinutes: number;
    readonly flushIntervalSeconds: number;
    readonly pruneSchedule: string;
  };
  readonly stations: readonly StationConfig[];
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Problems no single key can see; empty when the configuration is consistent. */
export function mqttConfigProblems(config: MqttSideConfig): string[] {
  const problems: string[] = [];
  if (config.broker.enabled && !isLoopbackHost(config.broker.host) && config.broker.users.length === 0) {
    problems.push(
      `"broker.host" = "${config.broker.host}" listens beyond this machine, so "broker.users" must list at least one username/password (or use 127.0.0.1)`,
    );
  }
  if (config.homeassistant.discovery) problems.push(...discoveryIdProblems(config.homeassistant.prefix, config.mqtt.baseTopic, config.stations));
  if (config.homeassistant.discovery && overlaps(config.homeassistant.prefix, config.mqtt.baseTopic)) {
    problems.push(`"homeassistant.prefix" = "${config.homeassistant.prefix}" must differ from "mqtt.baseTopic" = "${config.mqtt.baseTopic}" (and not contain it)`);
  }
  if (config.mqtt.mowableOffThreshold > config.mqtt.mowableOnThreshold) {
    problems.push(`"mqtt.mowableOffThreshold" (${config.mqtt.mowableOffThreshold}) must not be above "mqtt.mowableOnThreshold" (${config.mqtt.mowableOnThreshold})`);
  }
  if (config.mqtt.url !== '' && !/^(mqtts?|wss?):\/\/[^/]/.test(config.mqtt.url)) {
    problems.push(`"mqtt.url" must start with mqtt://, mqtts://, ws:// or wss:// followed by a host`);
  }
  const hasFile = (name: 'cert' | 'key'): boolean => config.mqtt[name] !== '';
  if (hasFile('cert') !== hasFile('key')) problems.push('"mqtt.cert" and "mqtt.key" must be set together');
  const underBase = (topic: string): boolean => topic === config.mqtt.baseTopic || topic.startsWith(`${config.mqtt.baseTopic}/`);
  for (const station of config.stations) {
    if (underBase(station.topic)) {
      problems.push(`station "${station.id}" topic "${station.topic}" lies under "mqtt.baseTopic" = "${config.mqtt.baseTopic}", where we publish`);
    }
    if (station.irrigation && underBase(station.irrigation.topic)) {
      problems.push(`station "${station.id}" irrigation.topic "${station.irrigation.topic}" lies under "mqtt.baseTopic" = "${config.mqtt.baseTopic}", where only we may publish`);
    }
  }
  return problems;
}

/** False when there is neither an external broker URL nor the embedded broker: the daemon serves HTTP only. */
export function mqttEnabled(config: MqttSideConfig): boolean {
  return config.mqtt.url !== '' || config.broker.enabled;
}

/**
 * Client id at an external broker. Deterministic: the same base topic gives the same id, so our
 * clean:false session (the QoS 1 readings the broker queued while we were away) survives restarts.
 * Ownership of our topics there is the broker's ACL job (docs/mqtt.md), not this id's. The
 * embedded broker uses a random id instead (BrokerAccess.internalClientId).
 */
export function clientIdFor(config: MqttSideConfig): string {
  if (config.mqtt.clientId !== '') return config.mqtt.clientId;
  return `mowability-${createHash('sha256').update(config.mqtt.baseTopic).digest('hex').slice(0, 8)}`;
}

export function historyOptionsFor(config: MqttSideConfig, station: StationConfig): HistoryOptions {
  const fieldFreshnessMs: HistoryOptions['fieldFreshnessMs'] = {};
  for (const [field, minutes] of Object.entries(station.freshness?.fields ?? {})) {
    fieldFreshnessMs[field as keyof typeof fieldFreshnessMs] = minutes * MINUTE_MS;
  }
  return {
    counterResetPolicy: config.history.rainCounterReset === 'count' ? 'count' : 'ignore',
    maxRainIncrementMm: config.history.maxRainIncrementMm,
    maxGapMinutes: config.history.maxGapMinutes,
    duplicateWindowMs: 10_000,
    freshnessMs: (station.freshness?.maxAgeMinutes ?? config.history.freshnessMinutes) * MINUTE_MS,
    fieldFreshnessMs,
  };
}
