/**
 * How the bridge connects: to the embedded broker through aedes' in-process API (no client
 * connection, src/mqtt/inProcessConnection.ts), or with mqtt.js to mqtt.url with the configured
 * credentials and TLS files (read at start, errors name the key).
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { MqttConnection, type ConnectionOptions } from './client.js';
import { InProcessConnection, type OwnTraffic } from './inProcessConnection.js';
import type { BridgeConnection } from './publisher.js';
import type { MqttSideConfig } from './settings.js';
import { clientIdFor } from './settings.js';
import { BRIDGE_STATE_TOPIC } from '../homeassistant/bridgeEntities.js';

/** What the bridge needs of the embedded broker it runs on. */
export interface EmbeddedEndpoint extends OwnTraffic {
  readonly port: number;
}

type TlsKey = 'ca' | 'cert' | 'key';

/** The file a TLS key names, or undefined when the key is empty. */
export function readTlsFile(config: Pick<MqttSideConfig, 'mqtt'>, key: TlsKey): Buffer | undefined {
  const path = config.mqtt[key];
  if (path === '') return undefined;
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`"mqtt.${key}": cannot read "${path}": ${(err as Error).message}`);
  }
}

/** The bridge's one connection: in process on the embedded broker, mqtt.js to an external one. */
export function openBridgeConnection(config: MqttSideConfig, broker: EmbeddedEndpoint | undefined, logger: Logger): BridgeConnection {
  if (broker) return new InProcessConnection(broker, { baseTopic: config.mqtt.baseTopic, willTopic: BRIDGE_STATE_TOPIC }, logger);
  return new MqttConnection(bridgeConnectionOptions(config), logger);
}

/** mqtt.js's options for the external broker (mqtt.url). */
export function bridgeConnectionOptions(config: MqttSideConfig): ConnectionOptions {
  const tls = { ca: readTlsFile(config, 'ca'), cert: readTlsFile(config, 'cert'), key: readTlsFile(config, 'key') };
  return {
    url: config.mqtt.url,
    clientId: clientIdFor(config),
    baseTopic: config.mqtt.baseTopic,
    ...(config.mqtt.username ? { username: config.mqtt.username } : {}),
    ...(config.mqtt.password ? { password: config.mqtt.password } : {}),
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    rejectUnauthorized: config.mqtt.rejectUnauthorized,
    keepaliveSeconds: config.mqtt.keepaliveSeconds,
    persistentSession: true,
    reconnectMaxSeconds: config.mqtt.reconnectMaxSeconds,
    willTopic: BRIDGE_STATE_TOPIC,
    willPayload: 'offline',
  };
}
