/**
 * A household day: the real daemon (`dist/cli/main.js serve`, the shipped start path) under the
 * load of one household, measured from the outside (/proc/<pid>) over a window and extrapolated to
 * a day. Four runs, each a fresh daemon on a 14-day database, add one part at a time so the
 * differences attribute the cost:
 *
 *   idle       no stations (broker, HTTP, metrics and timers only)
 *   readings   + 10 stations reporting every 16 s (lawn memory on, the default)
 *   forecast   + an Open-Meteo forecast per station (a loopback stand-in)
 *   household  + one open status page polling, a REST client calling /v1/calculate once a minute
 *
 * Each window starts once start-up has settled: SETTLE_S after /health (and every station's first
 * forecast). Start-up work (restore, first recomputes) and V8's memory-reducing collections, which
 * ran 45–55 s after the start of an idle daemon, are a restart's cost, not a day's: a window opened
 * 3 s after /health counted them as idle (0.29 CPU-s in 60 s, 417 CPU-s a day, where the settled
 * daemon used 0.04). The start-up's CPU (spawn to window) is reported on its own.
 *
 * Baselines in the same run: an idle `node` process with nothing loaded (the floor of any
 * process), and one with a 1 s interval (the floor of a daemon that checks the clock each second).
 *
 * Switches: BENCH_HOUSEHOLD_SECONDS (window), BENCH_HOUSEHOLD_SETTLE_SECONDS (from /health to the
 * window), BENCH_HOUSEHOLD_ONLY=1 (the household window alone), BENCH_HOUSEHOLD_PART=<part> (one part
 * alone), BENCH_HOUSEHOLD_SLICE_SECONDS (log each slice of the window: start-up still dying away shows),
 * BENCH_BASELINE_ROOT (only the forecast part, this build's and the baseline's alternately,
 * BENCH_HOUSEHOLD_ROUNDS rounds), BENCH_HOUSEHOLD_FEATURES (the household window's new parts: lawns with a
 * plan, a simulated mower under control, the HA controls; `all` or a block, bench/lib/householdFeatures.ts; a
 * part the build lacks is reported "not present"), BENCH_HOUSEHOLD_FEATURES_AB=1 (the household window without and
 * with those parts, alternately, BENCH_HOUSEHOLD_ROUNDS rounds: the ratio), BENCH_HOUSEHOLD_MEMORY_SECONDS (log RSS, heap and
 * external memory every N s of the window), BENCH_HOUSEHOLD_HEALTH_SECONDS (how long to wait for /health, 30). Each window reports its main thread's share of the CPU.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { Child } from './lib/child.js';
import { createKey } from './lib/cli.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import {
  callCalculate,
  pollStatusPage,
  publishAtStationPace,
  startFakeForecast,
  type FakeForecast,
  type LoadCounts,
} from './lib/householdLoad.js';
import { connectPublisher, publishAtRate } from './lib/mqttLoad.js';
import {
  acceptedFeatures,
  featuresFromEnv,
  probeFeatures,
  startSimulatedMower,
  withFeatures,
  type FeatureStanding,
  type HouseholdFeatures,
} from './lib/householdFeatures.js';
import { cpuPerEventMs, openCpuWindow } from './lib/cpuWindow.js';
import { ioDelta, MIB, readCpuMicros, readIo, readMainThreadCpuNs, readMemory, RssSampler } from './lib/proc.js';
import { sampleDaemon } from './lib/daemonSamples.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { makeTempDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';
import { median } from './lib/stats.js';
import { describeCommitKinds, describeWindow, walOffset, walWindow, type WalWindow } from './lib/walFrames.js';

const STATION_COUNT = 10;
/** Seconds from /health to the window: start-up work and V8's memory reducer are done by then. */
const SETTLE_S = Number(process.env.BENCH_HOUSEHOLD_SETTLE_SECONDS) || 60;
const WARM_UP_PER_STATION = 20;
const DAY_S = 86_400;
const PARTS = ['idle', 'readings', 'forecast', 'household'] as const;
type Part = (typeof PARTS)[number];

interface WindowFigures {
  seconds: number;
  /** CPU from spawn to the start of the window (start-up, first recomputes, settling). */
  startupCpuSeconds: number;
  cpuSeconds: number;
  /** The main thread's share of cpuSeconds (the rest: V8's GC helpers, libuv's pool). */
  mainThreadCpuSeconds: number;
  writeBytes: number;
  peakRssBytes: number;
  counts: LoadCounts;
  /** The household window's optional parts (BENCH_HOUSEHOLD_FEATURES) and where each stands. */
  features?: FeatureStanding;
  /** The WAL frames the window's commits appended, by table and by commit kind (bench/lib/walFrames.ts). */
  wal: WalWindow;
}

const perDay = (value: number, seconds: number): number => (value * DAY_S) / seconds;

function stationConfig(forecast: FakeForecast | undefined): Record<string, unknown>[] {
  return benchStations(STATION_COUNT).map((station) => ({
    ...station,
    ...(forecast ? { location: { latitude: 52.52, longitude: 13.41 }, forecast: { source: 'open-meteo' } } : {}),
  }));
}

/** /health answers before the embedded broker listens: connect once it does. */
async function connectWhenListening(port: number): Promise<Awaited<ReturnType<typeof connectPublisher>>> {
  let client: Awaited<ReturnType<typeof connectPublisher>> | undefined;
  await waitFor(
    async () => {
      client = await connectPublisher(port, 'household-stations').catch(() => undefined);
      return client !== undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `the embedded broker on port ${port}` },
  );
  return client as NonNullable<typeof client>;
}

/**
 * V8 compiles the reading path on its first calls: a start's cost, not a day's. Twenty readings per
 * station, one per station a second (each its own recompute: the debounce is 1 s), before the window.
 */
async function warmUp(publisher: Awaited<ReturnType<typeof connectPublisher>>): Promise<void> {
  await publishAtRate(publisher, rtl433Readings(STATION_COUNT, WARM_UP_PER_STATION, Date.now() - 60_000), STATION_COUNT);
  await sleep(5000);
}

/** Seconds of each slice of a window whose CPU is logged on its own (BENCH_HOUSEHOLD_SLICE_SECONDS; 0: none): shows start-up work that is still dying away. */
const SLICE_S = Number(process.env.BENCH_HOUSEHOLD_SLICE_SECONDS) || 0;

/** Sleeps for the window, logging the CPU (all threads, main thread) of each slice when slices are asked for. */
async function sleepInSlices(pid: number, seconds: number, log: (text: string) => void): Promise<void> {
  if (SLICE_S <= 0 || SLICE_S >= seconds) return sleep(seconds * 1000);
  for (let start = 0; start < seconds; start += SLICE_S) {
    const length = Math.min(SLICE_S, seconds - start);
    const all = openCpuWindow(pid);
    const main = openCpuWindow(pid, readMainThreadCpuNs);
    await sleep(length * 1000);
    log(
      `slice ${start}-${start + length} s: ${(all().cpuSeconds * 1000).toFixed(0)} ms CPU (main thread ${(main().cpuSeconds * 1000).toFixed(0)} ms)`,
    );
  }
}

/** Drives the part's load for `seconds` while measuring the daemon from outside. */
async function measureWindow(
  context: BenchContext,
  part: Part,
  ports: { http: number; broker: number },
  pid: number,
  seconds: number,
  apiKey: string,
  dbPath: string,
): Promise<Omit<WindowFigures, 'startupCpuSeconds'>> {
  const counts: LoadCounts = { readings: 0, httpRequests: 0, httpFailures: 0 };
  const stop = new AbortController();
  const publisher = part === 'idle' ? undefined : await connectWhenListening(ports.broker);
  if (publisher) await warmUp(publisher);
  const rss = new RssSampler(pid);
  // Per-thread schedstat (ns): /proc/<pid>/stat counts 10 ms ticks, 4 of them in an idle minute.
  const cpu = openCpuWindow(pid);
  const mainThread = openCpuWindow(pid, readMainThreadCpuNs);
  const ioBefore = readIo(pid);
  const walBefore = walOffset(`${dbPath}-wal`);
  rss.start(250);
  const loads: Promise<unknown>[] = [];
  if (publisher) loads.push(publishAtStationPace(publisher, STATION_COUNT, seconds * 1000, stop.signal).then((n) => (counts.readings = n)));
  if (part === 'household') {
    loads.push(pollStatusPage(ports.http, 'bench0', stop.signal, counts), callCalculate(ports.http, apiKey, stop.signal, counts));
  }
  await sleepInSlices(pid, seconds, (text) => context.log(`${part}: ${text}`));
  const { cpuSeconds } = cpu();
  const mainThreadCpuSeconds = mainThread().cpuSeconds;
  const writeBytes = ioDelta(readIo(pid), ioBefore).writeBytes;
  const wal = await walWindow(dbPath, walBefore);
  rss.stop();
  stop.abort();
  await Promise.allSettled(loads);
  await publisher?.endAsync();
  context.log(
    `${part}: ${wal.commits} commits, ${wal.frames} WAL frames${wal.reset ? ' (the WAL was reset: frames before it not counted)' : ''}; by table ${describeWindow(wal)}; by commit ${describeCommitKinds(wal)}`,
  );
  return { seconds, cpuSeconds, mainThreadCpuSeconds, writeBytes, peakRssBytes: rss.peakBytes, counts, wal };
}

/** Seconds between memory samples over the window (BENCH_HOUSEHOLD_MEMORY_SECONDS; 0: none): RSS, V8's heap, external memory. */
const MEMORY_S = Number(process.env.BENCH_HOUSEHOLD_MEMORY_SECONDS) || 0;

/**
 * With BENCH_HOUSEHOLD_MEMORY_SECONDS: logs what holds the daemon's memory over the window (RSS and its
 * peak since the start from /proc, the heap and external memory from /metrics, which the daemon pays to
 * answer), so a peak can be placed: start-up kept, the heap at a collection, or malloc's freed memory.
 */
function memoryTimeline(context: BenchContext, part: Part, pid: number, httpPort: number, dbPath: string): { stop(): Promise<void> } {
  if (MEMORY_S <= 0) return { stop: async () => undefined };
  const startedMs = Date.now();
  let running = true;
  const loop = (async () => {
    while (running) {
      const sample = await sampleDaemon(pid, httpPort, `${dbPath}-wal`, { wallS: (Date.now() - startedMs) / 1000, daemonH: 0 });
      const { peakRssBytes } = readMemory(pid);
      context.log(
        `${part}: memory at ${sample.wallS.toFixed(0)} s: RSS ${sample.rssMb.toFixed(1)} MB (peak since start ${(peakRssBytes / MIB).toFixed(1)}), heap used ${sample.heapUsedMb.toFixed(1)} of ${sample.heapTotalMb.toFixed(1)}, external ${sample.externalMb.toFixed(1)} (array buffers ${sample.arrayBuffersMb.toFixed(1)}), WAL ${sample.walMb.toFixed(1)} MB`,
      );
      await sleep(MEMORY_S * 1000);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop.catch(() => undefined);
    },
  };
}

async function runPart(
  context: BenchContext,
  part: Part,
  seconds: number,
  root = context.repoRoot,
  features?: HouseholdFeatures,
): Promise<WindowFigures> {
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const withStations = part !== 'idle';
  if (withStations)
    await seedHistory(
      dbPath,
      benchStations(STATION_COUNT).map((s) => s.id),
      Date.now() - 60_000,
    );
  const apiKey = await createKey(context.repoRoot, dbPath, 'household');
  const forecast = part === 'forecast' || part === 'household' ? await startFakeForecast(context.repoRoot) : undefined;
  // The new parts (lawns with a plan, a mower under control, the HA controls) only in the household window.
  const asked = part === 'household' ? (features ?? featuresFromEnv()) : {};
  const base = { stations: stationConfig(forecast) };
  const { parts, standing } = await acceptedFeatures(root, base, asked);
  const daemon = await spawnDaemon({
    repoRoot: root,
    dir,
    nodeArgs: context.daemonNodeArgs,
    env: { MOWABILITY_TIMEZONE: 'UTC', ...(forecast ? { MOWABILITY_FORECAST_OPEN_METEO_URL: forecast.baseUrl } : {}) },
    ...(withStations ? { configFile: withFeatures(base, parts, asked) } : {}),
  });
  let mower: Awaited<ReturnType<typeof startSimulatedMower>> | undefined;
  try {
    // Two daemons started together on a loaded machine (same-run pairs) can take longer than 30 s to /health.
    await waitHealthy(daemon, (Number(process.env.BENCH_HOUSEHOLD_HEALTH_SECONDS) || 30) * 1000);
    if (parts.includes('mower')) mower = await startSimulatedMower(daemon.brokerPort);
    if (forecast)
      await waitFor(() => forecast.requests >= STATION_COUNT, {
        timeoutMs: 60_000,
        intervalMs: 100,
        what: 'every station fetched its forecast',
      });
    await sleep(SETTLE_S * 1000); // start-up work and V8's memory reducer are not a household day's
    const startupCpuSeconds = readCpuMicros(daemon.child.pid) / 1e6;
    const memory = memoryTimeline(context, part, daemon.child.pid, daemon.httpPort, dbPath);
    const figures: WindowFigures = {
      ...(await measureWindow(
        context,
        part,
        { http: daemon.httpPort, broker: daemon.brokerPort },
        daemon.child.pid,
        seconds,
        apiKey,
        dbPath,
      )),
      startupCpuSeconds,
    };
    await memory.stop();
    if (Object.keys(asked).length > 0) {
      figures.features = await probeFeatures(daemon.brokerPort, parts, standing);
      if (mower) figures.features.mower += `; ${mower.commands()} commands in the window`;
      for (const [name, text] of Object.entries(figures.features)) context.log(`${part}: feature ${name}: ${text}`);
    }
    context.log(
      `${root === context.repoRoot ? '' : `${root}: `}${part}: ${figures.cpuSeconds.toFixed(2)} CPU-s (main thread ${figures.mainThreadCpuSeconds.toFixed(2)}) in ${seconds} s, ${figures.counts.readings} readings, ${figures.counts.httpRequests} requests; start-up ${startupCpuSeconds.toFixed(2)} CPU-s`,
    );
    return figures;
  } finally {
    await mower?.stop();
    await daemon.child.stop();
    await forecast?.close();
    daemon.cleanup();
  }
}

async function bareNodeCpuSeconds(seconds: number, intervalMs: number): Promise<number> {
  const child = await Child.spawnNode({ args: ['-e', `setInterval(() => {}, ${intervalMs})`] });
  try {
    await sleep(1000);
    const cpu = openCpuWindow(child.pid);
    await sleep(seconds * 1000);
    return cpu().cpuSeconds;
  } finally {
    await child.stop();
  }
}

interface Baselines {
  bare: number;
  everySecond: number;
}

/** The household window's new parts and where each stands, for a figure's note. */
function featureNote(household: WindowFigures): string {
  const standing = Object.entries(household.features ?? {});
  return standing.length === 0 ? '' : `; new parts: ${standing.map(([name, text]) => `${name} ${text}`).join('; ')}`;
}

/** Only the household window (`BENCH_HOUSEHOLD_ONLY=1`): the day's total over a longer window, without the parts. */
function totalOnly(household: WindowFigures, seconds: number): Figure[] {
  return [
    measured(
      'household.cpuPerDay',
      'CPU per household day',
      perDay(household.cpuSeconds, seconds),
      'CPU-s',
      atMost(150),
      `one ${seconds} s window × ${DAY_S / seconds}; ${household.counts.readings} readings, ${household.counts.httpRequests} requests (${household.counts.httpFailures} failed); parts not run${featureNote(household)}`,
    ),
    measured('household.writtenPerDay', 'bytes written per household day', perDay(household.writeBytes, seconds) / MIB, 'MiB', atMost(8)),
    walFramesFigure(household),
    measured('household.peakRss', 'peak RSS, household', household.peakRssBytes / MIB, 'MB', atMost(110)),
  ];
}

/** WAL frames per commit in the household window, with its commits by kind as the note. */
function walFramesFigure(household: WindowFigures): Figure {
  const { wal } = household;
  return wal.commits === 0
    ? notMeasured('household.walFramesPerCommit', 'WAL frames per commit, household', 'frames', 'no commit in the window')
    : measured(
        'household.walFramesPerCommit',
        'WAL frames per commit, household',
        wal.frames / wal.commits,
        'frames',
        undefined,
        `${wal.commits} commits: ${describeCommitKinds(wal)}`,
      );
}

function figuresOf(runs: Record<Part, WindowFigures>, baselines: Baselines, seconds: number): Figure[] {
  const { bare: bareCpuSeconds, everySecond } = baselines;
  const day = (part: Part): number => perDay(runs[part].cpuSeconds, runs[part].seconds);
  const { household, readings, idle } = runs;
  const cpuPerReadingMs = cpuPerEventMs(readings, idle, readings.counts.readings);
  const failures = household.counts.httpFailures;
  return [
    measured(
      'household.cpuPerDay',
      'CPU per household day',
      day('household'),
      'CPU-s',
      atMost(150),
      `${seconds} s windows × ${DAY_S / seconds}; ${household.counts.readings} readings, ${household.counts.httpRequests} requests (${failures} failed)${featureNote(household)}`,
    ),
    measured(
      'household.idleCpuPerDay',
      'CPU per day, idle daemon (no stations)',
      day('idle'),
      'CPU-s',
      atMost(30),
      `bare node process: ${perDay(bareCpuSeconds, seconds).toFixed(1)} CPU-s/day`,
    ),
    measured(
      'household.idleRatio',
      'idle daemon ÷ bare node (CPU)',
      bareCpuSeconds > 0 ? idle.cpuSeconds / bareCpuSeconds : Number.NaN,
      '×',
    ),
    measured(
      'household.idleTickRatio',
      'idle daemon ÷ node with a 1 s interval (CPU)',
      everySecond > 0 ? idle.cpuSeconds / everySecond : Number.NaN,
      '×',
      undefined,
      `node with a 1 s interval: ${perDay(everySecond, seconds).toFixed(1)} CPU-s/day`,
    ),
    measured(
      'household.startupCpu',
      'CPU of a start (spawn to settled), household',
      household.startupCpuSeconds,
      'CPU-s',
      undefined,
      `idle ${idle.startupCpuSeconds.toFixed(2)}, readings ${readings.startupCpuSeconds.toFixed(2)}, forecast ${runs.forecast.startupCpuSeconds.toFixed(2)}; ${SETTLE_S} s after /health`,
    ),
    measured('household.readingsPart', 'CPU per day, readings part', day('readings') - day('idle'), 'CPU-s'),
    measured('household.forecastPart', 'CPU per day, forecast part', day('forecast') - day('readings'), 'CPU-s'),
    measured('household.httpPart', 'CPU per day, page + REST part', day('household') - day('forecast'), 'CPU-s'),
    measured('household.cpuPerReading', 'CPU per reading (readings part)', cpuPerReadingMs, 'ms', atMost(1)),
    measured(
      'household.writtenPerDay',
      'bytes written per household day',
      perDay(household.writeBytes, household.seconds) / MIB,
      'MiB',
      atMost(8),
    ),
    walFramesFigure(household),
    measured('household.peakRss', 'peak RSS, household', household.peakRssBytes / MIB, 'MB', atMost(110)),
  ];
}

const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const FORECAST_ROUNDS = Number(process.env.BENCH_HOUSEHOLD_ROUNDS) || 2;

/**
 * With BENCH_BASELINE_ROOT (a built checkout of an older version): only the forecast part (forecast
 * window − readings window), this build's and the baseline's daemons alternately, BENCH_HOUSEHOLD_ROUNDS
 * rounds each (default 2), and the ratio of the medians.
 */
async function forecastPartAgainst(context: BenchContext, baselineRoot: string, seconds: number): Promise<BenchOutcome> {
  const part = async (root: string): Promise<number> => {
    const readings = await runPart(context, 'readings', seconds, root);
    const forecast = await runPart(context, 'forecast', seconds, root);
    const main = perDay(forecast.mainThreadCpuSeconds - readings.mainThreadCpuSeconds, seconds);
    context.log(
      `${root}: forecast part ${perDay(forecast.cpuSeconds - readings.cpuSeconds, seconds).toFixed(1)} CPU-s/day, main thread ${main.toFixed(1)}`,
    );
    return perDay(forecast.cpuSeconds - readings.cpuSeconds, seconds);
  };
  const own: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < FORECAST_ROUNDS; round++) {
    own.push(await part(context.repoRoot));
    base.push(await part(baselineRoot));
  }
  const ownDay = median(own);
  const baseDay = median(base);
  const rounds = (values: number[]): string => values.map((v) => v.toFixed(1)).join('/');
  return {
    figures: [
      measured(
        'household.forecastPart',
        'CPU per day, forecast part',
        ownDay,
        'CPU-s',
        undefined,
        `rounds ${rounds(own)}; ${seconds} s windows`,
      ),
      measured(
        'household.forecastPartBaseline',
        'CPU per day, forecast part, baseline',
        baseDay,
        'CPU-s',
        undefined,
        `rounds ${rounds(base)}; ${baselineRoot}`,
      ),
      measured('household.forecastVsBaseline', 'baseline forecast part / forecast part', baseDay / ownDay, 'x'),
    ],
    details: { seconds, own, base, baseline: baselineRoot },
  };
}

/**
 * With BENCH_HOUSEHOLD_FEATURES_AB=1: the household window without the new parts and with those of
 * BENCH_HOUSEHOLD_FEATURES (default all), alternately, BENCH_HOUSEHOLD_ROUNDS rounds each, and the ratio of
 * the medians (what the planner, the mower control and the HA controls add to a household day).
 */
async function featuresAgainstNone(context: BenchContext, seconds: number): Promise<BenchOutcome> {
  const asked = featuresFromEnv(process.env.BENCH_HOUSEHOLD_FEATURES ?? 'all');
  const without: WindowFigures[] = [];
  const withFeatures: WindowFigures[] = [];
  for (let round = 0; round < FORECAST_ROUNDS; round++) {
    without.push(await runPart(context, 'household', seconds, context.repoRoot, {}));
    withFeatures.push(await runPart(context, 'household', seconds, context.repoRoot, asked));
  }
  const day = (runs: WindowFigures[], pick: (run: WindowFigures) => number): number =>
    median(runs.map((run) => perDay(pick(run), seconds)));
  const rounds = (runs: WindowFigures[]): string => runs.map((run) => perDay(run.cpuSeconds, seconds).toFixed(1)).join('/');
  const offDay = day(without, (run) => run.cpuSeconds);
  const onDay = day(withFeatures, (run) => run.cpuSeconds);
  const peak = (runs: WindowFigures[]): number => Math.max(...runs.map((run) => run.peakRssBytes)) / MIB;
  return {
    figures: [
      measured(
        'household.cpuPerDayFeatures',
        'CPU per household day, new parts on',
        onDay,
        'CPU-s',
        atMost(150),
        `rounds ${rounds(withFeatures)}; main thread ${day(withFeatures, (run) => run.mainThreadCpuSeconds).toFixed(1)}${featureNote(withFeatures[0]!)}`,
      ),
      measured(
        'household.cpuPerDayNoFeatures',
        'CPU per household day, new parts off',
        offDay,
        'CPU-s',
        undefined,
        `rounds ${rounds(without)}; main thread ${day(without, (run) => run.mainThreadCpuSeconds).toFixed(1)}`,
      ),
      measured('household.featuresVsNone', 'household day with / without the new parts', onDay / offDay, 'x'),
      measured('household.peakRssFeatures', 'peak RSS, household, new parts on', peak(withFeatures), 'MB', atMost(110)),
      measured('household.peakRssNoFeatures', 'peak RSS, household, new parts off', peak(without), 'MB'),
    ],
    details: { seconds, settleSeconds: SETTLE_S, without, withFeatures },
  };
}

export const householdBenchmark: Benchmark = {
  name: 'household',
  title: "A household day: 10 stations at a station's pace, forecast, lawn memory, a status page and a REST client",
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot))
      return {
        figures: [notMeasured('household.cpuPerDay', 'CPU per household day', 'CPU-s', 'dist/cli/main.js does not exist', atMost(150))],
        details: {},
      };
    const seconds = Number(process.env.BENCH_HOUSEHOLD_SECONDS) || (context.quick ? 60 : 300);
    if (BASELINE_ROOT) return forecastPartAgainst(context, BASELINE_ROOT, seconds);
    const only = process.env.BENCH_HOUSEHOLD_PART as Part | undefined;
    if (only !== undefined && PARTS.includes(only)) {
      const figures = await runPart(context, only, seconds);
      return {
        figures: [
          measured(`household.${only}CpuPerDay`, `CPU per day, ${only} window alone`, perDay(figures.cpuSeconds, seconds), 'CPU-s'),
        ],
        details: { seconds, runs: { [only]: figures } },
      };
    }
    if (process.env.BENCH_HOUSEHOLD_FEATURES_AB === '1') return featuresAgainstNone(context, seconds);
    if (process.env.BENCH_HOUSEHOLD_ONLY === '1') {
      const household = await runPart(context, 'household', seconds);
      return { figures: totalOnly(household, seconds), details: { seconds, settleSeconds: SETTLE_S, runs: { household } } };
    }
    const baselines: Baselines = { bare: await bareNodeCpuSeconds(seconds, 60_000), everySecond: await bareNodeCpuSeconds(seconds, 1000) };
    const runs = {} as Record<Part, WindowFigures>;
    for (const part of PARTS) runs[part] = await runPart(context, part, seconds);
    return { figures: figuresOf(runs, baselines, seconds), details: { seconds, settleSeconds: SETTLE_S, baselines, runs } };
  },
};
