/**
 * SD-card writes and memory with a full history: the daemon on a database
 * seeded with 14 days of minute buckets per station (what a Pi holds after
 * two weeks), fed rtl_433 readings 16 s apart per station. Measured from
 * outside: /proc/<pid>/io write_bytes, fsyncs (strace), the WAL size, RSS
 * after start (VmHWM = peak while the history loads) and after the readings.
 *
 * Time is compressed: the readings carry payload times 16 s apart per
 * station but are published COMPRESSION times faster, and the flush interval
 * is the default divided by the same factor, so every commit holds the rows
 * of one real flush interval (the same pages dirtied) and commits stay more
 * than 30 s apart (the kernel's dirty-page expiry, so re-dirtied pages count
 * again as they would at the real pace). Per-day figures use payload time.
 *
 * The WAL frames of the window are decoded per table (lib/walFrames.ts):
 * what each commit writes. With BENCH_BASELINE_ROOT (a checkout of an
 * older commit with dist/ and dist-bench/ built) the same cases run
 * interleaved against that build too, on a database seeded by its own
 * code: a same-run before/after on identical parameters.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { cliAvailable, spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { connectPublisher, publishAtRate } from './lib/mqttLoad.js';
import { childPids, ioDelta, KIB, MIB, readIo, readMemory } from './lib/proc.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings, STATION_INTERVAL_MS } from './lib/rtl433.js';
import { countFsyncs, straceAvailable } from './lib/strace.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';
import { describeWindow, walOffset, walWindow, type WalWindow } from './lib/walFrames.js';

/** The shipped history.flushIntervalSeconds (src/config/mqttSchema.ts); override for a baseline of an older build. */
const DEFAULT_FLUSH_SECONDS = Number(process.env.BENCH_FLUSH_SECONDS ?? 300);
const COMPRESSION = Number(process.env.BENCH_COMPRESSION ?? 10);
const DAY_MS = 86_400_000;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;

interface StorageRun {
  stations: number;
  readings: number;
  /** Payload time the readings span. */
  payloadSeconds: number;
  seconds: number;
  writeBytes: number;
  fsyncs: number | null;
  walBytes: number;
  idleWriteBytes: number;
  idleFsyncs: number | null;
  startPeakRssBytes: number;
  steadyRssBytes: number;
  wal: WalWindow;
}

/**
 * Seeds with the build under test's own HistoryStore (its schema), in a
 * child process so a baseline build seeds with its own code.
 */
function seedWith(root: string, dbPath: string, stations: readonly string[], endMs: number): void {
  const script =
    'const [module, args] = process.argv.slice(1); const { seedHistory } = await import(module); await seedHistory(...JSON.parse(args));';
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      script,
      join(root, 'dist-bench', 'bench', 'lib', 'seedHistory.js'),
      JSON.stringify([dbPath, stations, endMs]),
    ],
    { stdio: 'inherit' },
  );
}

/** The daemon's node process: under strace, the descendant of strace running main.js (resolved again once it runs). */
function daemonPid(daemon: RunningDaemon): number {
  const queue = [daemon.child.process.pid ?? 0];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv[0]?.endsWith('strace') && argv.some((arg) => arg.endsWith('main.js'))) return pid;
    } catch {
      continue;
    }
    queue.push(...childPids(pid));
  }
  throw new Error(`the daemon exited:\n${daemon.child.tail()}`);
}

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

async function runStorage(context: BenchContext, root: string, stations: number, perStation: number): Promise<StorageRun> {
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const straceFile = straceAvailable() ? join(dir, 'strace.txt') : undefined;
  const flushSeconds = Math.max(1, Math.round(DEFAULT_FLUSH_SECONDS / COMPRESSION));
  const endMs = Date.now() - 2000;
  const startMs = endMs - (perStation - 1) * STATION_INTERVAL_MS;
  let daemon: RunningDaemon | undefined;
  try {
    seedWith(
      root,
      dbPath,
      benchStations(stations).map((s) => s.id),
      startMs - STATION_INTERVAL_MS,
    );
    daemon = await spawnDaemon({
      repoRoot: root,
      dir,
      env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_LOG_LEVEL: 'info', MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: String(flushSeconds) },
      configFile: { stations: benchStations(stations) },
      nodeArgs: context.daemonNodeArgs,
      ...(straceFile ? { straceOutput: straceFile } : {}),
    });
    const running = daemon;
    await waitHealthy(running, 60_000);
    // HTTP answers before the histories are restored; the broker listens after.
    const probe = await waitFor(() => connectPublisher(running.brokerPort, 'bench-storage-probe').catch(() => undefined), {
      timeoutMs: 120_000,
      intervalMs: 200,
      what: 'the MQTT broker',
    });
    await probe.endAsync(true);
    await sleep(3000);
    const pid = daemonPid(running);
    const startPeakRssBytes = readMemory(pid).peakRssBytes;
    const fsyncs = (): number => (straceFile ? countFsyncs(straceFile) : 0);
    // Start-up writes (migration, the first station states) are not part of the windows.
    const io1 = readIo(pid);
    const fsync1 = fsyncs();
    const wal1 = walOffset(`${dbPath}-wal`);

    const readings = rtl433Readings(stations, perStation, endMs);
    const rate = (stations * 1000 * COMPRESSION) / STATION_INTERVAL_MS;
    context.log(`storage ${stations} station(s): ${readings.length} readings at ${rate}/s, flush every ${flushSeconds} s`);
    const publisher = await connectPublisher(running.brokerPort, 'bench-storage-publisher');
    const started = performance.now();
    try {
      await publishAtRate(publisher, readings, rate);
    } finally {
      await publisher.endAsync(true).catch(() => undefined);
    }
    // Wait for the last scheduled flush (at most one interval after the last reading), then a little.
    await sleep(flushSeconds * 1000 + 3000);
    const io2 = readIo(pid);
    const fsync2 = fsyncs();
    const seconds = (performance.now() - started) / 1000;
    const steadyRssBytes = readMemory(pid).rssBytes;
    const walBytes = fileBytes(`${dbPath}-wal`);
    const wal = await walWindow(dbPath, wal1);
    // Idle: the stations have stopped and the last batch is written; nothing may be written now.
    const idleSeconds = context.quick ? 10 : 30;
    await sleep(idleSeconds * 1000);
    const io3 = readIo(pid);
    const fsync3 = fsyncs();
    return {
      stations,
      readings: readings.length,
      payloadSeconds: (perStation * STATION_INTERVAL_MS) / 1000,
      seconds,
      writeBytes: ioDelta(io2, io1).writeBytes,
      fsyncs: straceFile ? fsync2 - fsync1 : null,
      walBytes,
      idleWriteBytes: ioDelta(io3, io2).writeBytes,
      idleFsyncs: straceFile ? fsync3 - fsync2 : null,
      startPeakRssBytes,
      steadyRssBytes,
      wal,
    };
  } finally {
    if (daemon) {
      await daemon.child.stop(20_000);
      await waitFor(() => daemon?.child.exited, { timeoutMs: 20_000, what: 'daemon exit' }).catch(() => undefined);
    }
    removeDir(dir);
  }
}

function perDayBytes(run: StorageRun): number {
  return (run.writeBytes * DAY_MS) / (run.payloadSeconds * 1000);
}

function figuresOf(run: StorageRun, id: string, goals: boolean, label = ''): Figure[] {
  const per1000 = 1000 / run.readings;
  const note = `${run.readings} readings (${(run.payloadSeconds / 60).toFixed(0)} min of station time in ${run.seconds.toFixed(0)} s), WAL ${(run.walBytes / KIB).toFixed(0)} KiB`;
  const who = `${run.stations} station(s)${label}`;
  const figures: Figure[] = [
    measured(
      `${id}.writeKiB`,
      `storage KiB per 1000 readings, ${who}, 14-day database`,
      (run.writeBytes * per1000) / KIB,
      'KiB',
      goals ? atMost(250) : undefined,
      note,
    ),
    run.fsyncs === null
      ? notMeasured(`${id}.fsyncs`, `fsyncs per 1000 readings, ${who}`, 'fsyncs', 'strace missing', goals ? atMost(20) : undefined)
      : measured(
          `${id}.fsyncs`,
          `fsyncs per 1000 readings, ${who}`,
          run.fsyncs * per1000,
          'fsyncs',
          goals ? atMost(20) : undefined,
          `${run.fsyncs} in the window`,
        ),
    measured(`${id}.mibPerDay`, `storage MiB per day, ${who} at one reading per 16 s`, perDayBytes(run) / MIB, 'MiB'),
    measured(
      `${id}.framesPerCommit`,
      `WAL frames (pages) per commit, ${who}`,
      run.wal.commits === 0 ? 0 : run.wal.frames / run.wal.commits,
      'frames',
      undefined,
      `${run.wal.commits} commits: ${describeWindow(run.wal)}${run.wal.reset ? ' (WAL reset in the window)' : ''}`,
    ),
    measured(
      `${id}.idleWriteBytes`,
      `storage bytes while idle, ${who}`,
      run.idleWriteBytes,
      'bytes',
      goals ? atMost(0) : undefined,
      run.idleFsyncs === null ? '' : `${run.idleFsyncs} fsyncs`,
    ),
  ];
  return figures;
}

function ratioFigure(id: string, label: string, after: StorageRun, before: StorageRun): Figure {
  return measured(
    id,
    label,
    after.writeBytes / after.readings / (before.writeBytes / before.readings),
    'x',
    undefined,
    'bytes per reading, this build / baseline, same run',
  );
}

export const storageBenchmark: Benchmark = {
  name: 'storage',
  title: 'SD-card writes and memory on a database with 14 days of history (time-compressed station pace)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot)) {
      return {
        figures: [notMeasured('storage.ten.writeKiB', 'storage KiB per 1000 readings', 'KiB', 'dist/cli/main.js missing', atMost(250))],
        details: {},
      };
    }
    const perStation = context.quick ? 60 : 120;
    // Interleaved with the baseline (when given), so both see the same machine load.
    const baseTen = BASELINE_ROOT ? await runStorage(context, BASELINE_ROOT, 10, perStation) : undefined;
    const ten = await runStorage(context, context.repoRoot, 10, perStation);
    const baseOne = BASELINE_ROOT ? await runStorage(context, BASELINE_ROOT, 1, perStation) : undefined;
    const one = await runStorage(context, context.repoRoot, 1, perStation);
    // Same-run memory baseline: the daemon with one station and the same 14 days (the histories are 10× smaller).
    const figures: Figure[] = [
      ...figuresOf(ten, 'storage.ten', true),
      ...figuresOf(one, 'storage.one', false),
      measured(
        'storage.memory.startPeakMb',
        'peak RSS at start, 10 stations × 14 days (VmHWM)',
        ten.startPeakRssBytes / MIB,
        'MB',
        atMost(130),
        `1 station: ${(one.startPeakRssBytes / MIB).toFixed(1)} MB`,
      ),
      measured(
        'storage.memory.steadyMb',
        'RSS after the readings, 10 stations × 14 days',
        ten.steadyRssBytes / MIB,
        'MB',
        atMost(110),
        `1 station: ${(one.steadyRssBytes / MIB).toFixed(1)} MB`,
      ),
    ];
    if (baseTen && baseOne) {
      figures.push(
        ...figuresOf(baseTen, 'storage.baseline.ten', false, ', baseline build'),
        ...figuresOf(baseOne, 'storage.baseline.one', false, ', baseline build'),
        ratioFigure('storage.vsBaseline.ten', 'storage bytes vs baseline, 10 stations', ten, baseTen),
        ratioFigure('storage.vsBaseline.one', 'storage bytes vs baseline, 1 station', one, baseOne),
      );
    }
    return {
      figures,
      details: {
        compression: COMPRESSION,
        defaultFlushSeconds: DEFAULT_FLUSH_SECONDS,
        baselineRoot: BASELINE_ROOT ?? null,
        ten,
        one,
        baseTen,
        baseOne,
      },
    };
  },
};
