import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
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
});
