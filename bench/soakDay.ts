/**
 * `npm run soak -- --speed 20 --hours 24`: a daemon day in 1/20 of the wall time. The real daemon (the
 * shipped start path and flags, `bench/lib/daemon.ts`), 10 stations on 14-day databases, forecasts from
 * the loopback Open-Meteo stand-in, lawn memory on, runs under libfaketime with its clocks and timer
 * waits sped up (`bench/lib/acceleratedClock.ts`), so it lives through midnight, hourly forecast
 * refreshes, history prunes, the lawn memory's day and WAL checkpoints. The household load is driven in
 * the daemon's time: one reading per station per 16 daemon-seconds stamped with the daemon's time, one
 * `/v1/calculate` per daemon-minute, the status page's polls every 15 daemon-seconds.
 *
 * Every few wall seconds it samples RSS (/proc), heap used, external and array buffers (/metrics), thread
 * CPU and the WAL's size; heap snapshots at the daemon hours of `--snapshot-hours` (default 2 and 22) are
 * compared with `bench/lib/heapSnapshot.ts` (as `bench/heapDiff.ts` does). Samples go to a JSON-lines file
 * as they are taken, the figures and the heap comparison to bench/results/.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceleratedEnv, DaemonClock, libfaketimeAvailable, LIBFAKETIME } from './lib/acceleratedClock.js';
import { createKey } from './lib/cli.js';
import { spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { sampleDaemon, type DaemonSample } from './lib/daemonSamples.js';
import { report, retainersOf, summarise, grewMost, compare, type HeapSnapshotJson } from './lib/heapSnapshot.js';
import { callCalculate, PAGE_POLL_MS, pollStatusPage, REST_CALL_MS, startFakeForecast, type LoadCounts } from './lib/householdLoad.js';
import mqtt from 'mqtt';
import { LOOPBACK } from './lib/net.js';
import { queryNumber } from './lib/sqliteCheck.js';
import { measured, machineInfo, renderTable, resultsPath, writeJson, atMost, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings, STATION_INTERVAL_MS } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { median, slope } from './lib/stats.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const STATIONS = 10;

interface DayCounts extends LoadCounts {
  /** How often the stations' MQTT connection closed (it reconnects). */
  publisherCloses: number;
}
const SAMPLE_WALL_MS = 3000;
const HOUR_MS = 3_600_000;

export interface DayOptions {
  repoRoot: string;
  speed: number;
  hours: number;
  resultsDir: string;
  daemonNodeArgs: string[];
  snapshotHours: number[];
}

const log = (message: string): void => void process.stderr.write(`[soak-day ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** rtl_433's default time format (local wall-clock time; the daemon runs with timezone UTC). */
const rtlTime = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');

/** One reading per station per 16 daemon-seconds, each stamped with the daemon's time (a second back: the clock estimate may run a little ahead). */
async function publishInDaemonTime(
  client: mqtt.MqttClient,
  clock: DaemonClock,
  hours: number,
  signal: AbortSignal,
  counts: LoadCounts,
): Promise<void> {
  const perStation = Math.ceil((hours * HOUR_MS) / STATION_INTERVAL_MS) + 1;
  const stream = rtl433Readings(STATIONS, perStation, clock.now());
  const slotWallMs = clock.wallMs(STATION_INTERVAL_MS / STATIONS);
  const startWall = Date.now();
  for (const [index, event] of stream.entries()) {
    if (signal.aborted) break;
    const payload = JSON.parse(event.payload) as Record<string, unknown>;
    payload.time = rtlTime(clock.now() - 1000);
    // Not awaited: a PUBACK held up by a heap snapshot (the daemon stops for seconds) must not stop the stations' pace.
    client.publish(event.topic, JSON.stringify(payload), { qos: 1 }, () => undefined);
    counts.readings++;
    const due = startWall + (index + 1) * slotWallMs;
    await sleep(Math.max(0, due - Date.now()));
  }
}

/** Waits for the heap snapshot the daemon writes on SIGUSR2 and moves it to `target`. */
async function takeSnapshot(daemon: RunningDaemon, target: string): Promise<void> {
  const before = new Set(readdirSync(daemon.dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(daemon.child.pid, 'SIGUSR2');
  let file = '';
  let size = -1;
  await waitFor(
    () => {
      const fresh = readdirSync(daemon.dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
      if (fresh === undefined) return false;
      file = join(daemon.dir, fresh);
      const now = statSync(file).size;
      const stable = now > 0 && now === size;
      size = now;
      return stable;
    },
    { timeoutMs: 300_000, intervalMs: 2000, what: 'the heap snapshot' },
  );
  copyFileSync(file, target);
  unlinkSync(file);
}

function heapComparison(paths: readonly string[]): string {
  if (paths.length < 2) return '';
  const load = (path: string): HeapSnapshotJson => JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotJson;
  const [first, last] = [load(paths[0] as string), load(paths.at(-1) as string)];
  const [before, after] = [summarise(first), summarise(last)];
  const lines = [`${paths[0]} → ${paths.at(-1)}`, '', report(before, after, 25)];
  const grown = grewMost(compare(before, after), 'sizeChange', 6).map((c) => c.group);
  for (const group of new Set(['ArrayBuffer', ...grown])) {
    lines.push('', `What holds ${group} (last snapshot):`);
    for (const { retainer, count } of retainersOf(last, group, 12)) lines.push(`  ${count}\t${retainer}`);
  }
  return lines.join('\n');
}

/** Median of `field` over the samples within ±`spanH` of daemon hour `hour`. */
function around(samples: readonly DaemonSample[], hour: number, field: keyof DaemonSample, spanH = 0.25): number {
  return median(samples.filter((s) => Math.abs(s.daemonH - hour) <= spanH).map((s) => s[field]));
}

function fitPerDay(samples: readonly DaemonSample[], field: keyof DaemonSample, fromH: number, toH: number): number {
  const window = samples.filter((s) => s.daemonH >= fromH && s.daemonH <= toH);
  return (
    slope(
      window.map((s) => s.daemonH),
      window.map((s) => s[field]),
    ) * 24
  );
}

interface DayRun {
  samples: DaemonSample[];
  counts: DayCounts;
  forecastRequests: number;
  snapshots: string[];
  wallS: number;
  bucketsPerStation: number;
  daemonLog: string;
}

function dayFigures(options: DayOptions, run: DayRun): Figure[] {
  const { samples, counts } = run;
  const last = samples.at(-1) as DaemonSample;
  const settle = samples.find((s) => s.daemonH >= 1) ?? samples[0]!;
  const [fromH, toH] = [
    Math.min(...options.snapshotHours, options.hours) + 0.5,
    Math.max(1, Math.max(...options.snapshotHours.filter((h) => h < options.hours), 0) - 0.1),
  ];
  const hourFigures = [1, 2, 6, 12, 18, Math.floor(options.hours - 0.5)].filter((h) => h >= 1 && h < options.hours);
  return [
    measured('soakDay.rssMax', 'RSS max over the day', Math.max(...samples.map((s) => s.rssMb)), 'MB', atMost(110)),
    ...hourFigures.map((h) =>
      measured(
        `soakDay.rssAt${h}h`,
        `RSS around daemon hour ${h}`,
        around(samples, h, 'rssMb'),
        'MB',
        undefined,
        `heap used ${around(samples, h, 'heapUsedMb').toFixed(1)} MB, external ${around(samples, h, 'externalMb').toFixed(1)} MB, array buffers ${around(samples, h, 'arrayBuffersMb').toFixed(2)} MB`,
      ),
    ),
    measured('soakDay.rssEnd', 'RSS at the end of the day', last.rssMb, 'MB'),
    measured(
      'soakDay.rssSlope',
      `RSS slope, daemon hours ${fromH.toFixed(1)}–${toH.toFixed(1)} (between the heap snapshots)`,
      fitPerDay(samples, 'rssMb', fromH, toH),
      'MB/day',
    ),
    measured(
      'soakDay.heapSlope',
      `heap used slope, daemon hours ${fromH.toFixed(1)}–${toH.toFixed(1)}`,
      fitPerDay(samples, 'heapUsedMb', fromH, toH),
      'MB/day',
    ),
    measured(
      'soakDay.externalSlope',
      `external memory slope, daemon hours ${fromH.toFixed(1)}–${toH.toFixed(1)}`,
      fitPerDay(samples, 'externalMb', fromH, toH),
      'MB/day',
    ),
    measured(
      'soakDay.cpuPerDay',
      'daemon CPU per daemon day (after hour 1; snapshots included)',
      ((last.cpuS - settle.cpuS) / Math.max(1e-9, last.daemonH - settle.daemonH)) * 24,
      'CPU-s',
    ),
    measured('soakDay.walMax', 'WAL file size max', Math.max(...samples.map((s) => s.walMb)), 'MB'),
    measured('soakDay.clockSteps', 'clock steps the daemon reported', last.clockSteps, 'steps', atMost(0)),
    measured(
      'soakDay.readings',
      'readings published',
      counts.readings,
      'readings',
      undefined,
      `the stations' connection closed ${counts.publisherCloses} times`,
    ),
    measured(
      'soakDay.accepted',
      'readings the daemon accepted',
      last.accepted,
      'readings',
      undefined,
      'mowability_mqtt_station_messages_accepted_total',
    ),
    measured(
      'soakDay.http',
      'HTTP requests (page polls + REST)',
      counts.httpRequests,
      'requests',
      undefined,
      `${counts.httpFailures} failed: ${JSON.stringify(counts.failureReasons)}`,
    ),
    measured('soakDay.httpFailures', 'HTTP requests failed', counts.httpFailures, 'requests', atMost(0)),
    measured(
      'soakDay.forecastRequests',
      'forecast requests to the stand-in',
      run.forecastRequests,
      'requests',
      undefined,
      `${STATIONS} stations × ${options.hours} h`,
    ),
    measured(
      'soakDay.bucketsPerStation',
      'history span kept for a station at the end (14 days = 20160 minutes)',
      run.bucketsPerStation,
      'minutes',
      atMost(20_160 + 60),
    ),
    measured('soakDay.wall', 'wall time of the day', run.wallS / 60, 'min'),
  ];
}

async function driveDay(
  options: DayOptions,
  daemon: RunningDaemon,
  clock: DaemonClock,
  key: string,
  samplesPath: string,
  counts: DayCounts,
): Promise<Omit<DayRun, 'forecastRequests' | 'bucketsPerStation' | 'daemonLog' | 'counts'>> {
  const stop = new AbortController();
  // Reconnecting and without keep-alive: a heap snapshot stops the daemon for 10-20 wall seconds, minutes in its
  // time, after which its broker would drop a client whose keep-alive (counted in the daemon's time) ran out.
  const publisher = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${daemon.brokerPort}`, {
    clientId: 'soak-day-stations',
    clean: true,
    keepalive: 0,
    reconnectPeriod: 1000,
  });
  publisher.on('close', () => counts.publisherCloses++);
  const loads = [
    publishInDaemonTime(publisher, clock, options.hours, stop.signal, counts),
    pollStatusPage(daemon.httpPort, 'bench0', stop.signal, counts, clock.wallMs(PAGE_POLL_MS)),
    callCalculate(daemon.httpPort, key, stop.signal, counts, clock.wallMs(REST_CALL_MS)),
  ];
  const samples: DaemonSample[] = [];
  const snapshots: string[] = [];
  const pendingSnapshots = [...options.snapshotHours].sort((a, b) => a - b);
  const walPath = `${daemon.dbPath}-wal`;
  const started = Date.now();
  try {
    while (clock.hours() < options.hours) {
      await sleep(SAMPLE_WALL_MS);
      if (daemon.child.exited) throw new Error(`daemon exited during the day:\n${daemon.child.tail()}`);
      const sample = await sampleDaemon(daemon.child.pid, daemon.httpPort, walPath, {
        wallS: (Date.now() - started) / 1000,
        daemonH: clock.hours(),
      });
      samples.push(sample);
      appendFileSync(samplesPath, `${JSON.stringify(sample)}\n`);
      if (samples.length % 20 === 0)
        log(
          `daemon hour ${sample.daemonH.toFixed(2)}: RSS ${sample.rssMb.toFixed(1)} MB, heap ${sample.heapUsedMb.toFixed(1)} MB, ${counts.readings} readings, ${counts.httpRequests} requests (${counts.httpFailures} failed), steps ${sample.clockSteps}, accepted ${sample.accepted}`,
        );
      if (pendingSnapshots.length > 0 && sample.daemonH >= (pendingSnapshots[0] as number)) {
        const hour = pendingSnapshots.shift() as number;
        const target = samplesPath.replace(/\.samples\.jsonl$/, `.h${hour}.heapsnapshot`);
        log(`heap snapshot at daemon hour ${sample.daemonH.toFixed(2)} → ${target}`);
        await takeSnapshot(daemon, target);
        snapshots.push(target);
      }
    }
  } finally {
    stop.abort();
    log('day over: stopping the load');
    await Promise.race([Promise.allSettled(loads), sleep(15_000)]);
    publisher.end(true);
  }
  return { samples, snapshots, wallS: (Date.now() - started) / 1000 };
}

export async function runAcceleratedDay(options: DayOptions): Promise<void> {
  if (!libfaketimeAvailable()) throw new Error(`${LIBFAKETIME} is missing: apt-get install -y faketime`);
  const startedAt = new Date();
  const base = resultsPath(options.resultsDir, `soak-day-x${options.speed}`, startedAt).replace(/\.json$/, '');
  mkdirSync(options.resultsDir, { recursive: true });
  const samplesPath = `${base}.samples.jsonl`;
  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const ids = benchStations(STATIONS).map((s) => s.id);
  await seedHistory(dbPath, ids, Date.now() - 60_000);
  const key = await createKey(options.repoRoot, dbPath, 'soak-day');
  let clock = new DaemonClock(options.speed, Date.now());
  const forecast = await startFakeForecast(options.repoRoot, () => clock.now());
  let daemon: RunningDaemon | undefined;
  try {
    const stations = benchStations(STATIONS).map((s) => ({
      ...s,
      location: { latitude: 52.52, longitude: 13.41 },
      forecast: { source: 'open-meteo' },
    }));
    clock = new DaemonClock(options.speed, Date.now());
    daemon = await spawnDaemon({
      repoRoot: options.repoRoot,
      dir,
      env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_FORECAST_OPEN_METEO_URL: forecast.baseUrl, ...acceleratedEnv(options.speed) },
      configFile: { stations },
      nodeArgs: ['--heapsnapshot-signal=SIGUSR2', ...options.daemonNodeArgs],
    });
    const running = daemon;
    await waitHealthy(running, 120_000);
    log(
      `daemon pid ${running.child.pid} at ×${options.speed}: ${options.hours} daemon hours ≈ ${((options.hours * 60) / options.speed).toFixed(0)} wall minutes; samples → ${samplesPath}`,
    );
    const counts: DayCounts = { readings: 0, httpRequests: 0, httpFailures: 0, failureReasons: {}, publisherCloses: 0 };
    const day = await driveDay(options, running, clock, key, samplesPath, counts);
    const forecastRequests = forecast.requests;
    const daemonLog = running.child.tail(60);
    log('stopping the daemon');
    await running.child.stop(30_000);
    log('daemon stopped');
    const bucketsPerStation = await queryNumber(
      dbPath,
      "SELECT MAX(minute) - MIN(minute) + 1 FROM history_buckets WHERE station = 'bench0'",
    ).catch(() => Number.NaN);
    const run: DayRun = { ...day, counts, forecastRequests, bucketsPerStation, daemonLog };
    const figures = dayFigures(options, run);
    const result = {
      name: 'soak-day',
      title: `Accelerated soak: ${options.hours} daemon hours at ×${options.speed}`,
      figures,
      details: { options, counts, snapshots: day.snapshots, daemonLog },
      durationMs: day.wallS * 1000,
    };
    process.stdout.write(`${renderTable(result)}\n`);
    writeJson(`${base}.json`, { startedAt, machine: machineInfo(), ...result });
    const comparison = heapComparison(day.snapshots);
    if (comparison) writeFileSync(`${base}.heapdiff.md`, `${comparison}\n`);
    log(`results: ${base}.json${comparison ? `, ${base}.heapdiff.md` : ''}`);
  } finally {
    if (daemon && !daemon.child.exited) await daemon.child.stop(30_000);
    await forecast.close();
    removeDir(dir);
  }
}
