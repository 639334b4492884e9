/**
 * The MQTT side's view of the configuration and values derived from it (whether MQTT runs, the
 * client id). Its cross-key rules are the config layer's (src/config/crossKeyRules.ts); the
 * per-station history options are src/config/historyOptions.ts.
 */
import { createHash } from 'node:crypto';
import type { MqttSideConfig } from '../config/schema.js';

export type { MqttSideConfig };

/** False when there is neither an external broker URL nor the embedded broker: the daemon serves HTTP only. */
export function mqttEnabled(config: MqttSideConfig): boolean {
  return config.mqtt.url !== '' || config.broker.enabled;
}

/**
 * Client id at an external broker. Deterministic: the same base topic gives the same id, so our
 * clean:false session (the QoS 1 readings the broker queued while we were away) survives restarts.
 * Ownership of our topics there is the broker's ACL job (docs/mqtt.md), not this id's. On the
 * embedded broker the daemon has no client id: it uses aedes in process (src/mqtt/inProcessConnection.ts).
 */
export function clientIdFor(config: MqttSideConfig): string {
  if (config.mqtt.clientId !== '') return config.mqtt.clientId;
  return `mowability-${createHash('sha256').update(config.mqtt.baseTopic).digest('hex').slice(0, 8)}`;
}
