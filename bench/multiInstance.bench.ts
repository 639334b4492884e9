/**
 * POST /v1/calculate throughput of one and of two instances on the shared store, against the bare
 * route of the HTTP benchmark measured in the same run: two real daemons (`node dist/cli/main.js
 * serve`) on one PostgreSQL (store.kind postgres) and one Redis (http.rateLimitStore), the servers
 * from the Debian packages (bench/lib/sharedServers.ts), one key added with the CLI; beside them
 * bench/servers/httpServer.ts's bare fastify route `/same/calculate`, which answers the same bytes
 * as a real calculation without the service's work (no key, rate limit, log or calculation). Each
 * round loads the bare route, instance A alone, then A and B at once (one autocannon per server,
 * the same connections each), interleaved; every figure is the median of per-round ratios, with
 * the servers' CPU per request beside it. The load generator runs in this process: on a machine
 * with fewer free cores than two daemons and the generator need, the two-instance ratio says how
 * much the shared store costs, not how far two machines would scale (bench/NOTES.md).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { runCli } from './lib/cli.js';
import { spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { fire, type HttpRound, type HttpTarget, type LoadShape } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { forkServer, type ForkedServer } from './lib/ipc.js';
import { readCpuMicros } from './lib/proc.js';
import { measured, type Figure } from './lib/report.js';
import { PostgresServer, RedisServer } from './lib/sharedServers.js';
import { shippedStart } from './lib/shippedStart.js';
import { median, ratio } from './lib/stats.js';

const fixed = (values: readonly number[], digits = 0): string => values.map((v) => v.toFixed(digits)).join('/');

/** A server under load: its HTTP port and the pid whose CPU is counted. */
interface LoadedServer {
  port: number;
  pid: number;
}

interface Round {
  rps: number;
  cpuMicros: number;
  non2xx: number;
}

/** One round on the given servers at once: summed req/s and the servers' CPU per request. */
async function loadTogether(servers: readonly LoadedServer[], target: HttpTarget, shape: LoadShape): Promise<Round> {
  const cpuBefore = servers.map((s) => readCpuMicros(s.pid));
  const results: HttpRound[] = await Promise.all(servers.map((s) => fire(s.port, target, shape)));
  const cpu = servers.reduce((sum, s, i) => sum + readCpuMicros(s.pid) - cpuBefore[i]!, 0);
  const total = results.reduce((sum, r) => sum + r.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    cpuMicros: total > 0 ? cpu / total : Number.NaN,
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

/** The HTTP benchmark's server process, run as the daemons run (the shipped start's flags): only its bare port is used. */
async function startBare(context: BenchContext): Promise<ForkedServer<{ barePort: number }>> {
  const shipped = shippedStart(context.repoRoot);
  return forkServer<{ barePort: number }>(join(context.repoRoot, 'dist-bench', 'bench', 'servers', 'httpServer.js'), [], 15_000, {
    execArgv: [...shipped.nodeArgs, ...context.daemonNodeArgs],
    env: shipped.env,
  });
}

/** POSTs the body to a server until it answers 200 (a new key reaches instance B through NOTIFY); returns the answer's bytes. */
async function answerOf(port: number, target: HttpTarget): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`http://127.0.0.1:${port}${target.path}`, {
      method: 'POST',
      headers: target.headers!,
      body: HTTP_BENCH_BODY,
    });
    const text = await response.text();
    if (response.status === 200) return text;
    if (attempt > 100) throw new Error(`${target.path} on port ${port} answers ${response.status}: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ratios of the same round's req/s and of the bare route's CPU per request to the subject's. */
function vsFigures(id: string, label: string, subject: readonly Round[], baseline: readonly Round[], baselineLabel: string): Figure[] {
  const rps = subject.map((r, i) => ratio(r.rps, baseline[i]!.rps));
  const cpu = subject.map((r, i) => ratio(baseline[i]!.cpuMicros, r.cpuMicros));
  return [
    measured(`multiInstance.${id}.rps`, `${label}: req/s / ${baselineLabel} req/s`, median(rps), 'x', undefined, `rounds ${fixed(rps, 2)}`),
    measured(
      `multiInstance.${id}.cpu`,
      `${label}: ${baselineLabel} CPU / its CPU per request`,
      median(cpu),
      'x',
      undefined,
      `rounds ${fixed(cpu, 2)}`,
    ),
  ];
}

function figures(rounds: { bare: Round[]; one: Round[]; two: Round[] }, loadBefore: number): Figure[] {
  const { bare, one, two } = rounds;
  const non2xx = [...bare, ...one, ...two].reduce((sum, r) => sum + r.non2xx, 0);
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`;
  const side = (id: string, label: string, list: readonly Round[]): Figure[] => [
    measured(
      `multiInstance.${id}.rps`,
      `${label}: req/s`,
      median(list.map((r) => r.rps)),
      'req/s',
      undefined,
      `rounds ${fixed(list.map((r) => r.rps))}`,
    ),
    measured(
      `multiInstance.${id}.cpu`,
      `${label}: server CPU per request`,
      median(list.map((r) => r.cpuMicros)),
      'µs',
      undefined,
      `rounds ${fixed(list.map((r) => r.cpuMicros))}`,
    ),
  ];
  return [
    ...vsFigures('oneVsBare', 'one instance', one, bare, 'bare route'),
    ...vsFigures('twoVsBare', 'two instances (summed)', two, bare, 'bare route'),
    ...vsFigures('twoVsOne', 'two instances (summed)', two, one, 'one instance'),
    ...side('bare', 'bare route, same bytes (one process)', bare),
    ...side('one', 'one instance', one),
    ...side('two', "two instances, summed (both servers' CPU)", two),
    measured('multiInstance.non2xx', 'non-2xx + errors, all rounds', non2xx, 'responses', undefined, load),
  ];
}

async function startDaemons(context: BenchContext, env: Record<string, string>): Promise<RunningDaemon[]> {
  const daemons: RunningDaemon[] = [];
  for (let i = 0; i < 2; i++) {
    const daemon = await spawnDaemon({ repoRoot: context.repoRoot, env, nodeArgs: context.daemonNodeArgs });
    daemons.push(daemon);
    await waitHealthy(daemon, 30_000);
  }
  return daemons;
}

async function run(context: BenchContext): Promise<BenchOutcome> {
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const [pg, redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
  const daemons: RunningDaemon[] = [];
  let bareServer: ForkedServer<{ barePort: number }> | undefined;
  try {
    const url = await pg.createDatabase('bench');
    // The rate limit raised, not disabled (as bench/servers/httpServer.ts has it): its Redis round trip stays on the measured path.
    const env = {
      MOWABILITY_STORE_KIND: 'postgres',
      MOWABILITY_STORE_URL: url,
      MOWABILITY_RATE_LIMIT_STORE: redis.url,
      MOWABILITY_RATE_LIMIT_MAX: '1000000000',
      MOWABILITY_BROKER_ENABLED: 'false',
    };
    daemons.push(...(await startDaemons(context, env)));
    bareServer = await startBare(context);
    const output = await runCli(context.repoRoot, ['keys', 'add', 'bench', '--json'], { ...env, MOWABILITY_DB_PATH: daemons[0]!.dbPath });
    const key = (JSON.parse(output) as { key: string }).key;
    const target: HttpTarget = {
      name: 'calculate',
      method: 'POST',
      path: '/v1/calculate',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: HTTP_BENCH_BODY,
    };
    const bareTarget: HttpTarget = { ...target, name: 'sameCalculate', path: '/same/calculate' };
    const instances = daemons.map((d): LoadedServer => ({ port: d.httpPort, pid: d.child.pid }));
    const bare: LoadedServer = { port: bareServer.ready.barePort, pid: bareServer.child.pid! };
    // Same bytes: the baseline answers as many bytes as each instance does.
    const bareBytes = Buffer.byteLength(await answerOf(bare.port, bareTarget));
    for (const instance of instances) {
      const bytes = Buffer.byteLength(await answerOf(instance.port, target));
      if (bytes !== bareBytes) throw new Error(`the bare route answers ${bareBytes} bytes, the instance on port ${instance.port} ${bytes}`);
    }
    const shape: LoadShape = { durationS: context.quick ? 2 : 10, connections: 10, pipelining: 1 };
    const roundCount = context.quick ? 3 : 5;
    await loadTogether([bare], bareTarget, { ...shape, durationS: 1 }); // warm-up
    await loadTogether(instances, target, { ...shape, durationS: 1 });
    const rounds = { bare: [] as Round[], one: [] as Round[], two: [] as Round[] };
    for (let round = 1; round <= roundCount; round++) {
      rounds.bare.push(await loadTogether([bare], bareTarget, shape));
      rounds.one.push(await loadTogether(instances.slice(0, 1), target, shape));
      rounds.two.push(await loadTogether(instances, target, shape));
      const rps = (list: Round[]): number => Math.round(list.at(-1)!.rps);
      context.log(
        `round ${round}: bare ${rps(rounds.bare)} req/s, one instance ${rps(rounds.one)}, two ${rps(rounds.two)} (load ${loadavg()[0]!.toFixed(1)})`,
      );
    }
    return {
      figures: figures(rounds, loadBefore),
      details: { shape, rounds: roundCount, bareBytes, ...rounds, loadBefore, loadAfter: loadavg()[0] },
    };
  } finally {
    await bareServer?.stop();
    await Promise.all(
      daemons.map(async (daemon) => {
        await daemon.child.stop();
        daemon.cleanup();
      }),
    );
    await Promise.all([pg.stop(), redis.stop()]);
  }
}

export const multiInstanceBenchmark: Benchmark = {
  name: 'multiInstance',
  title: 'POST /v1/calculate on one and two instances sharing PostgreSQL and Redis, against the same-bytes bare route',
  run,
};
