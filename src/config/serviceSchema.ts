/**
 * Convict schema for the HTTP service: database, HTTP server, logging, time
 * zone and lawn profile. Composed with the MQTT part in ./schema.ts. Custom
 * format names ('boolean', 'port', 'nat', 'timezone', 'non-empty-string', 'trust-proxy') are
 * registered by ./formats.ts before the schema is used.
 */
import { isIP } from 'node:net';
import { FIELD_CAPACITY_PCT, FIELD_CAPACITY_RANGE_PCT, isValidFieldCapacity } from '../core/soil.js';
import { HEMISPHERES, MOWER_CLASSES, SOIL_TYPES, TURF_TYPES } from '../core/vocabulary.js';
import type { Hemisphere, MowerClass, SoilType, TurfType } from '../core/types.js';
import { DB_PATH_SETTING } from '../store/databaseFile.js';
import type { TrustProxySetting } from './trustProxy.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Who may read GET /metrics (see docs/api.md). */
export const METRICS_ACCESS = ['off', 'loopback', 'key', 'open'] as const;
export type MetricsAccess = (typeof METRICS_ACCESS)[number];
/** Where the one line per HTTP request goes (see docs/configuration.md). */
export const ACCESS_LOG_MODES = ['info', 'debug', 'off'] as const;
export type AccessLogMode = (typeof ACCESS_LOG_MODES)[number];

/** An absolute URL path of plain characters, not one of the API's own (a gateway's "Path" setting). */
function uploadPathFormat(value: unknown): void {
  if (value === '') return;
  if (typeof value !== 'string' || !/^\/[A-Za-z0-9._~/-]{0,200}$/.test(value) || value.includes('//')) {
    throw new Error('must be "" or a path such as "/data/report/" (letters, digits, "/", ".", "_", "~", "-")');
  }
  if (/^\/(v1|health|metrics|openapi)/.test(value))
    throw new Error("must not lie under the API's own paths (/v1, /health, /metrics, /openapi.json)");
}
/** Who may open the status page and read its JSON endpoints (see docs/api.md, "Status page"). */
export const STATUS_PAGE_ACCESS = ['open', 'key', 'off'] as const;
export type StatusPageAccess = (typeof STATUS_PAGE_ACCESS)[number];

/** 0 (the soil type's default) or a field capacity inside the core's valid range. */
function fieldCapacityFormat(value: unknown): void {
  if (value === 0 || isValidFieldCapacity(value)) return;
  throw new Error(
    `must be 0 (the soil type's default) or a number from ${FIELD_CAPACITY_RANGE_PCT.min} to ${FIELD_CAPACITY_RANGE_PCT.max} (volumetric %)`,
  );
}

export const serviceSchema = {
  db: {
    path: {
      doc: 'SQLite database file (API keys, blocked addresses, settings, history). serve (and keys add) create it 0600, and missing directories 0700; the other commands refuse a missing file.',
      format: 'non-empty-string',
      default: './data/mowability.db',
      env: DB_PATH_SETTING.env,
      arg: DB_PATH_SETTING.arg,
    },
    changePollIntervalMs: {
      doc: 'How often the daemon checks the database for changes made by another process (the admin CLI: keys, blocked addresses, maintenance), in milliseconds; such changes take effect within about this long.',
      format: 'positive-int',
      default: 1000,
      env: 'MOWABILITY_DB_CHANGE_POLL_INTERVAL_MS',
      arg: 'db-change-poll-interval-ms',
    },
    changeLog: {
      doc:
        "Opt-in, off by default until its day's figures are taken on a quiet machine (bench/NOTES.md, \"The change log, built\"): keep the history's commits (with the chart series, forecasts, key usage, retained messages and plans they carry) in a change log beside the database (db.path plus -log, 256 KiB, 0600) and write them into the database hourly, on stop and at start, for about a quarter of the SD card writes (the lab's figure). " +
        'A power cut loses what it did without (the last history.flushIntervalSeconds). While it is on, stop the daemon before admin commands that change keys or delete a history, so a later fold cannot write an older row over theirs. Turning it off folds what a log holds at the next start and removes the file.',
      format: Boolean,
      default: false,
      env: 'MOWABILITY_DB_CHANGE_LOG',
      arg: 'db-change-log',
    },
    changeLogFoldMinutes: {
      doc: 'With db.changeLog: how often the change log is written into the database, in minutes (also when it is more than half full, and on stop). Longer saves little (one fold costs about 100 KiB); the log holds about 60 commits.',
      format: 'positive-int',
      default: 60,
      env: 'MOWABILITY_DB_CHANGE_LOG_FOLD_MINUTES',
      arg: 'db-change-log-fold-minutes',
    },
  },
  http: {
    host: {
      doc: 'Address the HTTP server listens on (0.0.0.0: all IPv4 interfaces, :: all interfaces, 127.0.0.1: local only).',
      format: 'non-empty-string',
      default: '0.0.0.0',
      env: 'MOWABILITY_HTTP_HOST',
      arg: 'http-host',
    },
    port: {
      doc: 'TCP port of the HTTP server (0 picks a free port; the log line says which).',
      format: 'port',
      default: 8080,
      env: 'MOWABILITY_HTTP_PORT',
      arg: 'http-port',
    },
    trustProxy: {
      doc:
        'Reverse proxies allowed to name the client address in X-Forwarded-For: false (none), the number of proxies in front of the service, ' +
        'or their addresses/CIDR ranges (list, or comma-separated in env/flag; also loopback, linklocal, uniquelocal). ' +
        'The client is the first untrusted hop from the right. true is refused (it lets clients choose their address).',
      format: 'trust-proxy',
      default: false as TrustProxySetting,
      env: 'MOWABILITY_TRUST_PROXY',
      arg: 'http-trust-proxy',
    },
    maxConnections: {
      doc: 'Most TCP connections the HTTP server holds at once; further connections are closed at once until some end (0: no limit).',
      format: 'nat',
      default: 256,
      env: 'MOWABILITY_HTTP_MAX_CONNECTIONS',
      arg: 'http-max-connections',
    },
    maxConnectionsPerAddress: {
      doc: 'Most of those connections one client may hold (an IPv4 address or an IPv6 /64, as the rate limit counts; loopback too), so one client cannot take every slot; further ones are closed at once. Trusted proxies (http.trustProxy) are exempt. 0: no share.',
      format: 'nat',
      default: 32,
      env: 'MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
      arg: 'http-max-connections-per-address',
    },
    ipv6SharePrefix: {
      doc: 'IPv6 clients are one client for http.maxConnectionsPerAddress and http.connectionReserve per prefix of this length: 64 (a home network, RFC 7421); 56 or 48 counts a whole household or site as one (a /56 holds 256 /64s).',
      format: 'ipv6-prefix-length',
      default: 64,
      env: 'MOWABILITY_HTTP_IPV6_SHARE_PREFIX',
      arg: 'http-ipv6-share-prefix',
    },
    connectionReserve: {
      doc: 'Connections of http.maxConnections kept for clients that hold none yet: once only this many are free, a new connection from a client that already holds one closes the oldest idle connection (no request in flight) or is closed. At the cap, the oldest idle connection is closed for the newcomer. Must be below http.maxConnections; 0: no reserve.',
      format: 'nat',
      default: 32,
      env: 'MOWABILITY_HTTP_CONNECTION_RESERVE',
      arg: 'http-connection-reserve',
    },
    maxPipelinedRequests: {
      doc: 'Requests one connection may have waiting for their answers (HTTP/1.1 pipelining). Further ones wait unhandled and the connection is not read until answers go out; a connection with more than 4 times this many waiting is closed (what one write of thousands of requests that are never read looks like). 0: no bound (not recommended).',
      format: 'nat',
      default: 16,
      env: 'MOWABILITY_HTTP_MAX_PIPELINED_REQUESTS',
      arg: 'http-max-pipelined-requests',
    },
    healthCacheMs: {
      doc: "How long one run of /health's checks (database query, data directory, shared servers) answers every health request, in milliseconds; a switch of maintenance mode refreshes at once. 0: every request waits for a run (concurrent ones still share it).",
      format: 'nat',
      default: 1000,
      env: 'MOWABILITY_HTTP_HEALTH_CACHE_MS',
      arg: 'http-health-cache-ms',
    },
    healthCheckTimeoutMs: {
      doc: 'The longest one of /health\'s checks may take, in milliseconds; a check without an answer by then is reported as failed ("did not answer within …") and is not started again while it still runs. A backstop: keep it above the shared stores\' own timeouts (store.queryTimeoutMs, store.connectTimeoutMs), so their message shows.',
      format: 'positive-int',
      default: 5000,
      env: 'MOWABILITY_HTTP_HEALTH_CHECK_TIMEOUT_MS',
      arg: 'http-health-check-timeout-ms',
    },
    healthRateLimit: {
      max: {
        doc: "Health requests (/health, /v1/health) per client address (an IPv4 address or an IPv6 /64) and window before HTTP 429; health's own limit, counted in memory, apart from http.rateLimit (which exempts health). Loopback (this machine's own monitoring) is not limited. 0: no limit.",
        format: 'nat',
        default: 120,
        env: 'MOWABILITY_HTTP_HEALTH_RATE_LIMIT_MAX',
        arg: 'http-health-rate-limit-max',
      },
      timeWindowMs: {
        doc: 'Length of the health rate-limit window in milliseconds.',
        format: 'positive-int',
        default: 60000,
        env: 'MOWABILITY_HTTP_HEALTH_RATE_LIMIT_TIME_WINDOW_MS',
        arg: 'http-health-rate-limit-time-window-ms',
      },
    },
    headersTimeoutMs: {
      doc: 'Time a client has to send the request line and headers, in milliseconds (at most http.requestTimeoutMs when that is on); idle new connections are closed after it.',
      format: 'positive-int',
      default: 10000,
      env: 'MOWABILITY_HTTP_HEADERS_TIMEOUT_MS',
      arg: 'http-headers-timeout-ms',
    },
    bodyLimitBytes: {
      doc: 'Largest accepted request body in bytes; larger bodies get HTTP 413.',
      format: 'positive-int',
      default: 65536,
      env: 'MOWABILITY_HTTP_BODY_LIMIT_BYTES',
      arg: 'http-body-limit-bytes',
    },
    requestTimeoutMs: {
      doc: 'Time a client has to send a complete request, in milliseconds (0 disables; keep it on without a reverse proxy).',
      format: 'nat',
      default: 30000,
      env: 'MOWABILITY_HTTP_REQUEST_TIMEOUT_MS',
      arg: 'http-request-timeout-ms',
    },
    connectionTimeoutMs: {
      doc: 'Idle socket timeout in milliseconds (0 disables).',
      format: 'nat',
      default: 60000,
      env: 'MOWABILITY_HTTP_CONNECTION_TIMEOUT_MS',
      arg: 'http-connection-timeout-ms',
    },
    keepAliveTimeoutMs: {
      doc: 'How long an idle keep-alive connection stays open, in milliseconds.',
      format: 'positive-int',
      default: 72000,
      env: 'MOWABILITY_HTTP_KEEP_ALIVE_TIMEOUT_MS',
      arg: 'http-keep-alive-timeout-ms',
    },
    rateLimit: {
      max: {
        doc: 'Requests per client address and time window before HTTP 429 (0 disables rate limiting). Health is exempt.',
        format: 'nat',
        default: 600,
        env: 'MOWABILITY_RATE_LIMIT_MAX',
        arg: 'rate-limit-max',
      },
      timeWindowMs: {
        doc: 'Length of the rate-limit window in milliseconds.',
        format: 'positive-int',
        default: 60000,
        env: 'MOWABILITY_RATE_LIMIT_TIME_WINDOW_MS',
        arg: 'rate-limit-time-window-ms',
      },
    },
    rateLimitStore: {
      doc: 'Where rate-limit counters live: "" (this instance\'s memory; N instances allow N times the limit) or a Redis URL (redis://host:6379) shared by every instance; best given in the service\'s root-only environment file (docs/deployment.md).',
      format: String,
      default: '',
      env: 'MOWABILITY_RATE_LIMIT_STORE',
      arg: 'rate-limit-store',
      sensitive: true,
    },
    rateLimitStoreTimeoutMs: {
      doc:
        "With http.rateLimitStore: how long a request waits for Redis's answer, in milliseconds, before it passes without the shared rate limit (fail open). " +
        'A connection on which Redis stays silent four times as long is dropped and reopened with backoff; meanwhile requests pass at once and /health shows checks.rate_limit_store degraded.',
      format: 'positive-int',
      default: 250,
      env: 'MOWABILITY_RATE_LIMIT_STORE_TIMEOUT_MS',
      arg: 'rate-limit-store-timeout-ms',
    },
    ecowittUploadPath: {
      doc: 'Path of the Ecowitt and Ambient "Customized" upload (a form POST, or a GET with the fields in the URL; the same path with or without the final "/" is accepted); "" switches it off. Stations with format "ecowitt-http" send here (see docs/mqtt.md).',
      format: uploadPathFormat,
      default: '/data/report/',
      env: 'MOWABILITY_HTTP_ECOWITT_UPLOAD_PATH',
      arg: 'http-ecowitt-upload-path',
    },
    metrics: {
      doc: 'Who may read the Prometheus metrics at GET /metrics: off (no route, 404), loopback (only clients on 127.0.0.0/8 or ::1, after http.trustProxy), key (a valid, enabled API key as Bearer header) or open (anyone).',
      format: [...METRICS_ACCESS],
      default: 'loopback' as MetricsAccess,
      env: 'MOWABILITY_HTTP_METRICS',
      arg: 'http-metrics',
    },
    accessLog: {
      doc:
        'One log line per HTTP request (method, path without the query, status, time, client address), written to stdout in blocks of about 4 KiB, ' +
        'at most about 1 s after the request (at once on a terminal; what waits is written when the daemon exits): info (written at the shipped log level; ' +
        "at a home station's few requests a minute it costs nothing), debug (only when log.level is debug or trace; for a busy or public service, " +
        "where the line is a noticeable share of a request's CPU and fills the journal) or off. Errors are logged either way.",
      format: [...ACCESS_LOG_MODES],
      default: 'info' as AccessLogMode,
      env: 'MOWABILITY_HTTP_ACCESS_LOG',
      arg: 'http-access-log',
    },
    accessLogSample: {
      doc:
        'With http.accessLog on: write the line of one in this many answered requests (status below 400), e.g. 100 for a public service, where the ' +
        "line is a noticeable share of a request's CPU. Every refused or failed request (status 400 and above) is written whatever this says. " +
        '1 (the default): every line.',
      format: 'positive-int',
      default: 1,
      env: 'MOWABILITY_HTTP_ACCESS_LOG_SAMPLE',
      arg: 'http-access-log-sample',
    },
    statusPage: {
      doc:
        'The status page at / and its endpoints GET /v1/stations…: open (anyone who reaches the port sees the stations, their index and history: ' +
        'fine on a home LAN), key (the endpoints need a valid, enabled API key as Bearer header; the page asks for it once and keeps it in the browser) ' +
        'or off (no page, no endpoints, 404). POST /v1/calculate needs a key in every mode.',
      format: [...STATUS_PAGE_ACCESS],
      default: 'open' as StatusPageAccess,
      env: 'MOWABILITY_HTTP_STATUS_PAGE',
      arg: 'http-status-page',
    },
    ingressProxy: {
      doc:
        "Addresses (comma-separated) allowed to send X-Ingress-Path: Home Assistant's ingress proxy, which shows the status page inside " +
        'Home Assistant under that path (the Supervisor, 172.30.32.2; the add-on sets it). The page then names its files and endpoints under ' +
        'the path. A request with the header from any other address gets 403. Empty: nobody may send it.',
      format: (value: unknown) => {
        if (typeof value !== 'string') throw new Error('must be IP addresses separated by commas');
        const wrong = value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '' && isIP(entry) === 0);
        if (wrong.length > 0)
          throw new Error(`must be IP addresses separated by commas (not ${JSON.stringify(wrong[0])}), e.g. "172.30.32.2"`);
      },
      default: '',
      env: 'MOWABILITY_HTTP_INGRESS_PROXY',
      arg: 'http-ingress-proxy',
    },
  },
  log: {
    level: {
      doc: 'Log level.',
      format: [...LOG_LEVELS],
      default: 'info' as LogLevel,
      env: 'MOWABILITY_LOG_LEVEL',
      arg: 'log-level',
    },
  },
  timezone: {
    doc: 'IANA time zone for the season and calculated_at, e.g. Europe/Berlin. Empty: the system time zone.',
    format: 'timezone',
    default: '',
    env: 'MOWABILITY_TIMEZONE',
    arg: 'timezone',
  },
  hemisphere: {
    doc: 'Hemisphere of the lawn; decides which months form which season.',
    format: [...HEMISPHERES],
    default: 'north' as Hemisphere,
    env: 'MOWABILITY_HEMISPHERE',
    arg: 'hemisphere',
  },
  lawn: {
    soilType: {
      doc: 'Soil of the lawn; affects how fast it dries and carries load.',
      format: [...SOIL_TYPES],
      default: 'loam' as SoilType,
      env: 'MOWABILITY_LAWN_SOIL_TYPE',
      arg: 'lawn-soil-type',
    },
    mowerClass: {
      doc: 'Kind of mower; heavier mowers need firmer ground.',
      format: [...MOWER_CLASSES],
      default: 'walk' as MowerClass,
      env: 'MOWABILITY_LAWN_MOWER_CLASS',
      arg: 'lawn-mower-class',
    },
    turfType: {
      doc: 'Grass of the lawn: cool_season (ryegrass, bluegrass, fescue; Central/Northern Europe) or warm_season (Bermuda, kikuyu, zoysia: grows best at 27–35 °C, dormant below ~10 °C soil).',
      format: [...TURF_TYPES],
      default: 'cool_season' as TurfType,
      env: 'MOWABILITY_LAWN_TURF_TYPE',
      arg: 'lawn-turf-type',
    },
    fieldCapacityPercent: {
      doc: `Volumetric soil moisture at field capacity in % (the reading of your soil sensor when the lawn has drained a day after soaking rain); soil moisture is rated relative to it. 0, or ${FIELD_CAPACITY_RANGE_PCT.min}–${FIELD_CAPACITY_RANGE_PCT.max}; 0 uses the soil type's default (${SOIL_TYPES.map((type) => `${type} ${FIELD_CAPACITY_PCT[type]}`).join(', ')}; Saxton & Rawls 2006). Set it for an uncalibrated consumer sensor.`,
      format: fieldCapacityFormat,
      default: 0,
      env: 'MOWABILITY_LAWN_FIELD_CAPACITY_PERCENT',
      arg: 'lawn-field-capacity-percent',
    },
  },
  allowSeasonOverride: {
    doc: 'Debug/test only: let a request parameter season (spring|summer|autumn|winter) force the season (season_source "manual").',
    format: 'boolean',
    default: false,
    env: 'MOWABILITY_ALLOW_SEASON_OVERRIDE',
    arg: 'allow-season-override',
  },
};
