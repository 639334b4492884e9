/**
 * Convict schema of the MQTT connection and publishing, Home Assistant discovery, history and
 * stations here (how readings become a state is ./stationSchema.ts); the embedded broker in its own
 * file (the lawn memory's and the forecast's settings come with their units, src/lawn/lawnSettings.ts,
 * src/forecast/forecastSettings.ts). Composed with the service schema in ./schema.ts; the order of the
 * sections is the order of the generated settings tables. Rules that span several keys live in
 * ./crossKeyRules.ts.
 */
import { validateLocationSetting } from '../ingest/modelledConfig.js';
import { validateStations } from '../ingest/stationConfig.js';
import type { StationConfig } from '../ingest/types.js';
import { validateTopicPrefix } from './mqttValues.js';
import { validateCronExpression } from '../util/scheduler.js';
import { brokerSchema } from './brokerSchema.js';
import { oneOf, optionalHttpUrl, positiveNumber } from './settingFormats.js';

export const mqttSchema = {
  mqtt: {
    url: {
      doc: 'URL of an external MQTT broker (mqtt://, mqtts://, ws://, wss://). Empty: connect to the embedded broker.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_URL',
      arg: 'mqtt-url',
    },
    username: {
      doc: 'User name for the external broker.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_USERNAME',
    },
    password: {
      doc: 'Password for the external broker.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_PASSWORD',
      sensitive: true,
    },
    clientId: {
      doc: 'MQTT client id at the external broker. Empty: "mowability-" plus a hash of the base topic, stable across restarts so the broker keeps our session. (At the embedded broker the daemon uses a random id per process.)',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_CLIENT_ID',
    },
    ca: {
      doc: "PEM file with the CA certificate(s) that signed the external broker's certificate (mqtts://, wss://).",
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_CA',
    },
    cert: {
      doc: 'PEM file with our client certificate, for brokers that require one.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_CERT',
    },
    key: {
      doc: 'PEM file with the private key of the client certificate.',
      format: String,
      default: '',
      env: 'MOWABILITY_MQTT_KEY',
      sensitive: true,
    },
    rejectUnauthorized: {
      doc: "Verify the external broker's TLS certificate. Turn off only for testing.",
      format: 'boolean',
      default: true,
      env: 'MOWABILITY_MQTT_REJECT_UNAUTHORIZED',
    },
    keepaliveSeconds: {
      doc: 'MQTT keepalive interval in seconds.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_MQTT_KEEPALIVE_SECONDS',
    },
    reconnectMaxSeconds: {
      doc: 'Longest wait between reconnect attempts; waits start at 1 s and double up to this.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_MQTT_RECONNECT_MAX_SECONDS',
    },
    baseTopic: {
      doc: 'Topic prefix of everything we publish (<base>/bridge/state, <base>/<station>/state, ...).',
      format: validateTopicPrefix,
      default: 'mowability',
      env: 'MOWABILITY_MQTT_BASE_TOPIC',
    },
    uploadRelay: {
      doc: "Read readings published to an upload station's relay topic mowability-upload/<station> (for relays such as Node-RED). Off: not subscribed. On the embedded broker only clients logged in with a broker.users account may publish there (the relay bypasses the upload PASSKEY); on an external broker restrict it with its ACL.",
      format: 'boolean',
      default: false,
      env: 'MOWABILITY_MQTT_UPLOAD_RELAY',
    },
  },
  broker: brokerSchema,
  homeassistant: {
    discovery: {
      doc: 'Publish Home Assistant MQTT discovery configs for every station.',
      format: 'boolean',
      default: true,
      env: 'MOWABILITY_HOMEASSISTANT_DISCOVERY',
    },
    prefix: {
      doc: 'Home Assistant discovery prefix. Must differ from mqtt.baseTopic.',
      format: validateTopicPrefix,
      default: 'homeassistant',
      env: 'MOWABILITY_HOMEASSISTANT_PREFIX',
    },
    statusTopic: {
      doc: 'Home Assistant birth topic; "online" there re-sends discovery and states.',
      format: validateTopicPrefix,
      default: 'homeassistant/status',
      env: 'MOWABILITY_HOMEASSISTANT_STATUS_TOPIC',
    },
    birthResendSeconds: {
      doc: 'Home Assistant\'s "online" on the status topic re-sends discovery and states at most once per this many seconds: the first after 1 s, further ones within the window become one re-send at its end. Protects subscribers from a flood of "online" messages.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_HOMEASSISTANT_BIRTH_RESEND_SECONDS',
    },
    configurationUrl: {
      doc: 'The status page as Home Assistant\'s browser reaches it, e.g. "http://raspberrypi.local:8080/": shown as "Visit" on every mowability device. Empty: no link (the daemon cannot know its address on your network).',
      format: optionalHttpUrl,
      default: '',
      env: 'MOWABILITY_HOMEASSISTANT_CONFIGURATION_URL',
      arg: 'homeassistant-configuration-url',
    },
    commandAccount: {
      doc: "The broker.users account Home Assistant logs in to the embedded broker with: only its connection (and the daemon) may publish to the command topics of the mower control and the Home Assistant controls (<base>/<station>/mower/... and .../control/...). Empty: nobody but the daemon may (Home Assistant's buttons, switches and numbers do nothing). With an external broker (mqtt.url) leave it empty and restrict those topics in the broker's ACL (docs/mqtt.md).",
      format: String,
      default: '',
      env: 'MOWABILITY_HOMEASSISTANT_COMMAND_ACCOUNT',
      arg: 'homeassistant-command-account',
    },
  },
  history: {
    rainCounterReset: {
      doc: 'When a lifetime rain counter goes down (battery change, wrap): "ignore" the interval or "count" the new total as rain.',
      format: oneOf('ignore', 'count'),
      default: 'ignore',
      env: 'MOWABILITY_HISTORY_RAIN_COUNTER_RESET',
    },
    maxRainIncrementMm: {
      doc: 'Largest rain amount believed from one counter step or packet (mm); larger jumps are capped.',
      format: positiveNumber,
      default: 50,
      env: 'MOWABILITY_HISTORY_MAX_RAIN_INCREMENT_MM',
    },
    maxGapMinutes: {
      doc: 'Readings further apart than this leave a gap; a window is used only when readings cover 90% of it.',
      format: 'positive-int',
      default: 15,
      env: 'MOWABILITY_HISTORY_MAX_GAP_MINUTES',
    },
    freshnessMinutes: {
      doc: 'Default freshness limit: current values older than this are not used (stations can override).',
      format: positiveNumber,
      default: 30,
      env: 'MOWABILITY_HISTORY_FRESHNESS_MINUTES',
    },
    flushIntervalSeconds: {
      doc: "History (and the embedded broker's retained messages) is written to the database at most this often, in one commit, and only when something changed; a power cut loses at most this much (SIGTERM writes everything).",
      format: 'positive-int',
      default: 300,
      env: 'MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS',
    },
    pruneSchedule: {
      doc: 'Cron expression of the job that deletes history older than 14 days (minute hour day month weekday).',
      format: validateCronExpression,
      default: '17 3 * * *',
      env: 'MOWABILITY_HISTORY_PRUNE_SCHEDULE',
    },
  },
  location: {
    doc: 'No weather station? "latitude,longitude" (WGS 84 degrees, optionally ",elevation" in metres) adds the modelled station "home": its readings come from Open-Meteo (14 days of hourly history at the first start, then the current conditions every forecast.modelledIntervalMinutes). Empty: off.',
    format: validateLocationSetting,
    default: '',
    env: 'MOWABILITY_LOCATION',
    arg: 'location',
  },
  stations: {
    doc: 'Weather stations to read from MQTT (see docs/mqtt.md): [{"id", "name", "format", "topic", ...}].',
    format: validateStations,
    default: [] as StationConfig[],
  },
};
