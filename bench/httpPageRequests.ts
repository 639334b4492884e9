/**
 * What the status page and the REST client of a household day cost per request, measured in one
 * daemon instead of as the difference of two household runs: `node dist-bench/bench/httpPageRequests.js
 * [requests per route] [rounds]`. The household bench's set-up (the real daemon, 10 stations on
 * 14-day databases, an Open-Meteo forecast per station from the loopback stand-in, readings at a
 * station's pace throughout); the daemon's CPU while it only takes readings is measured first, and
 * each route's burst is charged only the CPU above that rate. Prints CPU per request for each
 * route the page polls (public/assets/app.js: the station list and the station's detail every
 * poll, the 48-hour history every fourth) and /v1/calculate, and the sum for one minute of the
 * household's page and REST client. Not part of `npm run bench`: the household bench gives the
 * day's totals; this one says which request costs what.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { createKey } from './lib/cli.js';
import { spawnDaemon, waitHealthy } from './lib/daemon.js';
import { PAGE_POLL_MS, REST_CALL_MS, publishAtStationPace, startFakeForecast } from './lib/householdLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { connectPublisher } from './lib/mqttLoad.js';
import { readCpuMicros } from './lib/proc.js';
import { benchStations } from './lib/rtl433.js';
import { seedHistory } from './lib/seedHistory.js';
import { median } from './lib/stats.js';
import { makeTempDir } from './lib/tempDir.js';
import { sleep, waitFor } from './lib/time.js';

const STATION_COUNT = 10;
const HISTORY_EVERY_POLLS = 4;

interface Route {
  name: string;
  path: string;
  init: RequestInit;
  /** How often one minute of the household asks for it. */
  perMinute: number;
}

function routes(apiKey: string): Route[] {
  const polls = 60_000 / PAGE_POLL_MS;
  const page: RequestInit = { headers: { accept: 'application/json', 'cache-control': 'no-store' } };
  return [
    { name: 'GET /v1/stations', path: '/v1/stations', init: page, perMinute: polls },
    { name: 'GET /v1/stations/{id}', path: '/v1/stations/bench0', init: page, perMinute: polls },
    {
      name: 'GET /v1/stations/{id}/history (48 h)',
      path: '/v1/stations/bench0/history?hours=48&step=10m',
      init: page,
      perMinute: polls / HISTORY_EVERY_POLLS,
    },
    {
      name: 'POST /v1/calculate',
      path: '/v1/calculate',
      init: { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: HTTP_BENCH_BODY },
      perMinute: 60_000 / REST_CALL_MS,
    },
  ];
}

/** CPU per request (µs) of `count` requests one after the other, less the background rate over the burst. */
async function burst(pid: number, port: number, route: Route, count: number, backgroundPerMs: number): Promise<number> {
  const started = Date.now();
  const cpuBefore = readCpuMicros(pid);
  for (let i = 0; i < count; i++) {
    const response = await fetch(`http://127.0.0.1:${port}${route.path}`, route.init);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${route.name}: HTTP ${response.status}`);
  }
  return (readCpuMicros(pid) - cpuBefore - backgroundPerMs * (Date.now() - started)) / count;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 50);
  const rounds = Number(process.argv[3] ?? 3);
  const repoRoot = process.cwd();
  const dir = makeTempDir();
  const ids = benchStations(STATION_COUNT).map((station) => station.id);
  await seedHistory(join(dir, 'mowability.db'), ids, Date.now() - 60_000);
  const apiKey = await createKey(repoRoot, join(dir, 'mowability.db'), 'household');
  const forecast = await startFakeForecast(repoRoot);
  const stations = benchStations(STATION_COUNT).map((station) => ({
    ...station,
    location: { latitude: 52.52, longitude: 13.41 },
    forecast: { source: 'open-meteo' },
  }));
  const daemon = await spawnDaemon({
    repoRoot,
    dir,
    env: { MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_FORECAST_OPEN_METEO_URL: forecast.baseUrl },
    configFile: { stations },
  });
  const stop = new AbortController();
  try {
    await waitHealthy(daemon, 30_000);
    await waitFor(() => forecast.requests >= STATION_COUNT, {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'every station fetched its forecast',
    });
    const publisher = await connectPublisher(daemon.brokerPort, 'page-requests');
    const publishing = publishAtStationPace(publisher, STATION_COUNT, 3_600_000, stop.signal);
    await sleep(20_000); // every station has readings and a state
    const pid = daemon.child.pid;
    const cpuBefore = readCpuMicros(pid);
    const before = Date.now();
    await sleep(20_000);
    const backgroundPerMs = (readCpuMicros(pid) - cpuBefore) / (Date.now() - before);
    console.log(
      `load average ${loadavg()[0]?.toFixed(1)}; readings + forecast alone: ${((backgroundPerMs * 60_000) / 1000).toFixed(0)} ms CPU per minute`,
    );
    const list = routes(apiKey);
    const perRound = new Map<string, number[]>(list.map((route) => [route.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const route of list) perRound.get(route.name)?.push(await burst(pid, daemon.httpPort, route, count, backgroundPerMs));
    }
    let minute = 0;
    for (const route of list) {
      const values = perRound.get(route.name) ?? [];
      const micros = median(values);
      minute += micros * route.perMinute;
      console.log(
        `${route.name.padEnd(40)} ${(micros / 1000).toFixed(2)} ms CPU per request (rounds ${values.map((v) => (v / 1000).toFixed(2)).join('/')}), ${route.perMinute} per minute`,
      );
    }
    console.log(
      `page + REST client: ${(minute / 1000).toFixed(1)} ms CPU per minute, ${((minute * 1440) / 1e6).toFixed(1)} CPU-s per day; load average ${loadavg()[0]?.toFixed(1)}`,
    );
    stop.abort();
    await publishing;
    await publisher.endAsync();
  } finally {
    stop.abort();
    await daemon.child.stop();
    await forecast.close();
    daemon.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
