/**
 * What /health says about the shared servers of a multi-instance setup
 * (PostgreSQL for the service tables, Redis for the rate limit). An outage
 * shorter than the grace (store.outageGraceSeconds) is reported as `degraded`
 * but keeps health at 200: keys, blocks and maintenance are served from memory,
 * the usage counts wait for the next write and requests pass without the shared
 * rate limit, so a supervisor restarting every instance during a failover would
 * only make things worse. A longer one is `error` and fails health. Pure.
 */
export interface SharedServer {
  /** The check's name in /health's checks (store, rate_limit_store). */
  name: string;
  /** What the operator reads, e.g. "PostgreSQL (store.url)". */
  label: string;
  /** Epoch ms since when the server is unreachable; undefined while it answers. */
  unreachableSinceMs: number | undefined;
  /** Set while the server is connected but did not answer within this many ms (stalled), as opposed to refusing connections. */
  notAnsweringWithinMs?: number | undefined;
  /** What the instance does without it meanwhile, e.g. "requests pass without the shared rate limit". */
  meanwhile?: string;
}

export interface SharedCheck {
  /** degraded: unavailable for less than the grace, worked around; error: longer, health fails. */
  status: 'ok' | 'degraded' | 'error';
  message?: string;
}

export interface SharedStatus {
  checks: Record<string, SharedCheck>;
  /** True once an outage lasts longer than the grace: health answers 503. */
  failing: boolean;
}

export function sharedStatus(servers: readonly SharedServer[], nowMs: number, graceMs: number): SharedStatus {
  const checks: Record<string, SharedCheck> = {};
  let failing = false;
  for (const server of servers) {
    if (server.unreachableSinceMs === undefined) {
      checks[server.name] = { status: 'ok' };
      continue;
    }
    const seconds = Math.max(0, Math.round((nowMs - server.unreachableSinceMs) / 1000));
    const tolerated = nowMs - server.unreachableSinceMs <= graceMs;
    if (!tolerated) failing = true;
    const what = server.notAnsweringWithinMs === undefined ? 'unreachable' : `not answering within ${server.notAnsweringWithinMs} ms`;
    const meanwhile = server.meanwhile === undefined ? '' : `; ${server.meanwhile}`;
    checks[server.name] = {
      status: tolerated ? 'degraded' : 'error',
      message: `${server.label} ${what} for ${seconds} s${meanwhile}; ${tolerated ? `tolerated for ${Math.round(graceMs / 1000)} s (retrying with backoff)` : 'longer than store.outageGraceSeconds'}`,
    };
  }
  return { checks, failing };
}
