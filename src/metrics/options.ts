/** What the metrics registry reads at scrape time (src/metrics/registry.ts). */
import type { ConnectionCounters } from '../http/connectionCounters.js';
import type { UploadCount } from '../http/uploadsCounters.js';
import type { MqttStats } from '../mqtt/service.js';
import type { IngestCounters } from '../station/stationIngest.js';
import type { UnitMetric } from '../station/unit.js';
import type { ClockWatchStats, TickSource } from '../util/clockWatch.js';

export interface MetricsOptions {
  /** The MQTT bridge's counters; undefined while MQTT is off or starting. */
  mqttStats?: () => MqttStats | undefined;
  /** What the HTTP connection pool and pipelining bound did: connections refused, evicted, paused, dropped. */
  httpConnections?: () => Readonly<ConnectionCounters>;
  /** What became of direct station uploads, by protocol, station and outcome. */
  uploads?: () => readonly UploadCount[];
  /** What became of each station's messages and readings (MQTT and uploads), by station id. */
  stationMessages?: () => ReadonlyMap<string, Readonly<IngestCounters>>;
  /** Readings accepted into each station's history (MQTT and uploads), by station id. */
  stationReadings?: () => ReadonlyMap<string, number>;
  /** The SQLite database file; its size (with the write-ahead log) is read at scrape time. */
  databasePath?: string;
  /** The shared servers of several instances (PostgreSQL `store`, Redis `rate_limit_store`) as last seen; none for a home install. */
  sharedStores?: () => ReadonlyArray<{ name: string; unreachableSinceMs: number | undefined }>;
  /** Clock steps seen and the system clock's NTP synchronisation (src/util/clockWatch.ts). */
  clock?: () => ClockWatchStats | undefined;
  /** Counters the station units export (StationUnit.metrics), read from `mqttStats().units`. */
  unitMetrics?: ReadonlyArray<{ unit: string; counter: string; metric: UnitMetric }>;
  /** Node.js process metrics (CPU, memory, event loop, GC); on in the daemon. */
  processMetrics?: boolean;
  /** The daemon's once-a-second heartbeat: the event-loop delay is sampled on it instead of an own timer. */
  loopTicks?: TickSource;
}
