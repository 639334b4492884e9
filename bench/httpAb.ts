/**
 * Before/after of the HTTP request path in one interleaved run:
 * `node dist-bench/bench/httpAb.js <before-dir> [rounds] [seconds]`, where
 * <before-dir> holds another build of the benchmarks (e.g. an older commit
 * unpacked with `git archive <commit> | tar -x -C <dir>`, node_modules linked,
 * `npx tsc -p tsconfig.bench.json` run there). Both bench servers run at the
 * same time; each round loads the calculate, 401 and 403 paths and the
 * same-bytes bare route of each server in turn and prints the server's CPU
 * per request and the bare/route CPU ratio, then the medians. Not part of
 * `npm run bench`: it needs the second build.
 *
 * `node dist-bench/bench/httpAb.js --parts [rounds] [seconds]` compares, the
 * same way, this build with parts of the request path left out (access log,
 * rate limit, request metrics, the calculation): what each part costs.
 *
 * `node dist-bench/bench/httpAb.js --profiles [rounds] [seconds]` compares this build's calculate path
 * (rate limit, metrics and access log on) under the home start's node flags and under the public-service
 * profile's (docs/deployment.md, "A public instance"): flags and settings one at a time.
 *
 * With BENCH_HTTP_PROFILE=public the before/after servers run under the public profile (the
 * `public` entry of PROFILES) instead of the home start; BENCH_HTTP_PATHS=calculate loads only
 * that path (a comma list of calculate, unauthorized, disabled).
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fire, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY, wrongKeyLike } from './lib/inputs.js';
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

const PATHS = ['calculate', 'unauthorized', 'disabled'] as const;

function targetOf(ready: ServerReady, name: string): HttpTarget {
  const headers = { 'content-type': 'application/json' };
  const post = (path: string, port: number, authorization?: string): HttpTarget => ({
    name,
    method: 'POST',
    path,
    port,
    headers: authorization === undefined ? headers : { ...headers, authorization },
    body: HTTP_BENCH_BODY,
  });
  if (name === 'calculate') return post('/v1/calculate', ready.port, `Bearer ${ready.key}`);
  if (name === 'unauthorized') return post('/v1/calculate', ready.port, `Bearer ${wrongKeyLike(ready.key)}`);
  if (name === 'disabled') return post('/v1/calculate', ready.port, `Bearer ${ready.disabledKey}`);
  return post(`/same/${{ sameCalculate: 'calculate', same401: '401', same403: '403' }[name] ?? name}`, ready.barePort);
}

const BARE_OF: Record<string, string> = { calculate: 'sameCalculate', unauthorized: 'same401', disabled: 'same403' };

async function cpuPerRequest(server: ForkedServer<ServerReady>, name: string, durationS: number): Promise<number> {
  const pid = server.child.pid ?? 0;
  const before = readCpuMicros(pid);
  const round = await fire(0, targetOf(server.ready, name), { durationS, connections: 20, pipelining: 1 });
  return round.total > 0 ? (readCpuMicros(pid) - before) / round.total : Number.NaN;
}

/** `--parts`: this build with parts of the path left out (bench/servers/httpServer.ts BENCH_HTTP_WITHOUT). */
const PARTS: Record<string, string> = {
  shipped: '',
  'lines one by one': 'blocks',
  'no access log': 'accessLog',
  'no rate limit': 'rateLimit',
  'no metrics': 'metrics',
  'none of the three': 'accessLog,rateLimit,metrics',
  'none, calculation once': 'accessLog,rateLimit,metrics,calculation',
};

/** `--profiles`: the home start's flags against the public-service profile's, one change at a time. */
const withoutSemiSpace = (args: readonly string[]): string[] => args.filter((arg) => !arg.startsWith('--max-semi-space-size'));
const PROFILES: Record<string, { nodeArgs: (shipped: readonly string[]) => string[]; env: Record<string, string> }> = {
  'home flags': { nodeArgs: (shipped) => [...shipped], env: {} },
  'semi-space 16': { nodeArgs: (shipped) => [...withoutSemiSpace(shipped), '--max-semi-space-size=16'], env: {} },
  'semi-space 16, log 1/100': {
    nodeArgs: (shipped) => [...withoutSemiSpace(shipped), '--max-semi-space-size=16'],
    env: { MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: '100' },
  },
  'home flags, log 1/100': { nodeArgs: (shipped) => [...shipped], env: { MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: '100' } },
};
/** docs/deployment.md's public instance: semi-space 16 and one access line in 100 (the limiter and metrics on). */
const PUBLIC_PROFILE = PROFILES['semi-space 16, log 1/100']!;

async function startServers(first: string): Promise<Record<string, ForkedServer<ServerReady>>> {
  const serverPath = (root: string): string => join(root, 'dist-bench', 'bench', 'servers', 'httpServer.js');
  const thisBuild = join(import.meta.dirname, '..', '..');
  // All with this checkout's shipped node flags, so only the code differs.
  const shipped = shippedStart(thisBuild);
  const profile = process.env.BENCH_HTTP_PROFILE === 'public' ? PUBLIC_PROFILE : undefined;
  const fork = (root: string, without = '') =>
    forkServer<ServerReady>(serverPath(root), [], 15_000, {
      execArgv: profile ? profile.nodeArgs(shipped.nodeArgs) : shipped.nodeArgs,
      env: { ...shipped.env, ...profile?.env, BENCH_HTTP_WITHOUT: without },
    });
  if (first === '--profiles') {
    const servers: Record<string, ForkedServer<ServerReady>> = {};
    for (const [label, profile] of Object.entries(PROFILES))
      servers[label] = await forkServer<ServerReady>(serverPath(thisBuild), [], 15_000, {
        execArgv: profile.nodeArgs(shipped.nodeArgs),
        env: { ...shipped.env, ...profile.env },
      });
    return servers;
  }
  if (first !== '--parts') return { before: await fork(first), after: await fork(thisBuild) };
  const servers: Record<string, ForkedServer<ServerReady>> = {};
  for (const [label, without] of Object.entries(PARTS)) servers[label] = await fork(thisBuild, without);
  return servers;
}

async function main(): Promise<void> {
  const [first, roundsArg, secondsArg] = process.argv.slice(2);
  if (first === undefined) throw new Error('usage: node dist-bench/bench/httpAb.js <before-dir>|--parts [rounds] [seconds]');
  const rounds = Number(roundsArg ?? 4);
  const seconds = Number(secondsArg ?? 4);
  const servers = await startServers(first);
  const chosen = process.env.BENCH_HTTP_PATHS?.split(',').filter((name) => (PATHS as readonly string[]).includes(name));
  const paths: readonly string[] = first === '--profiles' ? ['calculate'] : chosen?.length ? chosen : PATHS;
  const ratios = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  try {
    for (const server of Object.values(servers))
      for (const name of [...paths, ...Object.values(BARE_OF)]) await cpuPerRequest(server, name, 1);
    for (let round = 1; round <= rounds; round++) {
      for (const [label, server] of Object.entries(servers)) {
        for (const name of paths) {
          const bare = await cpuPerRequest(server, BARE_OF[name] ?? name, seconds);
          const route = await cpuPerRequest(server, name, seconds);
          const key = `${label} ${name}`;
          ratios.set(key, [...(ratios.get(key) ?? []), bare / route]);
          cpus.set(key, [...(cpus.get(key) ?? []), route]);
          cpus.set(`${key} bare`, [...(cpus.get(`${key} bare`) ?? []), bare]);
          process.stderr.write(
            `round ${round} ${key}: ${route.toFixed(0)} µs, bare ${bare.toFixed(0)} µs, ratio ${(bare / route).toFixed(2)}\n`,
          );
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const list = (values: readonly number[], digits: number): string => values.map((v) => v.toFixed(digits)).join('/');
  for (const [key, values] of ratios) {
    const route = cpus.get(key) ?? [];
    const bare = cpus.get(`${key} bare`) ?? [];
    process.stdout.write(
      `${key}: bare/route CPU ${median(values).toFixed(2)}x (rounds ${list(values, 2)}); route ${median(route).toFixed(0)} µs (${list(route, 0)}); bare ${median(bare).toFixed(0)} µs (${list(bare, 0)})\n`,
    );
  }
  process.stdout.write(`load average (1 min): before ${loadBefore.toFixed(2)}, after ${(loadavg()[0] ?? Number.NaN).toFixed(2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
