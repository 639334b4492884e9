/**
 * One run of the real daemon (`node dist/cli/main.js serve`, under strace
 * when available) measured from the outside through /proc/<pid>: idle
 * writes and RSS, SD-card writes per 1000 ingested readings, peak RSS under
 * HTTP + MQTT load, RSS after the load. Feeds the `writes` and `memory`
 * benchmarks, which share it so the daemon starts once.
 */
import { join } from 'node:path';
import type { BenchContext } from './lib/benchmark.js';
import { Child } from './lib/child.js';
import { createKey } from './lib/cli.js';
import { cliAvailable, spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { fire } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { connectPublisher, publishAll, publishAtRate, type Reading } from './lib/mqttLoad.js';
import { ioDelta, readIo, readMemory, readThreadCpuNs, RssSampler, type ProcIo } from './lib/proc.js';
import { benchStations, rtl433Readings, STATION_INTERVAL_MS } from './lib/rtl433.js';
import { countFsyncs, straceAvailable } from './lib/strace.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { sleep } from './lib/time.js';

const STATION_COUNT = 10;
/**
 * The session runs with a 5 s history flush (the shipped default is 300 s) so its short windows see
 * the commits; the shipped interval at a station's pace is measured by storage.bench.ts.
 */
const SESSION_FLUSH_SECONDS = 5;
/** The flush interval plus slack for the commit itself. */
const FLUSH_WAIT_MS = SESSION_FLUSH_SECONDS * 1000 + 2000;

export interface WindowMeasure {
  seconds: number;
  io: ProcIo;
  /** null when strace is not available. */
  fsyncs: number | null;
}

export interface NaiveBaseline {
  rows: number;
  writeBytes: number;
  wchar: number;
  /** null when strace is not available. */
  fsyncs: number | null;
}

export interface DaemonSession {
  straced: boolean;
  /** Baseline: one autocommitted INSERT per reading into SQLite (WAL, NORMAL), same run. */
  naive: NaiveBaseline;
  /** Baseline: RSS of an idle `node -e` with nothing loaded, same run. */
  bareNodeRssBytes: number;
  idle: WindowMeasure & { rssBytes: number; secondsAfterStart: number };
  burst: WindowMeasure & { readings: number; ratePerSecond: number };
  steady: WindowMeasure & { readings: number; ratePerSecond: number };
  load: { seconds: number; peakRssBytes: number; httpRequests: number; httpNon2xx: number; mqttReadings: number; cpuSeconds: number };
  after: { seconds: number; rssBytes: number };
}

const sessions = new WeakMap<BenchContext, Promise<DaemonSession | string>>();

/** The shared session for this bench run, or the reason it cannot run. */
export function daemonSession(context: BenchContext): Promise<DaemonSession | string> {
  let session = sessions.get(context);
  if (!session) {
    session = cliAvailable(context.repoRoot)
      ? runSession(context)
      : Promise.resolve('dist/cli/main.js does not exist (CLI not built or not landed)');
    sessions.set(context, session);
  }
  return session;
}

async function bareNodeRss(): Promise<number> {
  const child = await Child.spawnNode({ args: ['-e', 'setTimeout(() => {}, 60000)'] });
  try {
    await sleep(1500);
    return readMemory(child.pid).rssBytes;
  } finally {
    await child.stop();
  }
}

/** The naive writer (bench/servers/sqliteAutocommit.ts), under strace when available. */
async function naiveBaseline(context: BenchContext, dir: string, straced: boolean): Promise<NaiveBaseline> {
  const straceFile = straced ? join(dir, 'naive-strace.txt') : undefined;
  const child = await Child.spawnNode({
    args: [join(context.repoRoot, 'dist-bench', 'bench', 'servers', 'sqliteAutocommit.js'), '1000'],
    ...(straceFile ? { straceOutput: straceFile } : {}),
  });
  const exit = await child.waitExitWithin(60_000);
  if (!exit || exit.code !== 0) throw new Error(`naive SQLite writer failed:\n${child.tail()}`);
  const line = child.output.find((text) => text.startsWith('{'));
  const parsed = JSON.parse(line ?? '{}') as { rows: number; writeBytes: number; wchar: number };
  return { ...parsed, fsyncs: straceFile ? countFsyncs(straceFile) : null };
}

async function measureWindow(daemon: RunningDaemon, straceFile: string | undefined, work: () => Promise<void>): Promise<WindowMeasure> {
  if (daemon.child.exited) throw new Error(`the daemon exited:\n${daemon.child.tail()}`);
  const started = performance.now();
  const io0 = readIo(daemon.child.pid);
  const fsync0 = straceFile ? countFsyncs(straceFile) : 0;
  await work();
  const io1 = readIo(daemon.child.pid);
  const fsync1 = straceFile ? countFsyncs(straceFile) : 0;
  return { seconds: (performance.now() - started) / 1000, io: ioDelta(io1, io0), fsyncs: straceFile ? fsync1 - fsync0 : null };
}

async function runSession(context: BenchContext): Promise<DaemonSession> {
  const quick = context.quick;
  const idleSeconds = quick ? 10 : 30;
  const loadSeconds = quick ? 5 : 15;
  const afterSeconds = quick ? 15 : 60;
  const burstReadings = quick ? 2000 : 3000;
  const burstRate = 500;
  const steadySeconds = quick ? 16 : 32;

  const bareNodeRssBytes = await bareNodeRss();
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const straced = straceAvailable();
  const straceFile = straced ? join(dir, 'strace.txt') : undefined;
  let daemon: RunningDaemon | undefined;
  try {
    const naive = await naiveBaseline(context, dir, straced);
    const key = await createKey(context.repoRoot, dbPath, 'bench');
    daemon = await spawnDaemon({
      repoRoot: context.repoRoot,
      dir,
      // The shipped default log level (info): its log lines are part of what the daemon writes.
      env: {
        MOWABILITY_TIMEZONE: 'UTC',
        MOWABILITY_LOG_LEVEL: 'info',
        MOWABILITY_RATE_LIMIT_MAX: '1000000000',
        MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: String(SESSION_FLUSH_SECONDS),
      },
      configFile: { stations: benchStations(STATION_COUNT) },
      nodeArgs: context.daemonNodeArgs,
      ...(straceFile ? { straceOutput: straceFile } : {}),
    });
    const running = daemon;
    await waitHealthy(running, 15_000);
    const startedAt = running.child.startedAtMs;
    context.log(`daemon pid ${running.child.pid}${straced ? ' (under strace)' : ''}; idle ${idleSeconds} s`);
    // Let start-up work (first recompute, first flush) finish before the idle window opens.
    await sleep(FLUSH_WAIT_MS);
    const idleWindow = await measureWindow(running, straceFile, () => sleep(idleSeconds * 1000));
    const idle = {
      ...idleWindow,
      rssBytes: readMemory(running.child.pid).rssBytes,
      secondsAfterStart: (performance.now() - startedAt) / 1000,
    };

    // One chronological stream, ending a minute ago, for every phase that publishes readings.
    const stream = rtl433Readings(STATION_COUNT, 2000, Date.now() - 60_000);
    let offset = 0;
    const take = (count: number): Reading[] => {
      const slice = stream.slice(offset, offset + count);
      offset += count;
      return slice;
    };
    const publisher = await connectPublisher(running.brokerPort, 'bench-session-publisher');
    try {
      context.log(`burst: ${burstReadings} readings at ${burstRate}/s`);
      const burstWindow = await measureWindow(running, straceFile, async () => {
        await publishAtRate(publisher, take(burstReadings), burstRate);
        await sleep(FLUSH_WAIT_MS);
      });
      const burst = { ...burstWindow, readings: burstReadings, ratePerSecond: burstRate };

      // A realistic station cadence: every station once per 16 s (rtl_433 WH24), i.e. 0.625 readings/s for 10 stations.
      const steadyRate = (STATION_COUNT * 1000) / STATION_INTERVAL_MS;
      const steadyCount = Math.round(steadyRate * steadySeconds);
      context.log(`steady: ${steadyCount} readings over ${steadySeconds} s`);
      const steadyWindow = await measureWindow(running, straceFile, async () => {
        await publishAtRate(publisher, take(steadyCount), steadyRate);
        await sleep(FLUSH_WAIT_MS);
      });
      const steady = { ...steadyWindow, readings: steadyCount, ratePerSecond: steadyRate };

      context.log(`load: HTTP + MQTT for ${loadSeconds} s`);
      const sampler = new RssSampler(running.child.pid);
      sampler.start(100);
      const cpuBeforeNs = readThreadCpuNs(running.child.pid);
      const mqttLoad = take(Math.min(stream.length - offset, 8000));
      const [http] = await Promise.all([
        fire(
          running.httpPort,
          {
            name: 'calculate',
            method: 'POST',
            path: '/v1/calculate',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: HTTP_BENCH_BODY,
          },
          { durationS: loadSeconds, connections: 100, pipelining: 10 },
        ),
        publishAll(publisher, mqttLoad),
      ]);
      sampler.stop();
      const cpuSeconds = (readThreadCpuNs(running.child.pid) - cpuBeforeNs) / 1e9;
      const load = {
        seconds: loadSeconds,
        peakRssBytes: sampler.peakBytes,
        httpRequests: http.total,
        httpNon2xx: http.non2xx,
        mqttReadings: mqttLoad.length,
        cpuSeconds,
      };

      context.log(`after load: ${afterSeconds} s`);
      await sleep(afterSeconds * 1000);
      const after = { seconds: afterSeconds, rssBytes: readMemory(running.child.pid).rssBytes };
      return { straced, naive, bareNodeRssBytes, idle, burst, steady, load, after };
    } finally {
      await publisher.endAsync(true).catch(() => undefined);
    }
  } finally {
    await daemon?.child.stop(10_000);
    removeDir(dir);
  }
}
