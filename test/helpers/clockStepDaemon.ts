/**
 * The built daemon under libfaketime (Debian `faketime`): its wall clock is the real one moved by
 * an offset the test rewrites while the daemon runs ("+1d", "-365d", "+0"), its monotonic clock
 * stays real (FAKETIME_DONT_FAKE_MONOTONIC), as on a Raspberry Pi whose clock NTP steps.
 * Readings go in over MQTT (the embedded broker); the station's state and the bridge stats come
 * back over MQTT; the history is read from the database once the daemon has stopped.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { Database } from '../../src/store/database.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import { startDaemonProcess, type DaemonProcess } from './httpDaemon.js';
import { queryReadOnly } from './robustnessProcess.js';
import { waitUntil } from './wait.js';

export const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
export const DAY_MS = 86_400_000;
export const STATION_TOPIC = 'weather/garden';

export interface ClockStepSetup {
  dir: string;
  dbPath: string;
  /** With a timestamp key, readings carry their own time (`ts`, epoch seconds). */
  payloadTime?: boolean;
  /** Simulate systemd-timesyncd: the marker directory exists; `synced()` creates the marker. */
  timesync?: boolean;
  env?: Record<string, string>;
  /** More of the station's configuration (a forecast topic, a mower control). */
  station?: Record<string, unknown>;
}

export interface ReadingValues {
  t: number;
  total: number;
  r?: number;
  /** Epoch seconds (stations with a timestamp key). */
  ts?: number;
}

export interface SteppedDaemon {
  process: DaemonProcess;
  /** The embedded broker's port. */
  port: number;
  states: StationStatePayload[];
  latest(): StationStatePayload | undefined;
  stats(): Record<string, unknown> | undefined;
  /** Publishes one reading (QoS 1) and waits until the bridge stats count it as handled. */
  reading(values: ReadingValues): Promise<void>;
  /** Publishes readings in order and waits until the bridge stats count them all as handled. */
  readings(list: readonly ReadingValues[]): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function fakeTimeFile(dir: string): string {
  return join(dir, 'faketime');
}

/** Sets the daemon's wall-clock offset from the real time, e.g. "+1d", "-30m", "+0". */
export function setClockOffset(dir: string, offset: string): void {
  writeFileSync(fakeTimeFile(dir), `${offset}\n`);
}

export function markSynced(dir: string): void {
  writeFileSync(join(dir, 'timesync', 'synchronized'), '');
}

function configFile(setup: ClockStepSetup): string {
  const file = join(setup.dir, 'config.json');
  const fields = { temperature: 't', humidity: 'h', wind_speed: 'w', precipitation_rate: 'r', rain_total: 'total' };
  const station = {
    id: 'garden',
    name: 'Garden',
    format: 'json',
    topic: STATION_TOPIC,
    fields,
    ...(setup.payloadTime ? { timestampKey: 'ts' } : {}),
    ...setup.station,
  };
  writeFileSync(file, JSON.stringify({ stations: [station] }));
  return file;
}

export async function startStepped(setup: ClockStepSetup, offset: string): Promise<SteppedDaemon> {
  setClockOffset(setup.dir, offset);
  const timesync = join(setup.dir, 'timesync');
  if (setup.timesync && !existsSync(timesync)) mkdirSync(timesync);
  const process = await startDaemonProcess(
    {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: fakeTimeFile(setup.dir),
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      MOWABILITY_DB_PATH: setup.dbPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_BROKER_ENABLED: 'true',
      MOWABILITY_BROKER_PORT: '0',
      MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
      MOWABILITY_STATION_RECOMPUTE_INTERVAL_SECONDS: '1',
      MOWABILITY_STATION_MOWABLE_ON_DELAY_MINUTES: '0',
      MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: '1',
      MOWABILITY_HOMEASSISTANT_DISCOVERY: 'false',
      MOWABILITY_CLOCK_SYNC_MARKER_PATH: join(timesync, 'synchronized'),
      ...setup.env,
    },
    ['--config', configFile(setup)],
  );
  let client: MqttClient | undefined;
  let port = 0;
  try {
    await waitUntil(() => process.logLines().some((line) => line.msg === 'embedded MQTT broker listening'), 'the embedded broker', 10_000);
    port = Number(process.logLines().find((line) => line.msg === 'embedded MQTT broker listening')?.port);
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000 });
  } catch (err) {
    await process.stop('SIGKILL');
    throw err;
  }
  const connection = client;
  const states: StationStatePayload[] = [];
  let stats: Record<string, unknown> | undefined;
  connection.on('message', (topic, payload) => {
    if (topic === 'mowability/garden/state') states.push(JSON.parse(String(payload)) as StationStatePayload);
    if (topic === 'mowability/bridge/stats') stats = JSON.parse(String(payload)) as Record<string, unknown>;
  });
  await connection.subscribeAsync(['mowability/garden/state', 'mowability/bridge/stats'], { qos: 0 });
  await waitUntil(() => stats !== undefined, 'the bridge stats', 10_000);
  const readings = async (list: readonly ReadingValues[]): Promise<void> => {
    const handled = (): number => Number(stats?.accepted ?? 0) + Number(stats?.duplicates ?? 0) + Number(stats?.rejected ?? 0);
    const before = handled();
    for (const values of list) await connection.publishAsync(STATION_TOPIC, JSON.stringify({ h: 60, w: 5, r: 0, ...values }), { qos: 1 });
    await waitUntil(() => handled() >= before + list.length, 'the readings handled (bridge stats)', 10_000);
  };
  return {
    process,
    port,
    states,
    latest: () => states.at(-1),
    stats: () => stats,
    reading: (values) => readings([values]),
    readings,
    async stop(signal = 'SIGTERM') {
      await connection.endAsync(true);
      await process.stop(signal);
    },
  };
}

/** Peak resident memory of a process (VmHWM, bytes). */
export function peakRssBytes(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Rain stored in the history (mm) and its minute rows, read after the daemon stopped. */
export async function storedHistory(dbPath: string): Promise<{ rainMm: number; rows: number }> {
  const database = await Database.open(dbPath);
  try {
    const row = await database.get<{ rain: number | null; rows: number }>(
      'SELECT SUM(rain_mm) AS rain, COUNT(*) AS rows FROM history_minutes',
    );
    return { rainMm: Math.round((row?.rain ?? 0) * 1000) / 1000, rows: row?.rows ?? 0 };
  } finally {
    await database.close();
  }
}

/**
 * The rain counter's total as the running daemon's last commit stored it (read-only, from outside),
 * or undefined before it is stored: what survives a SIGKILL. A commit counter is no proof, since
 * the station state and retained messages are committed without readings.
 */
export async function committedCounterMm(dbPath: string): Promise<number | undefined> {
  const rows = await queryReadOnly<{ total: number | null }>(dbPath, 'SELECT MAX(total_mm) AS total FROM history_counters');
  return rows[0]?.total ?? undefined;
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
