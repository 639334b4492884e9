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
 */
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
import { seedHistory } from './lib/seedHistory.js';

/** The shipped history.flushIntervalSeconds (src/config/mqttSchema.ts); override for a baseline of an older build. */
const DEFAULT_FLUSH_SECONDS = Number(process.env.BENCH_FLUSH_SECONDS ?? 300);
const COMPRESSION = Number(process.env.BENCH_COMPRESSION ?? 10);
const DAY_MS = 86_400_000;

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

async function runStorage(context: BenchContext, stations: number, perStation: number): Promise<StorageRun> {
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const straceFile = straceAvailable() ? join(dir, 'strace.txt') : undefined;
  const flushSeconds = Math.max(1, Math.round(DEFAULT_FLUSH_SECONDS / COMPRESSION));
  const endMs = Date.now() - 2000;
  const startMs = endMs - (perStation - 1) * STATION_INTERVAL_MS;
  let daemon: RunningDaemon | undefined;
  try {
    await seedHistory(dbPath, benchStations(stations).map((s) => s.id), startMs - STATION_INTERVAL_MS);
    daemon = await spawnDaemon({
      repoRoot: context.repoRoot,
      dir,
      env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_LOG_LEVEL: 'info', MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: String(flushSeconds) },
      configFile: { stations: benchStations(stations) },
      nodeArgs: context.daemonNodeArgs,
      ...(straceFile ? { straceOutput: straceFile } : {}),
    });
    const running = daemon;
    await waitHealthy(running, 60_000);
    // HTTP answers before the histories are restored; the broker listens after.
    const probe = await waitFor(() => connectPublisher(running.brokerPort, 'bench-storage-probe').catch(() => undefined), { timeoutMs: 120_000, intervalMs: 200, what: 'the MQTT broker' });
    await probe.endAsync(true);
    await sleep(3000);
    const pid = daemonPid(running);
    const startPeakRssBytes = readMemory(pid).peakRssBytes;
    const fsyncs = (): number => (straceFile ? countFsyncs(straceFile) : 0);
    // Start-up writes (migration, the first station states) are not part of the windows.
    const io1 = readIo(pid);
    const fsync1 = fsyncs();

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

function figuresOf(run: StorageRun, id: string, goals: boolean): Figure[] {
  const per1000 = 1000 / run.readings;
  const note = `${run.readings} readings (${(run.payloadSeconds / 60).toFixed(0)} min of station time in ${run.seconds.toFixed(0)} s), WAL ${(run.walBytes / KIB).toFixed(0)} KiB`;
  const figures: Figure[] = [
    measured(`${id}.writeKiB`, `storage KiB per 1000 readings, ${run.stations} station(s), 14-day database`, (run.writeBytes * per1000) / KIB, 'KiB', goals ? atMost(250) : undefined, note),
    run.fsyncs === null
      ? notMeasured(`${id}.fsyncs`, `fsyncs per 1000 readings, ${run.stations} station(s)`, 'fsyncs', 'strace missing', goals ? atMost(20) : undefined)
      : measured(`${id}.fsyncs`, `fsyncs per 1000 readings, ${run.stations} station(s)`, run.fsyncs * per1000, 'fsyncs', goals ? atMost(20) : undefined, `${run.fsyncs} in the window`),
    measured(`${id}.mibPerDay`, `storage MiB per day, ${run.stations} station(s) at one reading per 16 s`, perDayBytes(run) / MIB, 'MiB'),
    measured(`${id}.idleWriteBytes`, `storage bytes while idle, ${run.stations} station(s)`, run.idleWriteBytes, 'bytes', atMost(0), run.idleFsyncs === null ? '' : `${run.idleFsyncs} fsyncs`),
  ];
  return figures;
}

export const storageBenchmark: Benchmark = {
  name: 'storage',
  title: 'SD-card writes and memory on a database with 14 days of history (time-compressed station pace)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot)) {
      return { figures: [notMeasured('storage.ten.writeKiB', 'storage KiB per 1000 readings', 'KiB', 'dist/cli/main.js missing', atMost(250))], details: {} };
    }
    const perStation = context.quick ? 60 : 120;
    const ten = await runStorage(context, 10, perStation);
    const one = await runStorage(context, 1, perStation);
    // Same-run memory baseline: the daemon with one station and the same 14 days (the histories are 10× smaller).
    const figures: Figure[] = [
      ...figuresOf(ten, 'storage.ten', true),
      ...figuresOf(one, 'storage.one', false),
      measured('storage.memory.startPeakMb', 'peak RSS at start, 10 stations × 14 days (VmHWM)', ten.startPeakRssBytes / MIB, 'MB', atMost(130), `1 station: ${(one.startPeakRssBytes / MIB).toFixed(1)} MB`),
      measured('storage.memory.steadyMb', 'RSS after the readings, 10 stations × 14 days', ten.steadyRssBytes / MIB, 'MB', atMost(110), `1 station: ${(one.steadyRssBytes / MIB).toFixed(1)} MB`),
    ];
    return { figures, details: { compression: COMPRESSION, defaultFlushSeconds: DEFAULT_FLUSH_SECONDS, ten, one } };
  },
};
