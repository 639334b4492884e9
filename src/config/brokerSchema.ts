/** Convict schema of the embedded MQTT broker (aedes): listener, users, limits. Part of ./mqttSchema.ts. */
import type { BrokerUser } from './mqttValues.js';

export const brokerSchema = {
  enabled: {
    doc: 'Run the embedded MQTT broker (aedes). Turn off when you use an external broker.',
    format: 'boolean',
    default: true,
    env: 'MOWABILITY_BROKER_ENABLED',
  },
  host: {
    doc: 'Address the embedded broker listens on. Anything other than a loopback address requires broker.users.',
    format: String,
    default: '127.0.0.1',
    env: 'MOWABILITY_BROKER_HOST',
  },
  port: {
    doc: 'TCP port of the embedded broker (0 picks a free port, for tests).',
    format: 'port',
    default: 1883,
    env: 'MOWABILITY_BROKER_PORT',
  },
  users: {
    doc: 'Accounts of the embedded broker: [{"username": "...", "password": "..."}] (JSON in the environment variable or the systemd credential broker.users). Empty: anonymous, allowed on loopback only.',
    format: 'broker-users',
    default: [] as BrokerUser[],
    env: 'MOWABILITY_BROKER_USERS',
    sensitive: true,
  },
  maxPayloadBytes: {
    doc: 'Largest PUBLISH payload the embedded broker accepts, in bytes.',
    format: 'positive-int',
    default: 65536,
    env: 'MOWABILITY_BROKER_MAX_PAYLOAD_BYTES',
  },
  maxTopicLevels: {
    doc: 'Most topic levels the embedded broker accepts in a topic or filter.',
    format: 'positive-int',
    default: 16,
    env: 'MOWABILITY_BROKER_MAX_TOPIC_LEVELS',
  },
  persistRetained: {
    doc: 'Keep the embedded broker\'s retained messages in the database so they survive a restart.',
    format: 'boolean',
    default: true,
    env: 'MOWABILITY_BROKER_PERSIST_RETAINED',
  },
  maxClients: {
    doc: 'Most connections the embedded broker keeps open at once, the daemon\'s own included; further ones are closed at once (counted, logged once a minute).',
    format: 'positive-int',
    default: 64,
    env: 'MOWABILITY_BROKER_MAX_CLIENTS',
    arg: 'broker-max-clients',
  },
  sysTopics: {
    doc: 'Let loopback clients logged in with a broker.users account subscribe to $SYS/... (broker events that name every client id). Off: $SYS subscriptions are refused.',
    format: 'boolean',
    default: false,
    env: 'MOWABILITY_BROKER_SYS_TOPICS',
    arg: 'broker-sys-topics',
  },
  maxRetainedMessages: {
    doc: 'Most retained topics the embedded broker keeps for other clients (ours are not counted). A retained publish past it is refused; an empty payload (delete) is always accepted.',
    format: 'positive-int',
    default: 1000,
    env: 'MOWABILITY_BROKER_MAX_RETAINED_MESSAGES',
    arg: 'broker-max-retained-messages',
  },
  maxRetainedBytes: {
    doc: 'Most payload bytes of all retained messages of other clients together (held in memory and in the database).',
    format: 'positive-int',
    default: 4 * 1024 * 1024,
    env: 'MOWABILITY_BROKER_MAX_RETAINED_BYTES',
    arg: 'broker-max-retained-bytes',
  },
  maxRetainedBytesPerClient: {
    doc: 'Most payload bytes of retained messages one broker.users account may hold, so one client cannot take the whole broker.maxRetainedBytes. All anonymous clients share one such share (a client id is chosen by the client).',
    format: 'positive-int',
    default: 2 * 1024 * 1024,
    env: 'MOWABILITY_BROKER_MAX_RETAINED_BYTES_PER_CLIENT',
    arg: 'broker-max-retained-bytes-per-client',
  },
  maxInflightBytesPerClient: {
    doc: 'Most bytes of inbound QoS 2 messages one client may have waiting for PUBREL. aedes counts messages, so this becomes broker.maxInflightBytesPerClient / broker.maxPayloadBytes messages (at least 1); a client past it is disconnected.',
    format: 'positive-int',
    default: 8 * 1024 * 1024,
    env: 'MOWABILITY_BROKER_MAX_INFLIGHT_BYTES_PER_CLIENT',
    arg: 'broker-max-inflight-bytes-per-client',
  },
};
