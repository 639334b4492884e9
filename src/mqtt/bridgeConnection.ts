/**
 * How the bridge connects: to the embedded broker (always logged in with the
 * broker's internal account, which owns our topics) or to mqtt.url with the
 * configured credentials and TLS files (read at start, errors name the key).
 */
import { readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from './client.js';
import type { MqttSideConfig } from './settings.js';
import { clientIdFor } from './settings.js';
import { BRIDGE_STATE_TOPIC } from '../homeassistant/bridgeEntities.js';

/** What the bridge needs of the embedded broker it connects to. */
export interface EmbeddedEndpoint {
  readonly port: number;
  readonly internalUser: { username: string; password: string };
  readonly internalClientId: string;
  /** A connection from inside this process (src/mqtt/broker.ts), used instead of loopback TCP when present. */
  openInProcess?(): Duplex;
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

/** The URL of the embedded broker as seen from this process (a wildcard host is reached on loopback). */
export function embeddedUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `mqtt://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The bridge's client id: the embedded broker's internal identity, or our stable id on an external broker. */
export function bridgeClientId(config: MqttSideConfig, broker: EmbeddedEndpoint | undefined): string {
  return broker ? broker.internalClientId : clientIdFor(config);
}

export function bridgeConnectionOptions(config: MqttSideConfig, broker: EmbeddedEndpoint | undefined): ConnectionOptions {
  const url = broker ? embeddedUrl(config.broker.host, broker.port) : config.mqtt.url;
  // Always log in to the embedded broker, also when it is anonymous: the login is what makes this connection the owner of our topics.
  const credentials = broker
    ? { username: broker.internalUser.username, password: broker.internalUser.password }
    : {
        ...(config.mqtt.username ? { username: config.mqtt.username } : {}),
        ...(config.mqtt.password ? { password: config.mqtt.password } : {}),
      };
  const tls = { ca: readTlsFile(config, 'ca'), cert: readTlsFile(config, 'cert'), key: readTlsFile(config, 'key') };
  const openInProcess = broker?.openInProcess?.bind(broker);
  return {
    url,
    ...(openInProcess ? { stream: openInProcess } : {}),
    clientId: bridgeClientId(config, broker),
    baseTopic: config.mqtt.baseTopic,
    ...credentials,
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    rejectUnauthorized: config.mqtt.rejectUnauthorized,
    keepaliveSeconds: config.mqtt.keepaliveSeconds,
    persistentSession: !broker,
    reconnectMaxSeconds: config.mqtt.reconnectMaxSeconds,
    willTopic: BRIDGE_STATE_TOPIC,
    willPayload: 'offline',
  };
}
