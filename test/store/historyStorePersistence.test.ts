import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { DEFAULT_HISTORY_OPTIONS, type TimedReading } from '../../src/history/stationHistory.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import { HistoryService } from '../../src/station/historyService.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { mqttTempDir, silentLogger } from '../helpers/mqttHarness.js';

const station: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const T0 = Date.parse('2026-06-01T00:00:00Z');

function reading(timeMs: number, temperature: number, rainDeltaMm = 0): TimedReading {
  return { timeMs, values: { temperature }, rainCounters: [], rainDeltaMm, fingerprint: `${timeMs}`, dropped: [] };
}

describe('history persistence (SQLite adapter + batching)', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let database: Database;

  beforeEach(async () => {
    temp = mqttTempDir();
    database = await Database.open(temp.dbPath);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await database.close();
    temp.cleanup();
  });

  function service(flushIntervalMs = 5000): HistoryService {
    return new HistoryService({
      store: new HistoryStore(database),
      stations: [station],
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs,
      logger: silentLogger,
    });
  }

  it('commits at most once per interval under load and never when idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const history = service();
    await history.start();
    for (let i = 0; i < 300; i++) history.ingest('garden', reading(T0 + i * 1000, 10 + (i % 7)));
    expect(history.commits).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    await vi.waitFor(() => expect(history.commits).toBe(1));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(history.commits).toBe(1);
    history.ingest('garden', reading(T0 + 400_000, 9));
    await history.stop(); // SIGTERM: the pending change is written at once
    expect(history.commits).toBe(2);
    const rows = await database.all<{ n: number }>('SELECT COUNT(*) AS n FROM history_buckets');
    expect(rows[0]?.n).toBe(6);
  });

  it('restores exactly what it wrote, and prunes rows older than 14 days', async () => {
    const first = service();
    await first.start();
    const now = T0 + RETENTION_MINUTES * MINUTE_MS;
    first.ingest('garden', reading(T0 - 10 * MINUTE_MS, 1, 2)); // older than 14 days at `now`
    for (let t = now - 4 * 3_600_000; t <= now; t += 5 * MINUTE_MS)
      first.ingest('garden', reading(t, 12, t === now - 30 * MINUTE_MS ? 1.4 : 0));
    first.setStationState({ station: 'garden', mowable: true, aboveSinceMs: now - 20 * MINUTE_MS });
    await first.stop();

    const second = service();
    await second.start();
    expect(second.assemble('garden', now)).toEqual(first.assemble('garden', now));
    // The flag is restored; its on-timer starts over (the time the daemon was down was not watched).
    expect(second.stationState('garden')).toEqual({ station: 'garden', mowable: true, aboveSinceMs: null });
    expect(await database.all('SELECT mowable, above_since_ms FROM history_station_state')).toEqual([
      { mowable: 1, above_since_ms: now - 20 * MINUTE_MS },
    ]);
    const before = await database.all<{ minute: number }>('SELECT minute FROM history_buckets');
    await second.prune(now);
    const after = await database.all<{ minute: number }>('SELECT minute FROM history_buckets');
    expect(after.length).toBe(before.length - 1);
    expect(Math.min(...after.map((row) => row.minute))).toBeGreaterThanOrEqual(Math.floor(now / MINUTE_MS) - RETENTION_MINUTES);
    await second.stop();
  });

  async function storedRainMm(): Promise<number> {
    const row = await database.get<{ mm: number | null }>("SELECT SUM(rain_mm) AS mm FROM history_buckets WHERE station = 'garden'");
    return row?.mm ?? 0;
  }

  it('counts a QoS 1 redelivery after a restart once (fingerprints are stored with the data)', async () => {
    const now = T0 + 60 * MINUTE_MS;
    const packets = Array.from({ length: 12 }, (_, i) => reading(T0 + i * 5 * MINUTE_MS, 10 + i, 0.5));
    const first = service();
    await first.start();
    for (const packet of packets) expect(first.ingest('garden', packet)).toBe('accepted');
    await first.stop();
    expect(await storedRainMm()).toBeCloseTo(6, 9);

    const second = service();
    await second.start();
    // The broker redelivers the unacknowledged tail, then everything again, out of order.
    for (const packet of [...packets.slice(-3), ...[...packets].reverse()])
      expect(second.ingest('garden', { ...packet })).toBe('duplicate');
    await second.stop();
    expect(second.commits).toBe(0);
    expect(await storedRainMm()).toBeCloseTo(6, 9);
    expect(second.assemble('garden', now)).toEqual(first.assemble('garden', now));
  });

  it('a batch lost in a crash takes its fingerprints with it: the redelivery is then counted exactly once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = service();
    await first.start();
    first.ingest('garden', reading(T0, 12, 0.5));
    await first.flush();
    first.ingest('garden', reading(T0 + MINUTE_MS, 12, 0.7)); // never written: the process dies here
    expect(await storedRainMm()).toBeCloseTo(0.5, 9);

    const second = service();
    await second.start();
    expect(second.ingest('garden', reading(T0, 12, 0.5))).toBe('duplicate');
    expect(second.ingest('garden', reading(T0 + MINUTE_MS, 12, 0.7))).toBe('accepted');
    expect(second.ingest('garden', reading(T0 + MINUTE_MS, 12, 0.7))).toBe('duplicate');
    await second.stop();
    expect(await storedRainMm()).toBeCloseTo(1.2, 9);
  });

  it('keeps one high-water row per station (not one per reading) and prunes it 14 days after the newest reading', async () => {
    const first = service();
    await first.start();
    const now = T0 + RETENTION_MINUTES * MINUTE_MS;
    for (let i = 0; i < 500; i++) first.ingest('garden', reading(now - 2 * 3_600_000 + i * 1000, 10));
    await first.flush();
    const rows = await database.all<{ at_ms: number }>('SELECT at_ms FROM history_high_water');
    expect(rows).toEqual([{ at_ms: now - 2 * 3_600_000 + 499_000 }]);
    await first.prune(now);
    expect(await database.all('SELECT at_ms FROM history_high_water')).toHaveLength(1);
    // Measured from the newest reading, not the wall clock: a station that went quiet keeps its last 14 days.
    const later = now + RETENTION_MINUTES * MINUTE_MS;
    await first.prune(later);
    expect(await database.all('SELECT at_ms FROM history_high_water')).toHaveLength(1);
    first.ingest('garden', reading(later, 10));
    await first.prune(later);
    expect(await database.all('SELECT at_ms FROM history_high_water')).toEqual([{ at_ms: later }]);
    await first.stop();
  });

  it('an upgrade turns the per-reading fingerprint rows into the high-water mark (migration 4)', async () => {
    const path = `${temp.dbPath}.old`;
    const old = await Database.open(path, { migrations: MIGRATIONS.filter((m) => m.version <= 3) });
    await old.run('INSERT INTO history_fingerprints (station, at_ms, hash) VALUES (?, ?, 1), (?, ?, 2), (?, ?, 3)', [
      'garden',
      T0,
      'garden',
      T0 + 5000,
      'shed',
      T0 + 1000,
    ]);
    await old.close();
    const upgraded = await Database.open(path);
    expect(await upgraded.all('SELECT station, at_ms FROM history_high_water ORDER BY station')).toEqual([
      { station: 'garden', at_ms: T0 + 5000 },
      { station: 'shed', at_ms: T0 + 1000 },
    ]);
    const history = new HistoryService({
      store: new HistoryStore(upgraded),
      stations: [station],
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs: 5000,
      logger: silentLogger,
    });
    await history.start();
    expect(history.ingest('garden', reading(T0 + 5000, 1, 0.2))).toBe('duplicate');
    expect(history.ingest('garden', reading(T0 + 6000, 1, 0.2))).toBe('accepted');
    await history.stop();
    await upgraded.close();
  });

  it('regression: SIGKILL rounds, then a full QoS 1 redelivery of 6,000 readings, count the rain once', async () => {
    // Abandoned services (the "killed" processes) must never flush later: their timers are fake and never advanced.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const packets = Array.from({ length: 6000 }, (_, i) => reading(T0 + i * 10_000, 10, 0.2));
    for (let round = 1; round <= 5; round++) {
      const killed = service();
      await killed.start();
      // The broker redelivers the whole queue from the start, then new readings follow.
      const committed = round * 1200 - 150;
      for (const packet of packets.slice(0, committed)) killed.ingest('garden', { ...packet });
      await killed.flush();
      for (const packet of packets.slice(committed, round * 1200)) killed.ingest('garden', { ...packet }); // lost with the process
    }
    const last = service();
    await last.start();
    for (const packet of packets) last.ingest('garden', { ...packet });
    await last.stop();
    expect(await storedRainMm()).toBeCloseTo(1200, 6);
    expect(await database.all('SELECT station FROM history_high_water')).toHaveLength(1);
  });
});
