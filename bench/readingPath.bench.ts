/**
 * One reading's path through the real daemon (`dist/cli/main.js serve`, the shipped start path):
 * rtl_433 events through the embedded broker, parse, ingest, the station units (lawn memory on,
 * recent rain, irrigation), the debounced recompute, the state's publication, history booking and
 * the batched writer — the readings part of the household bench, at a faster pace so that a short
 * window holds enough readings to resolve a millisecond.
 *
 * Each daemon runs on a 14-day database with 10 stations. After it settles, an idle window and a
 * readings window of the same length are measured from outside (/proc/<pid>); CPU per reading is
 * (readings window − idle window) ÷ readings. Each station reports every PACE_MS (above the
 * 1 s recompute debounce, so every reading still gets its own recompute and state, as at a real
 * station's 16 s).
 *
 * With BENCH_BASELINE_ROOT (a built checkout of an older version) the same is measured for its
 * daemon in the same run, rounds interleaved, and the ratio is reported; BENCH_OWN_ROOT measures a
 * snapshot of this build instead of the working tree; BENCH_READING_ROUNDS sets the number of rounds. `--node-arg=--cpu-prof`
 * (with `--node-arg=--cpu-prof-dir=DIR`) profiles each daemon.
 *
 * BENCH_READING_FORECAST=1 gives every station an Open-Meteo forecast from the household bench's
 * loopback stand-in (./lib/householdLoad.ts), so that the idle window holds the forecast's own
 * minute rebuilds and the readings window what a reading costs with a forecast on (its detail, the
 * compact forecast in every state).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { startFakeForecast, type FakeForecast } from './lib/householdLoad.js';
import { connectPublisher } from './lib/mqttLoad.js';
import { cpuPerEventMs, openCpuWindow } from './lib/cpuWindow.js';
import { measured, notMeasured, atMost, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { makeTempDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const STATION_COUNT = 10;
/** Each station's reading interval in the readings window (a real WH24: 16 s). */
const PACE_MS = 1_200;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
/** A snapshot of this build to measure instead of the working tree's dist/ (so a rebuild during the run changes nothing). */
const OWN_ROOT = process.env.BENCH_OWN_ROOT;
/** Each station with a forecast (the household's forecast part, per reading). */
const WITH_FORECAST = process.env.BENCH_READING_FORECAST === '1';

interface RoundFigures {
  /** CPU of the readings window: main thread and the other threads (V8 and libuv workers), ms. */
  threadsMs: Record<string, number>;
  idleCpuMs: number;
  readingsCpuMs: number;
  readings: number;
  cpuPerReadingMs: number;
}

/** CPU of the main thread and of all other threads (V8's and libuv's workers) in ms (utime + stime, 100 ticks a second). */
function threadCpuMs(pid: number): Record<string, number> {
  const byName: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Node 20 names every thread "node": the main thread is the one whose id is the process id.
      const name = tid === String(pid) ? 'main' : 'others';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

const minus = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - (before[name] ?? 0)]));

/** Publishes one reading per station every PACE_MS for `durationMs`, each stamped with its send time. */
async function publishReadings(client: Awaited<ReturnType<typeof connectPublisher>>, durationMs: number): Promise<number> {
  const perStation = Math.floor(durationMs / PACE_MS);
  const stream = rtl433Readings(STATION_COUNT, perStation, Date.now());
  const slotMs = PACE_MS / STATION_COUNT;
  const started = Date.now();
  let published = 0;
  for (const event of stream) {
    const payload = JSON.parse(event.payload) as Record<string, unknown>;
    payload.time = new Date().toISOString().slice(0, 19).replace('T', ' ');
    await client.publishAsync(event.topic, JSON.stringify(payload), { qos: 1 });
    published++;
    const waitMs = started + published * slotMs - Date.now();
    if (waitMs > 0) await sleep(waitMs);
  }
  return published;
}

/** The bench's stations, each with a forecast from `forecast` when given (as the household bench's forecast part). */
function stationConfig(forecast: FakeForecast | undefined): Record<string, unknown>[] {
  return benchStations(STATION_COUNT).map((station) => ({
    ...station,
    ...(forecast ? { location: { latitude: 52.52, longitude: 13.41 }, forecast: { source: 'open-meteo' } } : {}),
  }));
}

async function measureDaemon(context: BenchContext, root: string, windowS: number, settleS: number): Promise<RoundFigures> {
  const dir = makeTempDir();
  await seedHistory(
    join(dir, 'mowability.db'),
    benchStations(STATION_COUNT).map((s) => s.id),
    Date.now() - 60_000,
  );
  const forecast = WITH_FORECAST ? await startFakeForecast(context.repoRoot) : undefined;
  const daemon = await spawnDaemon({
    repoRoot: root,
    dir,
    nodeArgs: context.daemonNodeArgs,
    env: { MOWABILITY_TIMEZONE: 'UTC', ...(forecast ? { MOWABILITY_FORECAST_OPEN_METEO_URL: forecast.baseUrl } : {}) },
    configFile: { stations: stationConfig(forecast) },
  });
  try {
    await waitHealthy(daemon, 60_000);
    if (forecast)
      await waitFor(() => forecast.requests >= STATION_COUNT, {
        timeoutMs: 60_000,
        intervalMs: 100,
        what: 'every station fetched its forecast',
      });
    let client: Awaited<ReturnType<typeof connectPublisher>> | undefined;
    await waitFor(async () => (client = await connectPublisher(daemon.brokerPort, 'reading-path').catch(() => undefined)) !== undefined, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: 'the embedded broker',
    });
    const publisher = client as NonNullable<typeof client>;
    await sleep(settleS * 1000);
    const pid = daemon.child.pid;
    const idleWindow = openCpuWindow(pid);
    await sleep(windowS * 1000);
    const idle = idleWindow();
    const readingsWindow = openCpuWindow(pid);
    const threadsStart = threadCpuMs(pid);
    const readings = await publishReadings(publisher, windowS * 1000);
    await sleep(1500); // the last reading's debounced recompute
    const loaded = readingsWindow();
    const threadsMs = minus(threadCpuMs(pid), threadsStart);
    await publisher.endAsync();
    return {
      threadsMs,
      idleCpuMs: idle.cpuSeconds * 1000,
      readingsCpuMs: loaded.cpuSeconds * 1000,
      readings,
      cpuPerReadingMs: cpuPerEventMs(loaded, idle, readings),
    };
  } finally {
    await daemon.child.stop();
    await forecast?.close();
    daemon.cleanup();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

export const readingPathBenchmark: Benchmark = {
  name: 'readingPath',
  title: `One reading's path through the real daemon (10 stations × 14 days, lawn memory on${WITH_FORECAST ? ', a forecast each' : ''})`,
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot))
      return {
        figures: [notMeasured('readingPath.cpuPerReading', 'CPU per reading', 'ms', 'dist/cli/main.js does not exist', atMost(1))],
        details: {},
      };
    const windowS = context.quick ? 30 : 120;
    const settleS = 60;
    const rounds = Number(process.env.BENCH_READING_ROUNDS ?? (context.quick ? 2 : 3));
    const own: RoundFigures[] = [];
    const base: RoundFigures[] = [];
    for (let round = 0; round < rounds; round++) {
      own.push(await measureDaemon(context, OWN_ROOT ?? context.repoRoot, windowS, settleS));
      const last = own.at(-1) as RoundFigures;
      context.log(
        `round ${round}: ${last.cpuPerReadingMs.toFixed(2)} ms per reading (${last.readings} readings; readings window by thread, ms: ${JSON.stringify(last.threadsMs)})`,
      );
      if (BASELINE_ROOT) {
        base.push(await measureDaemon(context, BASELINE_ROOT, windowS, settleS));
        const lastBase = base.at(-1) as RoundFigures;
        context.log(
          `round ${round}, baseline: ${lastBase.cpuPerReadingMs.toFixed(2)} ms per reading (by thread: ${JSON.stringify(lastBase.threadsMs)})`,
        );
      }
    }
    const ownMs = median(own.map((r) => r.cpuPerReadingMs));
    const figures: Figure[] = [
      measured(
        'readingPath.cpuPerReading',
        'CPU per reading (readings window − idle window)',
        ownMs,
        'ms',
        atMost(1),
        `rounds ${own.map((r) => r.cpuPerReadingMs.toFixed(2)).join('/')}; ${PACE_MS} ms per station${WITH_FORECAST ? ', a forecast each' : ''}`,
      ),
    ];
    if (base.length > 0) {
      const baseMs = median(base.map((r) => r.cpuPerReadingMs));
      figures.push(
        measured(
          'readingPath.vsBaseline',
          'baseline CPU per reading / CPU per reading',
          baseMs / ownMs,
          'x',
          undefined,
          `baseline ${baseMs.toFixed(2)} ms (rounds ${base.map((r) => r.cpuPerReadingMs.toFixed(2)).join('/')}); ${BASELINE_ROOT}`,
        ),
      );
    }
    return { figures, details: { windowS, settleS, paceMs: PACE_MS, forecast: WITH_FORECAST, own, base, baseline: BASELINE_ROOT ?? null } };
  },
};
