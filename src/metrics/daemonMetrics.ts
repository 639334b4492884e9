/**
 * Metrics read at scrape time from the daemon's parts: direct uploads by
 * protocol, station and outcome; accepted readings per station; the size of
 * the database on disk. Each only when its source is given.
 */
import { stat } from 'node:fs/promises';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ConnectionCounters } from '../http/connectionCounters.js';
import type { MetricsOptions } from './options.js';

const PREFIX = 'mowability_';
/** SQLite's write-ahead log and shared-memory index live beside the database file. */
const DATABASE_FILE_SUFFIXES = ['', '-wal', '-shm'];

async function fileBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** The HTTP connection pool's and pipelining bound's counters (src/http/connectionCounters.ts). */
function registerHttpConnectionMetrics(registry: Registry, source: () => Readonly<ConnectionCounters>): void {
  new Counter({
    name: `${PREFIX}http_connections_closed_total`,
    help:
      'HTTP connections the server closed to protect the others, by action and reason: refused (a new connection closed unserved: share = the client already held ' +
      'http.maxConnectionsPerAddress busy connections, cap = http.maxConnections reached with nothing idle to close), evicted (an idle connection closed for a new one: ' +
      'share = for the same client, cap = under pressure near http.maxConnections), dropped (pipelining = far more than http.maxPipelinedRequests requests waiting unread).',
    labelNames: ['action', 'reason'] as const,
    registers: [registry],
    collect() {
      const counts = source();
      this.reset();
      for (const reason of ['share', 'cap'] as const) {
        this.inc({ action: 'refused', reason }, counts.refused[reason]);
        this.inc({ action: 'evicted', reason }, counts.evicted[reason]);
      }
      this.inc({ action: 'dropped', reason: 'pipelining' }, counts.dropped);
    },
  });
  new Counter({
    name: `${PREFIX}http_connections_paused_total`,
    help: 'Times an HTTP connection was no longer read because http.maxPipelinedRequests of its requests were unanswered (read again once they are).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source().paused);
    },
  });
}

export function registerDaemonMetrics(registry: Registry, options: MetricsOptions): void {
  const { uploads, stationReadings, stationMessages, databasePath, httpConnections } = options;
  if (httpConnections) registerHttpConnectionMetrics(registry, httpConnections);
  if (stationMessages) {
    new Counter({
      name: `${PREFIX}station_messages_total`,
      help: "What became of each station's messages and readings (MQTT and uploads), by station and outcome: received, accepted, rejected, ignored, duplicates, droppedValues (single values dropped as implausible).",
      labelNames: ['station', 'outcome'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [station, counts] of stationMessages()) {
          for (const [outcome, count] of Object.entries(counts)) this.inc({ station, outcome }, count);
        }
      },
    });
  }
  if (uploads) {
    new Counter({
      name: `${PREFIX}uploads_total`,
      help: 'Direct station uploads (HTTP) by protocol, station ("(unmatched)" when no station matched) and outcome (accepted, duplicate, or why it was refused).',
      labelNames: ['protocol', 'station', 'outcome'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { protocol, station, outcome, count } of uploads()) this.inc({ protocol, station, outcome }, count);
      },
    });
  }
  if (stationReadings) {
    new Counter({
      name: `${PREFIX}station_readings_accepted_total`,
      help: "Readings accepted into a station's history (MQTT and uploads), by station.",
      labelNames: ['station'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [station, count] of stationReadings()) this.inc({ station }, count);
      },
    });
  }
  if (databasePath !== undefined) {
    new Gauge({
      name: `${PREFIX}database_bytes`,
      help: 'Bytes of the SQLite database on disk (database file, write-ahead log and its index).',
      registers: [registry],
      async collect() {
        const sizes = await Promise.all(DATABASE_FILE_SUFFIXES.map((suffix) => fileBytes(databasePath + suffix)));
        this.set(sizes.reduce((sum, size) => sum + size, 0));
      },
    });
  }
  if (options.clock) registerClockMetrics(registry, options.clock);
  if (options.sharedStores) registerSharedStoreMetrics(registry, options.sharedStores);
}

function registerSharedStoreMetrics(registry: Registry, sharedStores: NonNullable<MetricsOptions['sharedStores']>): void {
  new Gauge({
    name: `${PREFIX}shared_store_up`,
    help: 'A shared server answers: 1 yes, 0 unreachable or not answering in time (degraded or error in /health), by check (store: PostgreSQL, rate_limit_store: Redis).',
    labelNames: ['check'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const server of sharedStores()) this.set({ check: server.name }, server.unreachableSinceMs === undefined ? 1 : 0);
    },
  });
}

const SYNC_VALUE = { synchronized: 1, unsynchronized: 0, unknown: -1 } as const;

function registerClockMetrics(registry: Registry, clock: NonNullable<MetricsOptions['clock']>): void {
  new Counter({
    name: `${PREFIX}clock_steps_total`,
    help: 'Steps of the system wall clock seen against the monotonic clock (NTP setting the time, a restored fake-hwclock).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(clock()?.clockSteps ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}clock_synchronized`,
    help: 'The system clock is NTP-synchronised: 1 yes, 0 not yet, -1 unknown (no systemd-timesyncd marker).',
    registers: [registry],
    collect() {
      this.set(SYNC_VALUE[clock()?.clockSync ?? 'unknown']);
    },
  });
}
