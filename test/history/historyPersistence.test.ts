import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { DEFAULT_HISTORY_OPTIONS, StationHistory, type TimedReading } from '../../src/history/stationHistory.js';
import type { BucketRow } from '../../src/history/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../../src/history/windows.js';
import { HistoryService } from '../../src/station/historyService.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { RetainedStore } from '../../src/store/retainedStore.js';
import { mqttTempDir, silentLogger } from '../helpers/mqttHarness.js';

const garden: StationConfig = { id: 'garden', name: 'Garden', format: 'fields', topic: 'garden/+' };
const shed: StationConfig = { id: 'shed', name: 'Shed', format: 'fields', topic: 'shed/+' };
const NOW = Date.parse('2026-06-15T12:00:30Z');
const FLUSH_MS = 300_000;
const COUNTER = 'wh24/rain_mm';

function counterReading(timeMs: number, totalMm: number, temperature = 14): TimedReading {
  return { timeMs, values: { temperature }, rainCounters: [{ key: COUNTER, totalMm }], fingerprint: `${timeMs}`, dropped: [] };
}

/** 14 days of buckets as an older version stored them; rain on every 97th minute. */
function fourteenDays(offset: number): BucketRow[] {
  const last = Math.floor(NOW / MINUTE_MS) - 1;
  return Array.from({ length: RETENTION_MINUTES }, (_, i) => {
    const minute = last - RETENTION_MINUTES + 1 + i;
    return { minute, rainMm: minute % 97 === offset ? 0.3 : 0, rainObserved: true, tempMinC: ((minute + offset) % 200) / 10 - 5 };
  });
}

describe('history persistence: schema 5, one commit with the retained messages, bounded loss', () => {
  let temp: ReturnType<typeof mqttTempDir>;

  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(() => {
    vi.useRealTimers();
    temp.cleanup();
  });

  function service(database: Database, stations: StationConfig[] = [garden]): HistoryService {
    return new HistoryService({
      store: new HistoryStore(database),
      stations,
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs: FLUSH_MS,
      logger: silentLogger,
    });
  }

  it('an upgrade (migration 5) keeps a 14-day history of two stations: same buckets, assembly and last reading', async () => {
    const old = await Database.open(temp.dbPath, { migrations: MIGRATIONS.filter((m) => m.version <= 4) });
    const stored = new Map([
      ['garden', fourteenDays(3)],
      ['shed', fourteenDays(40)],
    ]);
    for (const [station, rows] of stored) {
      for (let start = 0; start < rows.length; start += 1000) {
        const chunk = rows.slice(start, start + 1000);
        await old.run(
          `INSERT INTO history_buckets (station, minute, rain_mm, rain_observed, temp_min_c) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          chunk.flatMap((b) => [station, b.minute, b.rainMm, b.rainObserved ? 1 : 0, b.tempMinC]),
        );
      }
      await old.run('INSERT INTO history_latest (station, field, value, at_ms) VALUES (?, ?, ?, ?)', [
        station,
        'temperature',
        11.5,
        NOW - MINUTE_MS,
      ]);
      await old.run('INSERT INTO history_counters (station, counter, total_mm, at_ms) VALUES (?, ?, ?, ?)', [
        station,
        COUNTER,
        88.1,
        NOW - MINUTE_MS,
      ]);
      await old.run('INSERT INTO history_high_water (station, at_ms) VALUES (?, ?)', [station, NOW - MINUTE_MS]);
    }
    await old.close();

    const upgraded = await Database.open(temp.dbPath);
    // Migration 9 (after 5) keys the buckets by rowid, (minute, station slot).
    const keys = await upgraded.all<{ name: string; pk: number }>(
      "SELECT name, pk FROM pragma_table_info('history_minutes') WHERE pk > 0 ORDER BY pk",
    );
    expect(keys.map((key) => key.name)).toEqual(['bucket']);
    const history = service(upgraded, [garden, shed]);
    await history.start();
    for (const [station, rows] of stored) {
      const expected = new StationHistory(DEFAULT_HISTORY_OPTIONS, {
        buckets: rows,
        latest: [{ field: 'temperature', value: 11.5, atMs: NOW - MINUTE_MS }],
        counters: [{ key: COUNTER, totalMm: 88.1, atMs: NOW - MINUTE_MS }],
      });
      expect(history.buckets(station, 0, NOW)).toEqual(rows);
      expect(history.buckets(station, NOW - 3 * 3_600_000, NOW - 3_600_000)).toEqual(
        expected.buckets(NOW - 3 * 3_600_000, NOW - 3_600_000),
      );
      expect(history.assemble(station, NOW)).toEqual(expected.assemble(NOW));
      expect(history.lastReadingAtMs(station)).toBe(NOW - MINUTE_MS);
      // The restored high-water mark still refuses a redelivery.
      expect(history.ingest(station, counterReading(NOW - MINUTE_MS, 88.1))).toBe('duplicate');
    }
    expect(history.assemble('garden', NOW).input.rain_14d).toBeGreaterThan(0);
    await history.stop();
    await upgraded.close();
  }, 60_000);

  it("retained messages are written in the history's commit, SIGTERM writes both, and after stop they commit alone", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const database = await Database.open(temp.dbPath);
    const retained = new RetainedStore(database);
    const history = service(database);
    await history.start();
    const message = (topic: string, text: string) => new Map([[topic, { topic, payload: Buffer.from(text), qos: 1 as const }]]);
    const topics = async () =>
      (await database.all<{ topic: string }>('SELECT topic FROM retained_messages ORDER BY topic')).map((row) => row.topic);

    history.ingest('garden', counterReading(NOW, 10));
    await retained.save(message('user/a', 'one'), NOW);
    expect(await topics()).toEqual([]); // staged, not yet written
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    await vi.waitFor(() => expect(history.commits).toBe(1));
    expect(await topics()).toEqual(['user/a']);

    // A retained change alone also waits for the history's next commit, then rides in it.
    await retained.save(message('user/b', 'two'), NOW);
    history.ingest('garden', counterReading(NOW + 16_000, 10));
    await history.stop(); // SIGTERM
    expect(history.commits).toBe(2);
    expect(await topics()).toEqual(['user/a', 'user/b']);
    expect(await database.get('SELECT COUNT(*) AS n FROM history_buckets')).toEqual({ n: 1 });

    // The broker stops after the history: its final save is written at once.
    await retained.save(message('user/a', ''), NOW);
    expect(await topics()).toEqual(['user/b']);
    await database.close();
  });

  it('a power cut loses at most the last flush interval, and counter rain of the lost minutes is counted after the restart', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const database = await Database.open(temp.dbPath);
    // Commits run on real SQLite I/O: wait for each before the fake clock moves on.
    const store = new HistoryStore(database);
    const saves: Promise<unknown>[] = [];
    const save = store.save.bind(store);
    store.save = (batch) => {
      const saving = save(batch);
      saves.push(saving);
      return saving;
    };
    const first = new HistoryService({
      store,
      stations: [garden],
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs: FLUSH_MS,
      logger: silentLogger,
    });
    await first.start();
    const start = NOW - 2 * 3_600_000;
    let lastReading = 0;
    let lastTotal = 0;
    // One reading per 16 s for 20 minutes, 0.1 mm of rain per reading, the timers running along.
    for (let i = 0; i < 75; i++) {
      lastReading = start + i * 16_000;
      lastTotal = 50 + i * 0.1;
      first.ingest('garden', counterReading(lastReading, lastTotal));
      await vi.advanceTimersByTimeAsync(16_000);
      await Promise.all(saves);
    }
    const committed = first.commits;
    expect(committed).toBeGreaterThanOrEqual(3);
    // The power goes: `first` is abandoned without stop(), its pending rows lost.
    const second = service(database);
    await second.start();
    const restored = second.lastReadingAtMs('garden')!;
    expect(lastReading - restored).toBeLessThanOrEqual(FLUSH_MS);
    expect(restored).toBeLessThan(lastReading); // something was lost, so the bound was tested
    // The station keeps sending: the counter step since the restored baseline books the lost rain.
    const next = lastReading + 16_000;
    expect(second.ingest('garden', counterReading(next, lastTotal + 0.1))).toBe('accepted');
    const rain = second.buckets('garden', start, next).reduce((sum, bucket) => sum + bucket.rainMm, 0);
    expect(rain).toBeCloseTo(lastTotal + 0.1 - 50, 6);
    await second.stop();
    await database.close();
  });
});
