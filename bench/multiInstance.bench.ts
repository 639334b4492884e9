/**
 * POST /v1/calculate throughput of one and of two instances on the shared store: two real daemons
 * (`node dist/cli/main.js serve`) on one PostgreSQL (store.kind postgres) and one Redis
 * (http.rateLimitStore), the servers from the Debian packages (bench/lib/sharedServers.ts), one
 * key added with the CLI. Each round loads instance A alone, then A and B at once (one autocannon
 * per instance, the same connections each), interleaved; the figure is the median of the
 * per-round ratios "two instances' req/s summed / one instance's req/s" of the same run, with the
 * servers' CPU per request beside it. The load generator runs in this process: on a machine with
 * fewer free cores than two daemons and the generator need, the ratio says how much the shared
 * store costs, not how far two machines would scale (docs/performance.md).
 */
import { loadavg } from 'node:os';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { runCli } from './lib/cli.js';
import { spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { fire, type HttpRound, type HttpTarget, type LoadShape } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { readCpuMicros } from './lib/proc.js';
import { measured } from './lib/report.js';
import { PostgresServer, RedisServer } from './lib/sharedServers.js';
import { median } from './lib/stats.js';

const fixed = (values: readonly number[], digits = 0): string => values.map((v) => v.toFixed(digits)).join('/');

/** One round on the given daemons at once: summed req/s and each server's CPU per request. */
async function loadTogether(daemons: readonly RunningDaemon[], target: HttpTarget, shape: LoadShape): Promise<{ rps: number; cpuMicros: number; non2xx: number }> {
  const cpuBefore = daemons.map((d) => readCpuMicros(d.child.pid));
  const results: HttpRound[] = await Promise.all(daemons.map((d) => fire(d.httpPort, target, shape)));
  const cpu = daemons.reduce((sum, d, i) => sum + readCpuMicros(d.child.pid) - cpuBefore[i]!, 0);
  const total = results.reduce((sum, r) => sum + r.total, 0);
  return { rps: results.reduce((sum, r) => sum + r.rps, 0), cpuMicros: total > 0 ? cpu / total : Number.NaN, non2xx: results.reduce((sum, r) => sum + r.non2xx, 0) };
}

async function run(context: BenchContext): Promise<BenchOutcome> {
  const [pg, redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
  const daemons: RunningDaemon[] = [];
  try {
    const url = await pg.createDatabase('bench');
    const env = { MOWABILITY_STORE_KIND: 'postgres', MOWABILITY_STORE_URL: url, MOWABILITY_RATE_LIMIT_STORE: redis.url, MOWABILITY_BROKER_ENABLED: 'false' };
    for (let i = 0; i < 2; i++) {
      const daemon = await spawnDaemon({ repoRoot: context.repoRoot, env, nodeArgs: context.daemonNodeArgs });
      daemons.push(daemon);
      await waitHealthy(daemon, 30_000);
    }
    const output = await runCli(context.repoRoot, ['keys', 'add', 'bench', '--json'], { ...env, MOWABILITY_DB_PATH: daemons[0]!.dbPath });
    const key = (JSON.parse(output) as { key: string }).key;
    const target: HttpTarget = { name: 'calculate', method: 'POST', path: '/v1/calculate', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: HTTP_BENCH_BODY };
    // The key reaches instance B through NOTIFY: wait until both answer 200.
    for (const daemon of daemons) {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`http://127.0.0.1:${daemon.httpPort}/v1/calculate`, { method: 'POST', headers: target.headers!, body: HTTP_BENCH_BODY });
        if (response.status === 200) break;
        if (attempt > 100) throw new Error(`instance on port ${daemon.httpPort} answers ${response.status}: ${await response.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const shape: LoadShape = { durationS: context.quick ? 2 : 10, connections: 10, pipelining: 1 };
    const rounds = context.quick ? 2 : 5;
    await loadTogether(daemons, target, { ...shape, durationS: 1 }); // warm-up, both
    const one: Array<{ rps: number; cpuMicros: number; non2xx: number }> = [];
    const two: typeof one = [];
    for (let round = 1; round <= rounds; round++) {
      one.push(await loadTogether(daemons.slice(0, 1), target, shape));
      two.push(await loadTogether(daemons, target, shape));
      context.log(`round ${round}: one instance ${Math.round(one.at(-1)!.rps)} req/s, two ${Math.round(two.at(-1)!.rps)} req/s (load ${loadavg()[0]!.toFixed(1)})`);
    }
    const ratios = two.map((r, i) => r.rps / one[i]!.rps);
    const non2xx = [...one, ...two].reduce((sum, r) => sum + r.non2xx, 0);
    return {
      figures: [
        measured('multiInstance.twoVsOne', 'POST /v1/calculate: two instances\' req/s summed / one instance\'s (shared PostgreSQL + Redis, same run)', median(ratios), 'x', undefined, `rounds ${fixed(ratios, 2)}; load average ${loadavg()[0]!.toFixed(1)}; non-2xx ${non2xx}`),
        measured('multiInstance.one.rps', 'one instance: req/s', median(one.map((r) => r.rps)), 'req/s', undefined, `rounds ${fixed(one.map((r) => r.rps))}`),
        measured('multiInstance.two.rps', 'two instances: req/s summed', median(two.map((r) => r.rps)), 'req/s', undefined, `rounds ${fixed(two.map((r) => r.rps))}`),
        measured('multiInstance.one.cpu', 'one instance: server CPU per request', median(one.map((r) => r.cpuMicros)), 'µs', undefined, `rounds ${fixed(one.map((r) => r.cpuMicros))}`),
        measured('multiInstance.two.cpu', 'two instances: server CPU per request (both servers)', median(two.map((r) => r.cpuMicros)), 'µs', undefined, `rounds ${fixed(two.map((r) => r.cpuMicros))}`),
      ],
      details: { shape, rounds, one, two },
    };
  } finally {
    await Promise.all(daemons.map(async (daemon) => {
      await daemon.child.stop();
      daemon.cleanup();
    }));
    await Promise.all([pg.stop(), redis.stop()]);
  }
}

export const multiInstanceBenchmark: Benchmark = {
  name: 'multiInstance',
  title: 'POST /v1/calculate on one and two instances sharing PostgreSQL and Redis',
  run,
};
