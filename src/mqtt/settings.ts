/**
 * The MQTT side's view of the configuration and values derived from it (client id, history
 * options). Its cross-key rules are the config layer's (src/config/crossKeyRules.ts).
 */
import { createHash } from 'node:crypto';
import type { MqttSideConfig } from '../config/schema.js';
import type { StationConfig } from '../ingest/types.js';
import type { HistoryOptions } from '../history/stationHistory.js';
import { MINUTE_MS } from '../history/windows.js';
import { isLoopbackHost } from '../util/loopback.js';

export type { MqttSideConfig };
export { isLoopbackHost };

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

/** How old a station's current values may be: its own `freshness.maxAgeMinutes`, else `history.freshnessMinutes`. */
export function stationFreshnessMs(config: MqttSideConfig, station: StationConfig): number {
  return (station.freshness?.maxAgeMinutes ?? config.history.freshnessMinutes) * MINUTE_MS;
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
    freshnessMs: stationFreshnessMs(config, station),
    fieldFreshnessMs,
  };
}
