/** Options for an embedded broker in unit tests: loopback, small limits, no persistence, a fake clock. */
import { EmbeddedBroker, type BrokerOptions } from '../../src/mqtt/broker.js';
import { MqttConnection } from '../../src/mqtt/client.js';
import { FakeClock, silentLogger } from './mqttHarness.js';

export function testBrokerOptions(overrides: Partial<BrokerOptions> = {}): BrokerOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    users: [],
    maxPayloadBytes: 1024,
    maxTopicLevels: 8,
    retainedLimits: { maxMessages: 100, maxBytes: 64 * 1024, maxBytesPerClient: 64 * 1024 },
    maxInflightBytesPerClient: 64 * 1024,
    slowSubscribers: { maxOutgoingBytes: 256 * 1024, slowClientSeconds: 10 },
    retainedStore: undefined,
    baseTopic: 'mowability',
    ownedTopics: ['mowability/#'],
    maxClients: 16,
    sessionLimits: {
      maxFiltersPerSubscribe: 50,
      maxSubscriptionsPerClient: 100,
      maxSubscriptionsPerSession: 100,
      maxSessions: 4,
      maxQueuedMessages: 20,
      maxQueuedBytes: 16 * 1024,
      maxInflightBytes: 256 * 1024,
    },
    sysTopics: false,
    flushIntervalMs: 1000,
    logger: silentLogger,
    clock: new FakeClock(),
    ...overrides,
  };
}

export function testBroker(overrides: Partial<BrokerOptions> = {}): EmbeddedBroker {
  return new EmbeddedBroker(testBrokerOptions(overrides));
}

/** An mqtt.js connection to `broker` over loopback TCP with the broker's internal login (which owns our topics). */
export function internalConnection(broker: EmbeddedBroker): MqttConnection {
  return new MqttConnection(
    {
      url: `mqtt://127.0.0.1:${broker.port}`,
      clientId: broker.internalClientId,
      ...broker.internalUser,
      baseTopic: 'mowability',
      rejectUnauthorized: true,
      keepaliveSeconds: 30,
      persistentSession: false,
      reconnectMaxSeconds: 1,
      willTopic: 'bridge/state',
      willPayload: 'offline',
    },
    silentLogger,
  );
}
