/**
 * The Prometheus metrics of the daemon (prom-client): HTTP requests by route
 * and status, the calculation latency, process metrics, and the MQTT side's
 * counters, read at scrape time from an injected function so that the MQTT
 * service does not know about metrics. One registry per instance (no global
 * state), so tests and a restarted app never collide.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestMetrics } from '../http/metricsRoute.js';
import { CALCULATE_PATH } from '../http/paths.js';
import { registerDaemonMetrics } from './daemonMetrics.js';
import { DEFAULT_MONITOR_RESOLUTION_MS, registerEventLoopDelay } from './eventLoopDelay.js';
import type { MetricsOptions } from './options.js';
import type { MqttStats } from '../mqtt/service.js';

export const METRIC_PREFIX = 'mowability_';

/** Seconds; a calculation takes well under a millisecond of CPU, the tail comes from a loaded Pi. */
const CALCULATE_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Routes of the app are few and fixed; anything the router did not match shares one label value. */
export const UNMATCHED_ROUTE = 'unmatched';

export type { MetricsOptions };

/** What HTTP counts and serves (its /metrics plugin declares the shape), plus the registry itself. */
export interface Metrics extends RequestMetrics {
  readonly registry: Registry;
}

type MqttGaugeName = 'connected' | 'brokerRetainedMessages' | 'brokerRetainedBytes' | 'brokerInflightBytes' | 'brokerClients';
/** The clock's figures have their own metrics (src/metrics/daemonMetrics.ts), with MQTT on or off. */
type MqttCounterName = Exclude<keyof MqttStats, MqttGaugeName | 'clockSteps' | 'clockSync' | 'units'>;

/** Each MQTT counter once: metric name and help. */
const MQTT_COUNTERS: Record<MqttCounterName, [name: string, help: string]> = {
  received: ['mqtt_station_messages_received_total', 'Station messages handled (one per matching station).'],
  accepted: ['mqtt_station_messages_accepted_total', 'Station messages accepted into the history.'],
  rejected: ['mqtt_station_messages_rejected_total', 'Station messages refused (unparsable, implausible, too large).'],
  ignored: ['mqtt_station_messages_ignored_total', "Valid messages not meant for the station (neighbours' sensors, unmapped topics)."],
  duplicates: ['mqtt_station_messages_duplicate_total', 'Station messages dropped as duplicates.'],
  droppedValues: ['mqtt_station_values_dropped_total', 'Single values dropped as implausible while the rest of the reading was used.'],
  statesPublished: ['mqtt_states_published_total', 'Station state messages published.'],
  historyCommits: ['history_commits_total', 'History write transactions committed to SQLite.'],
  unitFailures: [
    'station_unit_failures_total',
    "Station unit hooks that threw; caught, logged with the unit and station, and named in the station's state (unit_errors).",
  ],
  brokerRejectedPublishes: ['broker_rejected_publishes_total', 'Publishes the embedded broker refused (ACL).'],
  brokerRefusedConnections: [
    'broker_refused_connections_total',
    'Connections the embedded broker closed because broker.maxClients were open.',
  ],
  brokerRetainedRefused: [
    'broker_retained_refused_total',
    'Retained publishes of other clients refused by the broker.maxRetained* limits.',
  ],
  brokerRetainDropped: [
    'broker_retain_dropped_total',
    'Retained publishes of other clients to command or relay topics, delivered without the retain flag.',
  ],
  brokerSubscribeRefused: [
    'broker_subscribe_refused_total',
    'SUBSCRIBE packets refused by broker.maxFiltersPerSubscribe or broker.maxSubscriptionsPerClient.',
  ],
  brokerQueueDropped: [
    'broker_queue_dropped_total',
    'QoS 1/2 messages not queued for an offline persistent session past broker.maxQueued*PerSession.',
  ],
  brokerSlowClientsDropped: [
    'broker_slow_clients_dropped_total',
    'Clients disconnected for leaving too much unread (broker.maxOutgoingBytesPerClient, broker.slowClientSeconds), so that they hold back nobody else.',
  ],
  brokerInflightRefused: [
    'broker_inflight_refused_total',
    'Inbound QoS 2 messages refused (sender disconnected) by broker.maxInflightBytes.',
  ],
  brokerSessionsEvicted: [
    'broker_sessions_evicted_total',
    'Offline persistent sessions dropped to make room under broker.maxPersistentSessions.',
  ],
};

const MQTT_GAUGES: Record<MqttGaugeName, [name: string, help: string]> = {
  connected: ['mqtt_connected', '1 while the bridge is connected to its broker.'],
  brokerRetainedMessages: ['broker_retained_messages', 'Retained messages of other clients held by the embedded broker.'],
  brokerRetainedBytes: ['broker_retained_bytes', 'Payload bytes of those retained messages.'],
  brokerInflightBytes: ['broker_inflight_bytes', 'Payload bytes of inbound QoS 2 messages awaiting PUBREL, all clients together.'],
  brokerClients: ['broker_clients', 'Open client connections of the embedded broker (the daemon uses it in process, without one).'],
};

/** A counter whose count another part owns; a scrape copies it (reset + inc keeps the counter type). */
function copiedCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name: METRIC_PREFIX + name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function registerMqttMetrics(registry: Registry, source: () => MqttStats | undefined): void {
  for (const [field, [name, help]] of Object.entries(MQTT_COUNTERS) as Array<[MqttCounterName, [string, string]]>) {
    copiedCounter(registry, name, help, () => source()?.[field] ?? 0);
  }
  for (const [field, [name, help]] of Object.entries(MQTT_GAUGES) as Array<[keyof typeof MQTT_GAUGES, [string, string]]>) {
    new Gauge({
      name: METRIC_PREFIX + name,
      help,
      registers: [registry],
      collect() {
        this.set(Number(source()?.[field] ?? 0));
      },
    });
  }
}

/** The counters the station units declare (StationUnit.metrics), read from their per-unit stats. */
function registerUnitMetrics(
  registry: Registry,
  source: () => MqttStats | undefined,
  units: NonNullable<MetricsOptions['unitMetrics']>,
): void {
  for (const {
    unit,
    counter,
    metric: [name, help],
  } of units) {
    copiedCounter(registry, name, help, () => source()?.units[unit]?.[counter] ?? 0);
  }
}

/** Memory of ArrayBuffers and Buffers (part of prom-client's external memory), which the soak breaks down. */
function registerArrayBuffers(registry: Registry): void {
  new Gauge({
    name: 'nodejs_array_buffers_bytes',
    help: 'Memory allocated for ArrayBuffers and Buffers in bytes (process.memoryUsage().arrayBuffers, included in nodejs_external_memory_bytes).',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });
}

interface RequestCount {
  readonly labels: { readonly route: string; readonly method: string; readonly status: string };
  count: number;
}

/**
 * The answered requests by route, method and status, counted in plain maps on the request path.
 * prom-client's `inc(labels)` hashes the label object on every call (sorting and joining its
 * names and values into a key: 2.6 % of the calculate route's CPU in bench/NOTES.md "The
 * calculate route part by part under the public profile"); here a request is three Map lookups
 * on values the request already has, and the label object and the status text are made once per
 * combination. The combinations are few (the app's routes × methods × statuses), so this stays
 * small. `entries` keeps the first-seen order, which is the order prom-client's hash map would
 * have written the samples in.
 */
export class RequestCounts {
  readonly entries: RequestCount[] = [];
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestCount>>>();

  count(route: string, method: string, statusCode: number): RequestCount {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map<string, Map<number, RequestCount>>()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map<number, RequestCount>()));
    let entry = byStatus.get(statusCode);
    if (entry === undefined) {
      entry = { labels: { route, method, status: String(statusCode) }, count: 0 };
      byStatus.set(statusCode, entry);
      this.entries.push(entry);
    }
    entry.count++;
    return entry;
  }
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: DEFAULT_MONITOR_RESOLUTION_MS });
    registerEventLoopDelay(registry, undefined, options.loopTicks);
    registerArrayBuffers(registry);
  }
  const requestCounts = new RequestCounts();
  new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: `HTTP requests by route (path pattern; "${UNMATCHED_ROUTE}" for unknown paths), method and status code.`,
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
    collect() {
      // The scrape copies the plain counts in; reset + inc in first-seen order gives the
      // exposition prom-client wrote when the request path incremented it directly.
      this.reset();
      for (const { labels, count } of requestCounts.entries) this.inc(labels, count);
    },
  });
  const calculate = new Histogram({
    name: `${METRIC_PREFIX}calculate_duration_seconds`,
    help: 'Time from request to response of /v1/calculate, by status code.',
    labelNames: ['status'] as const,
    buckets: CALCULATE_BUCKETS_S,
    registers: [registry],
  });
  if (options.mqttStats) {
    registerMqttMetrics(registry, options.mqttStats);
    registerUnitMetrics(registry, options.mqttStats, options.unitMetrics ?? []);
  }
  registerDaemonMetrics(registry, options);

  return {
    registry,
    observeRequest({ route, method, statusCode, seconds }) {
      const entry = requestCounts.count(route ?? UNMATCHED_ROUTE, method, statusCode);
      if (route === CALCULATE_PATH) calculate.observe({ status: entry.labels.status }, seconds);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
