/**
 * The status page's real parts together: the MQTT pipeline with its embedded
 * broker and the StationsRecorder unit (temp SQLite, fake clock), and the
 * HTTP app reading it through the same StationsView the daemon wires.
 */
import type { Reading, StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { createStationsView, type StationsView } from '../../src/http/stationsView.js';
import { StationsRecorder } from '../../src/http/stationsRecorder.js';
import type { Database } from '../../src/store/database.js';
import { closeApp } from '../../src/http/shutdown.js';
import { historyOptionsFor } from '../../src/config/historyOptions.js';
import { startHttpHarness, type HttpHarness } from './httpApp.js';
import { FakeClock, mqttTempDir, startMqttDaemon, testMqttConfig, type RunningDaemon } from './mqttHarness.js';

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
  recorder: StationsRecorder;
  dbPath: string;
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
  /** Reuse a database (restart tests). */
  dbPath?: string;
}

export async function startStationsHarness(options: StationsHarnessOptions = {}): Promise<StationsHarness> {
  const temp = options.dbPath ? undefined : mqttTempDir();
  const dbPath = options.dbPath ?? temp!.dbPath;
  const clock = new FakeClock(options.startMs ?? Date.parse('2026-06-15T10:00:00Z'));
  const config = testMqttConfig({ stations: [GARDEN], station: { mowableOnDelayMinutes: 0, recomputeDebounceMs: options.recomputeDebounceMs ?? 0 }, history: { freshnessMinutes: options.freshnessMinutes ?? 30 } });
  let daemon: RunningDaemon | undefined;
  let database: Database | undefined;
  // The chart series kept in the daemon's database, as the composition root wires them.
  const recorder = new StationsRecorder((id) => daemon?.service.stationState(id), { database: () => database!, stations: config.stations.map((station) => station.id) });
  daemon = await startMqttDaemon(dbPath, config, clock, undefined, (opened) => {
    database = opened;
    return [recorder, ...(options.units ?? [])];
  });
  const view = createStationsView({
    stations: config.stations,
    freshnessMs: (station) => historyOptionsFor(config, station).freshnessMs,
    stateOf: (id) => daemon?.service.stationState(id),
    recorder,
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
    stop,
    async cleanup() {
      await stop();
      temp?.cleanup();
    },
  };
}

export function reading(values: Reading['values'], rainDeltaMm?: number): Reading {
  return { values, rainCounters: [], ...(rainDeltaMm === undefined ? {} : { rainDeltaMm }), fingerprint: JSON.stringify([values, rainDeltaMm]), dropped: [] };
}
