/**
 * `npm run soak -- --minutes N`: the real daemon under a modest mixed load
 * (HTTP calculations at 50 req/s, rtl_433 readings from 10 stations at one
 * per station per second) for N minutes, sampling RSS every 5 s. Reports
 * the RSS slope in MB per 10 minutes (least squares after a warm-up), plus
 * storage writes per hour, and writes JSON to bench/results/.
 *
 * `npm run soak -- --speed 20 --hours 24`: an accelerated daemon day under libfaketime instead
 * (bench/soakDay.ts).
 */
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parseArgs } from './lib/args.js';
import { createKey } from './lib/cli.js';
import { cliAvailable, spawnDaemon, waitHealthy, type RunningDaemon } from './lib/daemon.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { connectPublisher } from './lib/mqttLoad.js';
import { LOOPBACK } from './lib/net.js';
import { ioDelta, MIB, readIo, readMemory } from './lib/proc.js';
import { atMost, machineInfo, measured, renderTable, resultsPath, writeJson, type BenchResult, type Figure } from './lib/report.js';
import { benchStations, rtl433Readings } from './lib/rtl433.js';
import { blockMedians, median, slope, slopeInterval } from './lib/stats.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { runAcceleratedDay } from './soakDay.js';
import { sleep } from './lib/time.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const STATIONS = 10;
const HTTP_RATE = 50;
const SAMPLE_MS = 5000;
/** Blocks for the slope's confidence interval: RSS samples 5 s apart are strongly correlated, 2-minute medians much less. */
const BLOCK_S = 120;

/** (median RSS of the last minute − median of the first minute) scaled to 10 minutes. */
function netChangePer10Min(samples: readonly { seconds: number; rssMb: number }[]): number {
  const first = samples[0]?.seconds ?? 0;
  const last = samples.at(-1)?.seconds ?? 0;
  if (last - first < 120) return Number.NaN;
  const head = samples.filter((s) => s.seconds < first + 60).map((s) => s.rssMb);
  const tail = samples.filter((s) => s.seconds > last - 60).map((s) => s.rssMb);
  return ((median(tail) - median(head)) / (last - first - 60)) * 600;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { resultsDir: join(repoRoot, 'bench', 'results') });
  if (!cliAvailable(repoRoot)) throw new Error('dist/cli/main.js does not exist: run npm run build');
  if (options.speed !== undefined) {
    const { speed, hours, resultsDir, daemonNodeArgs, snapshotHours } = options;
    await runAcceleratedDay({ repoRoot, speed, hours, resultsDir, daemonNodeArgs, snapshotHours });
    return;
  }
  const durationS = Math.round(options.minutes * 60);
  const warmupS = Math.min(60, Math.round(durationS * 0.2));
  const startedAt = new Date();
  const log = (message: string): void => void process.stderr.write(`[soak] ${message}\n`);

  const dir = makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  let daemon: RunningDaemon | undefined;
  try {
    const key = await createKey(repoRoot, dbPath, 'soak');
    daemon = await spawnDaemon({
      repoRoot,
      dir,
      env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_LOG_LEVEL: 'info', MOWABILITY_RATE_LIMIT_MAX: '1000000000' },
      configFile: { stations: benchStations(STATIONS) },
      nodeArgs: options.daemonNodeArgs,
    });
    const running = daemon;
    // Generous: on the shared 2-core machine a loaded start has taken more than 15 s.
    await waitHealthy(running, 60_000);
    log(`daemon pid ${running.child.pid}; ${options.minutes} min of mixed load (HTTP ${HTTP_RATE} req/s, ${STATIONS} readings/s)`);

    const http = autocannon({
      url: `http://${LOOPBACK}:${running.httpPort}/v1/calculate`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: HTTP_BENCH_BODY,
      connections: 2,
      overallRate: HTTP_RATE,
      duration: durationS,
    });
    const publisher = await connectPublisher(running.brokerPort, 'soak-publisher');
    let tick = 0;
    let published = 0;
    const mqttTimer = setInterval(() => {
      for (const reading of rtl433Readings(STATIONS, 1, Date.now(), ++tick)) {
        publisher.publish(reading.topic, reading.payload, { qos: 1 });
        published++;
      }
    }, 1000);

    const samples: { seconds: number; rssMb: number }[] = [];
    const started = Date.now();
    let ioAtWarmup = readIo(running.child.pid);
    let warmupAt = started;
    while (Date.now() - started < durationS * 1000) {
      await sleep(SAMPLE_MS);
      if (running.child.exited) throw new Error(`daemon exited during the soak:\n${running.child.tail()}`);
      const seconds = (Date.now() - started) / 1000;
      samples.push({ seconds, rssMb: readMemory(running.child.pid).rssBytes / MIB });
      if (seconds < warmupS) {
        ioAtWarmup = readIo(running.child.pid);
        warmupAt = Date.now();
      }
      if (samples.length % 12 === 0) log(`${Math.round(seconds)} s: RSS ${samples.at(-1)?.rssMb.toFixed(1)} MB`);
    }
    clearInterval(mqttTimer);
    const httpResult = await http;
    const io = ioDelta(readIo(running.child.pid), ioAtWarmup);
    const measuredHours = (Date.now() - warmupAt) / 3_600_000;
    await publisher.endAsync();

    const steady = samples.filter((s) => s.seconds >= warmupS);
    const slopeMbPer10Min =
      slope(
        steady.map((s) => s.seconds),
        steady.map((s) => s.rssMb),
      ) * 600;
    const blocks = blockMedians(
      steady.map((s) => s.seconds),
      steady.map((s) => s.rssMb),
      BLOCK_S,
    );
    const blockFit = slopeInterval(blocks.xs, blocks.ys);
    const figures: Figure[] = [
      measured(
        'soak.rssSlope',
        `RSS slope after ${warmupS} s warm-up`,
        slopeMbPer10Min,
        'MB/10 min',
        atMost(1),
        `${steady.length} samples over ${((steady.at(-1)?.seconds ?? 0) - (steady[0]?.seconds ?? 0)).toFixed(0)} s`,
      ),
      measured(
        'soak.rssSlopeBlocks',
        `RSS slope over ${BLOCK_S} s block medians`,
        blockFit.slope * 600,
        'MB/10 min',
        undefined,
        `± ${(blockFit.halfWidth95 * 600).toFixed(2)} MB/10 min (95 % CI, ${blockFit.n} blocks)`,
      ),
      measured(
        'soak.rssNetChange',
        'RSS change, last minute vs first minute after warm-up, per 10 min',
        netChangePer10Min(steady),
        'MB/10 min',
        undefined,
        'medians of the first and last minute: less sensitive to V8 heap sawtooth than the fitted slope',
      ),
      measured('soak.rssStart', 'RSS at the end of the warm-up', steady[0]?.rssMb ?? Number.NaN, 'MB'),
      measured('soak.rssEnd', 'RSS at the end', steady.at(-1)?.rssMb ?? Number.NaN, 'MB'),
      measured('soak.rssMax', 'RSS max', Math.max(...samples.map((s) => s.rssMb)), 'MB'),
      measured(
        'soak.http',
        'HTTP calculations',
        httpResult.requests.total,
        'requests',
        undefined,
        `${httpResult.non2xx} non-2xx, ${httpResult.errors} errors`,
      ),
      measured('soak.httpNon2xx', 'HTTP non-2xx + errors', httpResult.non2xx + httpResult.errors, 'responses', atMost(0)),
      measured('soak.readings', 'readings published', published, 'readings'),
      measured('soak.writeMbPerHour', 'storage writes per hour (after warm-up)', io.writeBytes / MIB / measuredHours, 'MB/h'),
    ];
    const result: BenchResult = {
      name: 'soak',
      title: `Soak: ${options.minutes} min mixed load`,
      figures,
      details: { samples, durationS, warmupS, io },
      durationMs: Date.now() - started,
    };
    process.stdout.write(`${renderTable(result)}\n`);
    writeJson(resultsPath(options.resultsDir, 'soak', startedAt), { startedAt, machine: machineInfo(), ...result });
  } finally {
    await daemon?.child.stop(10_000);
    removeDir(dir);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
