/**
 * autocannon driver: one warm-up round per target, then interleaved measured
 * rounds (A B C D, A B C D, …) so drift on the shared 2-core machine hits
 * every target alike.
 */
import autocannon from 'autocannon';
import { LOOPBACK } from './net.js';
import { readCpuMicros } from './proc.js';

export interface HttpTarget {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Another server than the one `port` names (e.g. a bare fastify instance in the same process). */
  port?: number;
}

export interface LoadShape {
  durationS: number;
  connections: number;
  pipelining: number;
  /** Fixed total request rate (autocannon corrects latencies for coordinated omission); omitted: as fast as possible. */
  overallRate?: number;
}

export interface HttpRound {
  /** Mean responses per second over the round (any status). */
  rps: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /** Server CPU (user + system) per response in µs, when the server's pid was given; the load generator is another process. */
  cpuMicrosPerRequest?: number;
}

export async function fire(port: number, target: HttpTarget, shape: LoadShape): Promise<HttpRound> {
  const options: Parameters<typeof autocannon>[0] = {
    url: `http://${LOOPBACK}:${target.port ?? port}${target.path}`,
    method: target.method,
    connections: shape.connections,
    pipelining: shape.pipelining,
    duration: shape.durationS,
    timeout: 10,
  };
  if (shape.overallRate !== undefined) options.overallRate = shape.overallRate;
  if (target.headers) options.headers = target.headers;
  if (target.body !== undefined) options.body = target.body;
  const result = await autocannon(options);
  const statusCounts: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = Number(stat.count);
  return {
    rps: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
  };
}

/** Warm-up (results discarded), then `rounds` interleaved rounds; returns the rounds per target name. */
export async function interleavedRounds(
  port: number,
  targets: readonly HttpTarget[],
  options: { rounds: number; shape: LoadShape; warmupS: number; log?: (message: string) => void; serverPid?: number },
): Promise<Map<string, HttpRound[]>> {
  const pid = options.serverPid;
  for (const target of targets) await fire(port, target, { ...options.shape, durationS: options.warmupS });
  const rounds = new Map<string, HttpRound[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= options.rounds; round++) {
    for (const target of targets) {
      const cpuBefore = pid === undefined ? 0 : readCpuMicros(pid);
      const result = await fire(port, target, options.shape);
      if (pid !== undefined && result.total > 0) result.cpuMicrosPerRequest = (readCpuMicros(pid) - cpuBefore) / result.total;
      rounds.get(target.name)?.push(result);
      const cpu = result.cpuMicrosPerRequest === undefined ? '' : `, ${Math.round(result.cpuMicrosPerRequest)} µs CPU/req`;
      options.log?.(
        `round ${round} ${target.name}: ${Math.round(result.rps)} req/s${cpu}, p99 ${result.latencyP99Ms} ms, non-2xx ${result.non2xx}`,
      );
    }
  }
  return rounds;
}
