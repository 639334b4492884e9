/**
 * Issue 42 goal 5, the public-service profile, judged against the fair baseline:
 * `node dist-bench/bench/httpPublic.js [rounds] [seconds] [before-dir]`.
 *
 * Servers (bench/servers/httpServer.ts: rate limit, request metrics and the access log on), interleaved:
 *   public  this build under docs/deployment.md's public profile (`--max-semi-space-size=16`, one access line in 100)
 *   home    this build under the home start's flags (package.json "start": `--max-semi-space-size=2`, …), all lines
 *   before  with a third argument: that build under the public profile (a before/after of the product's code)
 *
 * Per round and server, server CPU per request (from /proc/<pid>/stat) of
 *   calculate      the real POST /v1/calculate with a valid key
 *   full           /same/calculateFull: a bare fastify route sent the same request (the `authorization` header
 *                  included) that parses the same JSON body and answers the same bytes and the same headers (the
 *                  limiter's three `x-ratelimit-*` included): the fair baseline
 *   bytesOnly      /same/calculate, the earlier rounds' baseline: same body bytes, three headers fewer, and sent
 *                  without the `authorization` header
 * then p99 at a fixed 2000 req/s (autocannon `overallRate`, which corrects for coordinated omission) of calculate
 * and both baselines on the public server, interleaved. Prints medians of per-round ratios and the load average.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fire, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { forkServer, type ForkedServer } from './lib/ipc.js';
import { shippedStart } from './lib/shippedStart.js';
import { readCpuMicros } from './lib/proc.js';
import { median } from './lib/stats.js';

interface ServerReady {
  port: number;
  barePort: number;
  key: string;
  disabledKey: string;
}

const TARGETS = ['calculate', 'full', 'bytesOnly'] as const;
type TargetName = (typeof TARGETS)[number];

function targetOf(ready: ServerReady, name: TargetName): HttpTarget {
  const json = { 'content-type': 'application/json' };
  const authorized = { ...json, authorization: `Bearer ${ready.key}` };
  if (name === 'calculate')
    return { name, method: 'POST', path: '/v1/calculate', port: ready.port, headers: authorized, body: HTTP_BENCH_BODY };
  if (name === 'full')
    return { name, method: 'POST', path: '/same/calculateFull', port: ready.barePort, headers: authorized, body: HTTP_BENCH_BODY };
  return { name, method: 'POST', path: '/same/calculate', port: ready.barePort, headers: json, body: HTTP_BENCH_BODY };
}

const withoutSemiSpace = (args: readonly string[]): string[] => args.filter((arg) => !arg.startsWith('--max-semi-space-size'));

async function cpuPerRequest(server: ForkedServer<ServerReady>, name: TargetName, durationS: number): Promise<number> {
  const pid = server.child.pid ?? 0;
  const before = readCpuMicros(pid);
  const round = await fire(0, targetOf(server.ready, name), { durationS, connections: 20, pipelining: 1 });
  if (round.non2xx > 0 || round.errors > 0) throw new Error(`${name}: ${round.non2xx} non-2xx, ${round.errors} errors`);
  return round.total > 0 ? (readCpuMicros(pid) - before) / round.total : Number.NaN;
}

async function main(): Promise<void> {
  const [roundsArg, secondsArg, beforeDir] = process.argv.slice(2);
  const rounds = Number(roundsArg ?? 5);
  const seconds = Number(secondsArg ?? 4);
  const thisBuild = join(import.meta.dirname, '..', '..');
  const serverPath = (root: string): string => join(root, 'dist-bench', 'bench', 'servers', 'httpServer.js');
  const shipped = shippedStart(thisBuild);
  const publicArgs = [...withoutSemiSpace(shipped.nodeArgs), '--max-semi-space-size=16'];
  const publicEnv = { ...shipped.env, MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: '100' };
  const servers: Record<string, ForkedServer<ServerReady>> = {
    public: await forkServer<ServerReady>(serverPath(thisBuild), [], 15_000, { execArgv: publicArgs, env: publicEnv }),
    home: await forkServer<ServerReady>(serverPath(thisBuild), [], 15_000, { execArgv: shipped.nodeArgs, env: { ...shipped.env } }),
  };
  if (beforeDir)
    servers.before = await forkServer<ServerReady>(serverPath(beforeDir), [], 15_000, { execArgv: publicArgs, env: publicEnv });
  process.stdout.write(`public flags: ${publicArgs.join(' ')} (access log 1 in 100); home flags: ${shipped.nodeArgs.join(' ')}\n`);
  const cpu = new Map<string, number[]>();
  const push = (key: string, value: number) => cpu.set(key, [...(cpu.get(key) ?? []), value]);
  const loads: number[] = [loadavg()[0] ?? Number.NaN];
  try {
    for (const server of Object.values(servers)) for (const name of TARGETS) await cpuPerRequest(server, name, 1).catch(() => Number.NaN);
    for (let round = 1; round <= rounds; round++) {
      for (const [label, server] of Object.entries(servers)) {
        const line: string[] = [];
        for (const name of TARGETS) {
          // A build without /same/calculateFull (an older before-dir) answers 404: skip that baseline there.
          const value = await cpuPerRequest(server, name, seconds).catch(() => Number.NaN);
          push(`${label} ${name}`, value);
          line.push(`${name} ${value.toFixed(0)} µs`);
        }
        process.stderr.write(`round ${round} ${label}: ${line.join(', ')}; load ${loadavg()[0]?.toFixed(2)}\n`);
      }
      loads.push(loadavg()[0] ?? Number.NaN);
    }
    const list = (values: readonly number[], digits: number): string => values.map((v) => v.toFixed(digits)).join('/');
    for (const label of Object.keys(servers)) {
      const route = cpu.get(`${label} calculate`) ?? [];
      for (const bare of ['full', 'bytesOnly'] as const) {
        const base = cpu.get(`${label} ${bare}`) ?? [];
        const ratios = route.map((r, i) => (base[i] ?? Number.NaN) / r);
        process.stdout.write(
          `${label}: ${bare}/calculate CPU ${median(ratios).toFixed(2)}x (rounds ${list(ratios, 2)}); calculate ${median(route).toFixed(0)} µs (${list(route, 0)}); ${bare} ${median(base).toFixed(0)} µs (${list(base, 0)})\n`,
        );
      }
    }
    // p99 at a fixed rate, on the public server: calculate and both baselines, interleaved.
    const fixedShape = { durationS: seconds, connections: 20, pipelining: 1, overallRate: 2000 };
    const p99 = new Map<TargetName, number[]>();
    const served = new Map<TargetName, number[]>();
    const server = servers.public!;
    for (const name of TARGETS) await fire(0, targetOf(server.ready, name), { ...fixedShape, durationS: 1 });
    for (let round = 1; round <= rounds; round++) {
      for (const name of TARGETS) {
        const result = await fire(0, targetOf(server.ready, name), fixedShape);
        p99.set(name, [...(p99.get(name) ?? []), result.latencyP99Ms]);
        served.set(name, [...(served.get(name) ?? []), result.rps]);
        process.stderr.write(`p99 round ${round} ${name}: ${result.latencyP99Ms} ms at ${Math.round(result.rps)} req/s\n`);
      }
      loads.push(loadavg()[0] ?? Number.NaN);
    }
    const route = p99.get('calculate') ?? [];
    for (const bare of ['full', 'bytesOnly'] as const) {
      const base = p99.get(bare) ?? [];
      const ratios = route.map((r, i) => r / (base[i] ?? Number.NaN));
      process.stdout.write(
        `public p99 at 2000 req/s: calculate/${bare} ${median(ratios).toFixed(2)}x (rounds ${list(ratios, 2)}); calculate ${median(route)} ms (${list(route, 0)}); ${bare} ${median(base)} ms (${list(base, 0)}); served ${list(served.get('calculate') ?? [], 0)} / ${list(served.get(bare) ?? [], 0)} req/s\n`,
      );
    }
    process.stdout.write(`load average (1 min) over the run: ${list(loads, 2)}\n`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
