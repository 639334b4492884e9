/**
 * The design's floor for one reading, against the daemon, at a real station's pace. The household
 * goal asks for ≤ 1 ms of CPU per reading; this bench shows how much of the daemon's cost any
 * daemon of this design pays (bench/servers/readingFloor.ts: the broker, the reading taken from it
 * in process, parse, the core, one state serialised and published retained) and how much is the
 * daemon's own structure (history, units, debounce, logging, metrics, the MQTT bridge).
 *
 * Both subjects get the same load as the household bench's readings part (10 rtl_433 stations on
 * one events topic, one reading each every 16 s, stamped with the send time, published over
 * loopback TCP by mqtt.js): an idle window, then a readings window, CPU from per-thread schedstat
 * (ns), after a warm-up of 20 readings per station (V8 compiles the path: a start's cost, not a
 * day's). CPU per reading is (readings window − idle rate × its length) ÷ readings. The daemon runs
 * as the household bench runs it (shipped start, 14-day database, lawn memory on), the floor with
 * the shipped start's node flags and environment. BENCH_FLOOR_SECONDS sets the readings window;
 * BENCH_FLOOR_DEBOUNCE_MS=N has the floor publish N ms after each reading (a timer: the second
 * wake-up the daemon's debounce costs) and sets the daemon's `station.recomputeDebounceMs` to N.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { cpuPerEventMs, openCpuWindow } from './lib/cpuWindow.js';
import { cliAvailable, spawnDaemon, waitHealthy } from './lib/daemon.js';
import { publishAtStationPace } from './lib/householdLoad.js';
import { forkServer } from './lib/ipc.js';
import { connectPublisher, publishAtRate } from './lib/mqttLoad.js';
import { atMost, measured, notMeasured, type Figure } from './lib/report.js';
import { benchStations, RTL433_TOPIC, rtl433Readings } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { shippedStart } from './lib/shippedStart.js';
import { makeTempDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const STATION_COUNT = 10;
/** After /health: the daemon's start-up work and V8's memory reducer are done (as the household bench). */
const DAEMON_SETTLE_S = 60;
const FLOOR_SETTLE_S = 60;
const WARM_UP_PER_STATION = 20;

interface Windows {
  idleSeconds: number;
  readingsSeconds: number;
}

interface SubjectFigures {
  idleCpuMs: number;
  readingsCpuMs: number;
  readings: number;
  cpuPerReadingMs: number;
}

/** An idle window, then the readings window, on a subject already listening on `brokerPort`. */
async function measureSubject(pid: number, brokerPort: number, windows: Windows, name: string): Promise<SubjectFigures> {
  // Warm-up: the reading path's first calls are compiled by V8 (a start's cost, not a day's); one
  // reading per station a second keeps every reading its own recompute (the debounce is 1 s).
  const warmer = await connectPublisher(brokerPort, `floor-bench-warm-${name}`);
  await publishAtRate(warmer, rtl433Readings(STATION_COUNT, WARM_UP_PER_STATION, Date.now() - 60_000), STATION_COUNT);
  await warmer.endAsync();
  await sleep(5000);
  const closeIdle = openCpuWindow(pid);
  await sleep(windows.idleSeconds * 1000);
  const idle = closeIdle();
  const publisher = await connectPublisher(brokerPort, `floor-bench-${name}`);
  const stop = new AbortController();
  const closeReadings = openCpuWindow(pid);
  const publishing = publishAtStationPace(publisher, STATION_COUNT, windows.readingsSeconds * 1000, stop.signal);
  await sleep(windows.readingsSeconds * 1000);
  const loaded = closeReadings();
  stop.abort();
  const readings = await publishing;
  await publisher.endAsync();
  const idleCpuMs = idle.cpuSeconds * 1000;
  const readingsCpuMs = loaded.cpuSeconds * 1000;
  const cpuPerReadingMs = cpuPerEventMs(loaded, idle, readings);
  return { idleCpuMs, readingsCpuMs, readings, cpuPerReadingMs };
}

async function measureFloor(context: BenchContext, windows: Windows): Promise<SubjectFigures> {
  const start = shippedStart(context.repoRoot);
  const server = await forkServer<{ port: number }>(join(import.meta.dirname, 'servers', 'readingFloor.js'), [RTL433_TOPIC], 15_000, {
    execArgv: start.nodeArgs,
    env: {
      ...start.env,
      ...(process.env.BENCH_FLOOR_DEBOUNCE_MS !== undefined && { BENCH_FLOOR_DEBOUNCE_MS: process.env.BENCH_FLOOR_DEBOUNCE_MS }),
    },
  });
  try {
    await sleep(FLOOR_SETTLE_S * 1000);
    return await measureSubject(server.child.pid ?? 0, server.ready.port, windows, 'floor');
  } finally {
    await server.stop();
  }
}

async function measureDaemon(context: BenchContext, windows: Windows): Promise<SubjectFigures> {
  const dir = makeTempDir();
  const stations = benchStations(STATION_COUNT);
  await seedHistory(
    join(dir, 'mowability.db'),
    stations.map((s) => s.id),
    Date.now() - 60_000,
  );
  const daemon = await spawnDaemon({
    repoRoot: context.repoRoot,
    dir,
    nodeArgs: context.daemonNodeArgs,
    // BENCH_FLOOR_DEBOUNCE_MS: the floor publishes that long after a reading; the daemon gets the same debounce.
    env: {
      MOWABILITY_TIMEZONE: 'UTC',
      ...(process.env.BENCH_FLOOR_DEBOUNCE_MS !== undefined && {
        MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: process.env.BENCH_FLOOR_DEBOUNCE_MS,
      }),
    },
    configFile: { stations },
  });
  try {
    await waitHealthy(daemon, 30_000);
    await sleep(DAEMON_SETTLE_S * 1000);
    // /health answers before the embedded broker listens: wait until it takes a connection.
    await waitFor(
      async () =>
        await connectPublisher(daemon.brokerPort, 'floor-bench-probe')
          .then((c) => c.endAsync().then(() => true))
          .catch(() => false),
      { timeoutMs: 30_000, intervalMs: 200, what: 'the embedded broker' },
    );
    return await measureSubject(daemon.child.pid, daemon.brokerPort, windows, 'daemon');
  } finally {
    await daemon.child.stop();
    daemon.cleanup();
  }
}

function figuresOf(floor: SubjectFigures, daemon: SubjectFigures, windows: Windows): Figure[] {
  const note = (s: SubjectFigures): string =>
    `${s.readings} readings in ${windows.readingsSeconds} s; window ${s.readingsCpuMs.toFixed(1)} ms, idle ${s.idleCpuMs.toFixed(1)} ms per ${windows.idleSeconds} s`;
  return [
    measured(
      'readingFloor.daemon',
      "CPU per reading, the daemon at a station's pace",
      daemon.cpuPerReadingMs,
      'ms',
      atMost(1),
      note(daemon),
    ),
    measured(
      'readingFloor.floor',
      "CPU per reading, the design's floor (broker, parse, core, one retained state)",
      floor.cpuPerReadingMs,
      'ms',
      undefined,
      note(floor),
    ),
    measured(
      'readingFloor.ratio',
      'daemon ÷ floor (CPU per reading)',
      floor.cpuPerReadingMs > 0 ? daemon.cpuPerReadingMs / floor.cpuPerReadingMs : Number.NaN,
      '×',
    ),
  ];
}

export const readingFloorBenchmark: Benchmark = {
  name: 'readingFloor',
  title: "One reading at a station's pace: the daemon against the design's floor",
  async run(context: BenchContext): Promise<BenchOutcome> {
    if (!cliAvailable(context.repoRoot))
      return {
        figures: [
          notMeasured(
            'readingFloor.daemon',
            "CPU per reading, the daemon at a station's pace",
            'ms',
            'dist/cli/main.js does not exist',
            atMost(1),
          ),
        ],
        details: {},
      };
    const readingsSeconds = Number(process.env.BENCH_FLOOR_SECONDS) || (context.quick ? 120 : 300);
    const windows: Windows = { idleSeconds: Math.min(60, readingsSeconds), readingsSeconds };
    const floor = await measureFloor(context, windows);
    context.log(`floor: ${floor.cpuPerReadingMs.toFixed(3)} ms per reading (${floor.readings} readings)`);
    const daemon = await measureDaemon(context, windows);
    context.log(`daemon: ${daemon.cpuPerReadingMs.toFixed(3)} ms per reading (${daemon.readings} readings)`);
    return { figures: figuresOf(floor, daemon, windows), details: { windows, floor, daemon } };
  },
};
