/**
 * The status page's real parts together: the station pipeline with the embedded
 * broker and the ChartRecorder unit (temp SQLite, fake clock), and the
 * HTTP app reading it through the same StationsView the daemon wires.
 */
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { createStationsView, type StationsView } from '../../src/http/stationsView.js';
import { ChartRecorder } from '../../src/station/chartRecorder.js';
import type { Database } from '../../src/store/database.js';
import { closeApp } from '../../src/http/shutdown.js';
import { historyOptionsFor } from '../../src/config/historyOptions.js';
import { startHttpHarness, type HttpHarness } from './httpApp.js';
import { MINUTE_MS } from '../../src/history/windows.js';
import { FakeClock, mqttTempDir, publishOnce, startMqttDaemon, testMqttConfig, waitUntil, type RunningDaemon } from './mqttHarness.js';

export const GARDEN: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind', rain_delta: 'rain' },
};

export interface StationsHarness {
  clock: FakeClock;
  daemon: RunningDaemon;
  http: HttpHarness;
  view: StationsView;
  recorder: ChartRecorder;
  dbPath: string;
  /** Listens on an ephemeral loopback port (for a browser) and returns the address. */
  listen(): Promise<string>;
  /** Stops the HTTP app and the daemon; the database stays until cleanup(). */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export interface StationsHarnessOptions {
  env?: Record<string, string>;
  freshnessMinutes?: number;
  statusPagePollMs?: number;
  startMs?: number;
  /** Debounce of the recomputation (default 0: every reading recomputes at once). */
  recomputeDebounceMs?: number;
  /** More station units (a stand-in forecast). */
  units?: readonly StationUnit[];
  /** More station units built on the daemon's database (a mower control with its run ledger). */
  unitsOf?: (database: Database, clock: FakeClock) => readonly StationUnit[];
  /** Reuse a database (restart tests). */
  dbPath?: string;
  /** More keys of the station "garden" (its lawns). */
  station?: Readonly<Record<string, unknown>>;
}

export async function startStationsHarness(options: StationsHarnessOptions = {}): Promise<StationsHarness> {
  const temp = options.dbPath ? undefined : mqttTempDir();
  const dbPath = options.dbPath ?? temp!.dbPath;
  const clock = new FakeClock(options.startMs ?? Date.parse('2026-06-15T10:00:00Z'));
  const config = testMqttConfig({
    stations: [{ ...GARDEN, ...options.station } as typeof GARDEN],
    station: { mowableOnDelayMinutes: 0, recomputeDebounceMs: options.recomputeDebounceMs ?? 0 },
    history: { freshnessMinutes: options.freshnessMinutes ?? 30 },
  });
  let database: Database | undefined;
  // The chart series kept in the daemon's database, as the composition root wires them.
  const recorder = new ChartRecorder({ database: () => database!, stations: config.stations.map((station) => station.id) });
  const daemon: RunningDaemon = await startMqttDaemon(dbPath, config, clock, undefined, (opened) => {
    database = opened;
    return [recorder, ...(options.units ?? []), ...(options.unitsOf?.(opened, clock) ?? [])];
  });
  const view = createStationsView({
    stations: config.stations,
    freshnessMs: (station) => historyOptionsFor(config, station).freshnessMs,
    stateOf: (id) => daemon.service.stationState(id),
    series: recorder,
  });
  const http = await startHttpHarness({
    env: options.env ?? {},
    overrides: { stations: view, clock, ...(options.statusPagePollMs ? { statusPagePollMs: options.statusPagePollMs } : {}) },
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    // Browsers open spare connections that never send a request; closeApp ends them after a moment.
    await closeApp(http.app);
    await http.close();
    await daemon.stop();
  };
  return {
    clock,
    daemon,
    http,
    view,
    recorder,
    dbPath,
    listen: () => http.app.listen({ port: 0, host: '127.0.0.1' }),
    stop,
    async cleanup() {
      await stop();
      temp?.cleanup();
    },
  };
}

/** GARDEN's payload number `i` of a feed: a dry, mild day warming up. */
function dryReading(i: number): object {
  return { temp: 17 + i, rate: 0, hum: 55 + i, wind: 5, rain: 0 };
}

/**
 * Publishes `count` readings through the embedded broker, the clock ten minutes on before each
 * (within the history's gap limit), and waits for each one's state before the next.
 */
export async function feedThroughBroker(h: StationsHarness, count: number, payload: (i: number) => object = dryReading): Promise<void> {
  for (let i = 0; i < count; i++) {
    h.clock.advance(10 * MINUTE_MS);
    const outcome = await publishOnce(h.daemon.port, 'garden/weather', JSON.stringify(payload(i)), { qos: 1 });
    if (outcome !== 'handled') throw new Error(`reading ${i} was not handled: ${outcome}`);
    const at = new Date(h.clock.now()).toISOString();
    await waitUntil(() => h.daemon.service.stationState(GARDEN.id)?.last_reading_at === at, `the state of reading ${i}`);
  }
}
