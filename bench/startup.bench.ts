/**
 * Start-up and shutdown: `node dist/cli/main.js serve` with a fresh temp
 * database and ephemeral loopback ports, from spawn to the first /health 200,
 * then SIGTERM to exit with the database closed cleanly. Baseline: a bare
 * node:http server started the same way.
 */
import { existsSync } from 'node:fs';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { Child } from './lib/child.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { freePort, getJson } from './lib/net.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { integrityCheck } from './lib/sqliteCheck.js';
import { median, ratio, round } from './lib/stats.js';
import { waitFor } from './lib/time.js';

interface StartRound {
  startMs: number;
  stopMs: number | null;
  exitCode: number | null;
  walLeft: boolean;
  integrity: string;
}

async function bareNodeStartMs(): Promise<number> {
  const port = await freePort();
  const script = `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"status":"ok"}')}).listen(${port},'127.0.0.1')`;
  const child = await Child.spawnNode({ args: ['-e', script] });
  try {
    await waitFor(async () => (await getJson(port, '/health', 500)).status === 200, {
      timeoutMs: 10_000,
      intervalMs: 5,
      what: 'bare node server',
    });
    return performance.now() - child.startedAtMs;
  } finally {
    await child.stop();
  }
}

async function daemonRound(context: BenchContext): Promise<StartRound> {
  const daemon = await spawnDaemon({ repoRoot: context.repoRoot });
  try {
    const startMs = await waitHealthy(daemon);
    const stopStarted = performance.now();
    daemon.child.kill('SIGTERM');
    const exit = await daemon.child.waitExitWithin(10_000);
    const stopMs = exit ? performance.now() - stopStarted : null;
    if (!exit) await daemon.child.stop(0);
    const walLeft = existsSync(`${daemon.dbPath}-wal`);
    const integrity = await integrityCheck(daemon.dbPath).catch((err: unknown) => `error: ${(err as Error).message}`);
    return { startMs, stopMs, exitCode: exit?.code ?? null, walLeft, integrity };
  } finally {
    await daemon.child.stop(1000);
    daemon.cleanup();
  }
}

export const startupBenchmark: Benchmark = {
  name: 'startup',
  title: 'Start-up and shutdown (dist/cli/main.js serve)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const startGoal = atMost(1000);
    const stopGoal = atMost(5000);
    if (!cliAvailable(context.repoRoot)) {
      const reason = 'dist/cli/main.js does not exist (CLI not built or not landed)';
      return {
        figures: [
          notMeasured('startup.startMs', 'spawn → /health 200', 'ms', reason, startGoal),
          notMeasured('startup.stopMs', 'SIGTERM → exit', 'ms', reason, stopGoal),
        ],
        details: {},
      };
    }
    await bareNodeStartMs(); // warm-up: file cache
    await daemonRound(context);
    const rounds: StartRound[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 3; i++) {
      bare.push(await bareNodeStartMs());
      rounds.push(await daemonRound(context));
    }
    const startMs = median(rounds.map((r) => r.startMs));
    const stops = rounds.map((r) => r.stopMs);
    const stopMs = stops.some((s) => s === null) ? Number.NaN : median(stops as number[]);
    const bareMs = median(bare);
    const clean = rounds.every((r) => r.exitCode === 0 && (!r.walLeft || r.integrity === 'ok'));
    const figures: Figure[] = [
      measured(
        'startup.startMs',
        'spawn → /health 200',
        startMs,
        'ms',
        startGoal,
        `rounds ${rounds.map((r) => Math.round(r.startMs)).join('/')} ms`,
      ),
      measured(
        'startup.vsBareNode',
        'start-up / bare node:http start-up',
        ratio(startMs, bareMs),
        'x',
        undefined,
        `bare node ${Math.round(bareMs)} ms`,
      ),
      measured(
        'startup.stopMs',
        'SIGTERM → exit',
        stopMs,
        'ms',
        stopGoal,
        `rounds ${stops.map((s) => (s === null ? 'timeout' : Math.round(s))).join('/')} ms`,
      ),
      measured(
        'startup.cleanClose',
        'clean exit (code 0; no -wal left or integrity ok)',
        clean ? 1 : 0,
        'bool',
        { comparison: '>=', threshold: 1 },
        rounds.map((r) => `exit ${r.exitCode}, wal ${r.walLeft ? 'left' : 'gone'}, integrity ${r.integrity}`).join('; '),
      ),
    ];
    return {
      figures,
      details: {
        rounds: rounds.map((r) => ({ ...r, startMs: round(r.startMs, 1), stopMs: r.stopMs === null ? null : round(r.stopMs, 1) })),
        bareMs: bare,
      },
    };
  },
};
