/**
 * Convict schema for the MQTT side: embedded broker, external broker
 * connection, publishing, Home Assistant discovery, stations and history.
 * Composed with the service schema in ./schema.ts. Rules that span several
 * keys live in ./crossKeyRules.ts and, for Home Assistant ids, src/mqtt/settings.ts.
 */
import { validateStations } from '../ingest/stationConfig.js';
import type { StationConfig } from '../ingest/types.js';
import { holidayCountryFormat, holidayRegionFormat } from './holidayValues.js';
import { validateTopicPrefix, type BrokerUser } from './mqttValues.js';
import { validateCronExpression } from '../util/scheduler.js';
import { parseNoiseHours } from '../core/lawn/quietHours.js';

function oneOf(...allowed: string[]): (value: unknown) => void {
  return (value: unknown) => {
    if (typeof value !== 'string' || !allowed.includes(value)) throw new Error(`must be one of ${allowed.join(', ')}`);
  };
}

function positiveNumber(value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error('must be a number above 0');
}

/** An http(s) URL without credentials, query or fragment (the forecast request adds its own path and query). */
function httpBaseUrl(value: unknown): void {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error('must be an http:// or https:// URL such as https://api.open-meteo.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must start with http:// or https://');
  if (url.username || url.password || url.search || url.hash) throw new Error('must not contain credentials, a query or a fragment');
}

/** Empty, or an http(s) URL without credentials (it is published to every MQTT client). */
function optionalHttpUrl(value: unknown): void {
  if (value === '') return;
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error('must be empty or an http:// or https:// URL such as http://raspberrypi.local:8080/');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must start with http:// or https://');
  if (url.username || url.password) throw new Error('must not contain credentials (every MQTT client can read it)');
}

function percentThreshold(value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) throw new Error('must be a number from 0 to 100');
}

function noiseHoursFormat(value: unknown): void {
  if (typeof value !== 'string') throw new Error('must be a string "HH:MM-HH:MM" or empty');
  parseNoiseHours(value);
}

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
      doc: 'PEM file with the CA certificate(s) that signed the external broker\'s certificate (mqtts://, wss://).',
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
      doc: 'Verify the external broker\'s TLS certificate. Turn off only for testing.',
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
    recomputeDebounceMs: {
      doc: 'Wait this long after a reading before recomputing, so a burst of packets gives one publish.',
      format: 'nat',
      default: 1000,
      env: 'MOWABILITY_MQTT_RECOMPUTE_DEBOUNCE_MS',
    },
    mowableOnThreshold: {
      doc: 'mowable turns on once the index has stayed at or above this for mowableOnDelayMinutes.',
      format: percentThreshold,
      default: 70,
      env: 'MOWABILITY_MQTT_MOWABLE_ON_THRESHOLD',
    },
    mowableOffThreshold: {
      doc: 'mowable turns off at once when the index drops below this (or on BLOCK).',
      format: percentThreshold,
      default: 60,
      env: 'MOWABILITY_MQTT_MOWABLE_OFF_THRESHOLD',
    },
    mowableOnDelayMinutes: {
      doc: 'How long the index must stay at or above the on-threshold before mowable turns on.',
      format: 'nat',
      default: 15,
      env: 'MOWABILITY_MQTT_MOWABLE_ON_DELAY_MINUTES',
    },
  },
  broker: {
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
  },
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
    configurationUrl: {
      doc: 'The status page as Home Assistant\'s browser reaches it, e.g. "http://raspberrypi.local:8080/": shown as "Visit" on every mowability device. Empty: no link (the daemon cannot know its address on your network).',
      format: optionalHttpUrl,
      default: '',
      env: 'MOWABILITY_HOMEASSISTANT_CONFIGURATION_URL',
      arg: 'homeassistant-configuration-url',
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
      doc: 'History (and the embedded broker\'s retained messages) is written to the database at most this often, in one commit, and only when something changed; a power cut loses at most this much (SIGTERM writes everything).',
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
  forecast: {
    openMeteoUrl: {
      doc: 'Base URL of the Open-Meteo forecast API for stations with forecast.source "open-meteo" (a self-hosted Open-Meteo works too). Data: Open-Meteo, CC BY 4.0.',
      format: httpBaseUrl,
      default: 'https://api.open-meteo.com',
      env: 'MOWABILITY_FORECAST_OPEN_METEO_URL',
      arg: 'forecast-open-meteo-url',
    },
    intervalMinutes: {
      doc: 'How often each station\'s forecast is fetched (±10 % jitter). A forecast older than three intervals is marked stale and no longer holds mowable off; MQTT forecasts are held to the same age.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_FORECAST_INTERVAL_MINUTES',
      arg: 'forecast-interval-minutes',
    },
    timeoutSeconds: {
      doc: 'How long one forecast request may take before it is abandoned (and retried).',
      format: 'positive-int',
      default: 15,
      env: 'MOWABILITY_FORECAST_TIMEOUT_SECONDS',
      arg: 'forecast-timeout-seconds',
    },
    retries: {
      doc: 'Retries of a failed forecast request (network error, timeout, HTTP 429 or 5xx), with back-off 5 s, 10 s, 20 s, ... (Retry-After honoured, at most 60 s).',
      format: 'nat',
      default: 3,
      env: 'MOWABILITY_FORECAST_RETRIES',
      arg: 'forecast-retries',
    },
    rainLeadMinutes: {
      doc: 'mowable turns off early (reason rain_expected) when the forecast expects rain within this many minutes; 0: never.',
      format: 'nat',
      default: 20,
      env: 'MOWABILITY_FORECAST_RAIN_LEAD_MINUTES',
      arg: 'forecast-rain-lead-minutes',
    },
  },
  lawnMemory: {
    enabled: {
      doc: 'Keep lawn memory per station (blade water, soil water, growth since the last cut, quiet hours; docs/model.md "Lawn memory").',
      format: Boolean,
      default: true,
      env: 'MOWABILITY_LAWN_MEMORY_ENABLED',
      arg: 'lawn-memory-enabled',
    },
    nightBan: {
      doc: 'Quiet hours: hold "mowable" off from lawnMemory.nightMarginMinutes before sunset to after sunrise at the station\'s location (hedgehog protection); stations without a location are not affected.',
      format: Boolean,
      default: true,
      env: 'MOWABILITY_LAWN_MEMORY_NIGHT_BAN',
      arg: 'lawn-memory-night-ban',
    },
    nightMarginMinutes: {
      doc: 'Minutes before sunset the night ban starts, and after sunrise it ends.',
      format: 'nat',
      default: 30,
      env: 'MOWABILITY_LAWN_MEMORY_NIGHT_MARGIN_MINUTES',
      arg: 'lawn-memory-night-margin-minutes',
    },
    noiseHours: {
      doc: 'Quiet hours in the configured time zone as "HH:MM-HH:MM" (e.g. "20:00-07:00"), may wrap midnight; empty: none.',
      format: noiseHoursFormat,
      default: '',
      env: 'MOWABILITY_LAWN_MEMORY_NOISE_HOURS',
      arg: 'lawn-memory-noise-hours',
    },
    quietSundays: {
      doc: 'Quiet hours all Sunday (configured time zone).',
      format: Boolean,
      default: false,
      env: 'MOWABILITY_LAWN_MEMORY_QUIET_SUNDAYS',
      arg: 'lawn-memory-quiet-sundays',
    },
    holidayCountry: {
      doc: 'Quiet hours all day on this country\'s public holidays (ISO 3166-1 code, e.g. "DE"; dates from the date-holidays library, in the configured time zone); empty: none.',
      format: holidayCountryFormat,
      default: '',
      env: 'MOWABILITY_LAWN_MEMORY_HOLIDAY_COUNTRY',
      arg: 'lawn-memory-holiday-country',
    },
    holidayRegion: {
      doc: 'The state or region for regional public holidays (e.g. "BY" for Bavaria with holidayCountry "DE"); empty: national holidays only.',
      format: holidayRegionFormat,
      default: '',
      env: 'MOWABILITY_LAWN_MEMORY_HOLIDAY_REGION',
      arg: 'lawn-memory-holiday-region',
    },
    cutHeightCm: {
      doc: 'Height the lawn is cut to (cm); mow need reaches 100 when the grass has grown half of it (the one-third rule).',
      format: positiveNumber,
      default: 4,
      env: 'MOWABILITY_LAWN_MEMORY_CUT_HEIGHT_CM',
      arg: 'lawn-memory-cut-height-cm',
    },
    growthFactor: {
      doc: 'The lawn\'s growth relative to an average fertilised lawn (0.04 cm per degree-day above 5 °C): 0.5 for a lean lawn, 1.5 for a well-fed one.',
      format: positiveNumber,
      default: 1,
      env: 'MOWABILITY_LAWN_MEMORY_GROWTH_FACTOR',
      arg: 'lawn-memory-growth-factor',
    },
    saveIntervalMinutes: {
      doc: 'Balances (blade and soil water, degree-days) are written to the database at most this often, and on stop; a cut is written at once.',
      format: 'positive-int',
      default: 30,
      env: 'MOWABILITY_LAWN_MEMORY_SAVE_INTERVAL_MINUTES',
      arg: 'lawn-memory-save-interval-minutes',
    },
    pollSeconds: {
      doc: 'How often the daemon looks for a cut recorded by "mowability mowed" (a cheap check of the database\'s change counter).',
      format: 'positive-int',
      default: 5,
      env: 'MOWABILITY_LAWN_MEMORY_POLL_SECONDS',
      arg: 'lawn-memory-poll-seconds',
    },
  },
  stations: {
    doc: 'Weather stations to read from MQTT (see docs/mqtt.md): [{"id", "name", "format", "topic", ...}].',
    format: validateStations,
    default: [] as StationConfig[],
  },
};
