/**
 * What the connection pool (./connectionPool.ts) and the pipelining bound (./pipelineBound.ts) did,
 * counted for /metrics (src/metrics reads them at scrape time) and the tests. Created by the daemon
 * and handed to both the HTTP app and the metrics, like the upload counters.
 */
export interface ConnectionCounters {
  /** New connections closed unserved, by why: the client was at its share, or the cap was full with nothing idle. */
  refused: { share: number; cap: number };
  /** Idle connections closed to make room, by why: for the same client at its share, or under pressure at the cap. */
  evicted: { share: number; cap: number };
  /** Connections no longer read because http.maxPipelinedRequests requests were unanswered. */
  paused: number;
  /** Connections closed with far more pipelined requests waiting than http.maxPipelinedRequests. */
  dropped: number;
}

export function createConnectionCounters(): ConnectionCounters {
  return { refused: { share: 0, cap: 0 }, evicted: { share: 0, cap: 0 }, paused: 0, dropped: 0 };
}
