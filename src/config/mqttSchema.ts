/**
 * Convict schema for the MQTT side: embedded broker, external broker
 * connection, publishing, Home Assistant discovery, stations and history.
 * Composed with the service schema in ./schema.ts.
 */
export const mqttSchema = {
  mqtt: {
    url: {
      doc: 'URL of an external MQTT broker (mqtt://, mqtts://, ws://, wss://). Empty: connect to the embedded broker.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_URL',
      arg: 'mqtt-url',
    },
  },
  broker: {
    enabled: {
      doc: 'Run the embedded MQTT broker (aedes). Turn off when you use an external broker.',
      format: Boolean,
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
  },
};
