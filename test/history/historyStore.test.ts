import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { MAX_FINGERPRINTS } from '../../src/history/fingerprints.js';
import { DEFAULT_HISTORY_OPTIONS, type TimedReading } from '../../src/history/stationHistory.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import { HistoryService } from '../../src/mqtt/historyService.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
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
    return new HistoryService({ store: new HistoryStore(database), stations: [station], optionsFor: () => DEFAULT_HISTORY_OPTIONS, flushIntervalMs, logger: silentLogger });
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
    for (let t = now - 4 * 3_600_000; t <= now; t += 5 * MINUTE_MS) first.ingest('garden', reading(t, 12, t === now - 30 * MINUTE_MS ? 1.4 : 0));
    first.setStationState({ station: 'garden', mowable: true, aboveSinceMs: now - 20 * MINUTE_MS });
    await first.stop();

    const second = service();
    await second.start();
    expect(second.assemble('garden', now)).toEqual(first.assemble('garden', now));
    expect(second.stationState('garden')).toEqual({ station: 'garden', mowable: true, aboveSinceMs: now - 20 * MINUTE_MS });
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
    for (const packet of [...packets.slice(-3), ...[...packets].reverse()]) expect(second.ingest('garden', { ...packet })).toBe('duplicate');
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

  it('prunes fingerprints older than 14 days and beyond the newest MAX_FINGERPRINTS per station', async () => {
    const first = service();
    await first.start();
    const now = T0 + RETENTION_MINUTES * MINUTE_MS;
    first.ingest('garden', reading(T0 - MINUTE_MS, 5)); // older than 14 days at `now`
    const recent = Array.from({ length: MAX_FINGERPRINTS + 3 }, (_, i) => reading(now - 2 * 3_600_000 + i * 1000, 10));
    // Two batches: the filter in memory keeps the newest MAX_FINGERPRINTS, the table still has the first batch.
    for (const packet of recent.slice(0, 3)) first.ingest('garden', packet);
    await first.flush();
    for (const packet of recent.slice(3)) first.ingest('garden', packet);
    await first.flush();
    const count = async () => (await database.get<{ n: number }>('SELECT COUNT(*) AS n FROM history_fingerprints'))?.n;
    expect(await count()).toBe(recent.length + 1);
    await first.prune(now);
    expect(await count()).toBe(MAX_FINGERPRINTS);
    const oldest = await database.get<{ at: number }>('SELECT MIN(at_ms) AS at FROM history_fingerprints');
    expect(oldest?.at).toBe(recent[3]!.timeMs);
    await first.stop();

    const second = service();
    await second.start();
    expect(second.ingest('garden', { ...recent.at(-1)! })).toBe('duplicate');
    expect(second.ingest('garden', { ...recent[3]! })).toBe('duplicate');
    await second.stop();
  });
});
