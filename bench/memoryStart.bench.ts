/**
 * `npm run bench -- memoryStart --node-arg=FLAG`: the household daemon's memory at start with and
 * without extra node flags, alternating (A B A B; quick: A B). Each start is the household bench's
 * (10 stations on 14-day databases, the loopback Open-Meteo stand-in, lawn memory on, the shipped start
 * path): the peak RSS (`VmHWM`) from spawn until every station has its forecast and 30 s more, when in
 * that time RSS peaked, RSS and heap used at the end, and the CPU of the whole start (all threads).
 * Without `--node-arg` both arms are the shipped start: their difference is the run-to-run spread.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { createKey } from './lib/cli.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { metricValue } from './lib/daemonSamples.js';
import { startFakeForecast } from './lib/householdLoad.js';
import { LOOPBACK } from './lib/net.js';
import { MIB, readMemory, readThreadCpuNs, RssSampler } from './lib/proc.js';
import { measured, notMeasured, type Figure } from './lib/report.js';
import { benchStations } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { median } from './lib/stats.js';
import { makeTempDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const STATION_COUNT = 10;
const SETTLE_MS = 30_000;

interface StartFigures {
  peakMb: number;
  /** Seconds from spawn to the highest RSS sample. */
  peakAtS: number;
  endRssMb: number;
  heapUsedMb: number;
  cpuS: number;
}

async function oneStart(context: BenchContext, nodeArgs: readonly string[]): Promise<StartFigures> {
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  await seedHistory(
    dbPath,
    benchStations(STATION_COUNT).map((s) => s.id),
    Date.now() - 60_000,
  );
  await createKey(context.repoRoot, dbPath, 'memory-start');
  const forecast = await startFakeForecast(context.repoRoot);
  const stations = benchStations(STATION_COUNT).map((s) => ({
    ...s,
    location: { latitude: 52.52, longitude: 13.41 },
    forecast: { source: 'open-meteo' },
  }));
  const daemon = await spawnDaemon({
    repoRoot: context.repoRoot,
    dir,
    nodeArgs,
    env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_FORECAST_OPEN_METEO_URL: forecast.baseUrl },
    configFile: { stations },
  });
  const rss = new RssSampler(daemon.child.pid);
  rss.start(50);
  try {
    await waitHealthy(daemon, 120_000);
    await waitFor(() => forecast.requests >= STATION_COUNT, {
      timeoutMs: 120_000,
      intervalMs: 100,
      what: 'every station fetched its forecast',
    });
    await sleep(SETTLE_MS);
    rss.stop();
    const metrics = await fetch(`http://${LOOPBACK}:${daemon.httpPort}/metrics`).then((r) => r.text());
    const peak = rss.samples.reduce((best, s) => (s.rssBytes > best.rssBytes ? s : best), rss.samples[0]!);
    return {
      peakMb: Math.max(readMemory(daemon.child.pid).peakRssBytes, peak.rssBytes) / MIB,
      peakAtS: (peak.atMs - rss.samples[0]!.atMs) / 1000,
      endRssMb: readMemory(daemon.child.pid).rssBytes / MIB,
      heapUsedMb: metricValue(metrics, 'nodejs_heap_size_used_bytes') / MIB,
      cpuS: readThreadCpuNs(daemon.child.pid) / 1e9,
    };
  } finally {
    rss.stop();
    await daemon.child.stop();
    await forecast.close();
    daemon.cleanup();
  }
}

function armFigures(id: string, label: string, runs: readonly StartFigures[]): Figure[] {
  const m = (pick: (f: StartFigures) => number): number => median(runs.map(pick));
  return [
    measured(
      `memoryStart.${id}.peak`,
      `${label}: peak RSS at start (VmHWM)`,
      m((f) => f.peakMb),
      'MB',
      undefined,
      `each: ${runs.map((f) => `${f.peakMb.toFixed(1)} MB at ${f.peakAtS.toFixed(1)} s`).join(', ')}`,
    ),
    measured(
      `memoryStart.${id}.end`,
      `${label}: RSS ${SETTLE_MS / 1000} s after the forecasts`,
      m((f) => f.endRssMb),
      'MB',
      undefined,
      `heap used ${m((f) => f.heapUsedMb).toFixed(1)} MB`,
    ),
    measured(
      `memoryStart.${id}.cpu`,
      `${label}: CPU of the start (spawn to end)`,
      m((f) => f.cpuS),
      'CPU-s',
      undefined,
      runs.map((f) => f.cpuS.toFixed(2)).join(', '),
    ),
  ];
}

export const memoryStartBenchmark: Benchmark = {
  name: 'memoryStart',
  title: 'Memory at start of the household daemon, with and without extra node flags',
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot))
      return {
        figures: [notMeasured('memoryStart.shipped.peak', 'peak RSS at start', 'MB', 'dist/cli/main.js does not exist')],
        details: {},
      };
    const flags = context.daemonNodeArgs.join(' ') || '(none: the shipped start again)';
    const shipped: StartFigures[] = [];
    const flagged: StartFigures[] = [];
    for (let round = 0; round < (context.quick ? 1 : 2); round++) {
      shipped.push(await oneStart(context, []));
      flagged.push(await oneStart(context, context.daemonNodeArgs));
      context.log(
        `round ${round + 1}: shipped ${shipped.at(-1)!.peakMb.toFixed(1)} MB peak, with ${flags} ${flagged.at(-1)!.peakMb.toFixed(1)} MB`,
      );
    }
    return {
      figures: [...armFigures('shipped', 'shipped start', shipped), ...armFigures('flagged', `with ${flags}`, flagged)],
      details: { flags, shipped, flagged },
    };
  },
};
