import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../../src/ingest/types.js';
import { DEFAULT_HISTORY_OPTIONS, type TimedReading } from '../../../src/history/stationHistory.js';
import type { BucketRow } from '../../../src/history/types.js';
import { MINUTE_MS } from '../../../src/history/windows.js';
import { HistoryService } from '../../../src/station/historyService.js';
import { Database } from '../../../src/store/database.js';
import { HistoryStore } from '../../../src/store/historyStore.js';
import { MIGRATIONS } from '../../../src/store/migrations/index.js';
import { useTempDir } from '../../helpers/httpTempDir.js';
import { silentLogger } from '../../helpers/mqttHarness.js';

const NOW = Date.parse('2026-06-15T12:00:30Z');
const COUNTER = 'Fineoffset-WH24/100/rain_mm';
const stations: StationConfig[] = ['garden', 'shed'].map((id) => ({ id, name: id, format: 'fields', topic: `${id}/+` }));
/** Needs 17 significant digits: a 15-digit copy would change it. */
const AWKWARD = 0.1 + 0.2;

/** Three days of buckets as schema 8 stored them; rain every 97th minute. */
function days(offset: number): BucketRow[] {
  const last = Math.floor(NOW / MINUTE_MS) - 1;
  return Array.from({ length: 3 * 1440 }, (_, i) => {
    const minute = last - 3 * 1440 + 1 + i;
    return {
      minute,
      rainMm: minute % 97 === offset ? 0.3 : 0,
      rainObserved: i % 50 !== 0,
      tempMinC: i % 7 === 0 ? null : ((minute + offset) % 200) / 10 - 5,
    };
  });
}

/** Every history table of schema 8, in key order; after migration 9 the views of the same names must give the same rows. */
async function oldTables(db: Database): Promise<Record<string, unknown[]>> {
  return {
    history_buckets: await db.all(
      'SELECT minute, station, rain_mm, rain_observed, temp_min_c FROM history_buckets ORDER BY station, minute',
    ),
    history_latest: await db.all('SELECT station, field, value, at_ms FROM history_latest ORDER BY station, field'),
    history_counters: await db.all('SELECT station, counter, total_mm, at_ms FROM history_counters ORDER BY station, counter'),
    history_high_water: await db.all('SELECT station, at_ms, recent FROM history_high_water ORDER BY station'),
    history_station_state: await db.all('SELECT station, mowable, above_since_ms FROM history_station_state ORDER BY station'),
  };
}

async function writeSchema8(db: Database, stored: Map<string, BucketRow[]>): Promise<void> {
  for (const [station, rows] of stored) {
    for (let start = 0; start < rows.length; start += 500) {
      const chunk = rows.slice(start, start + 500);
      await db.run(
        `INSERT INTO history_buckets (minute, station, rain_mm, rain_observed, temp_min_c) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((b) => [b.minute, station, b.rainMm, b.rainObserved ? 1 : 0, b.tempMinC]),
      );
    }
    await db.run('INSERT INTO history_latest (station, field, value, at_ms) VALUES (?, ?, ?, ?), (?, ?, ?, ?)', [
      station,
      'temperature',
      AWKWARD,
      NOW - MINUTE_MS,
      station,
      'humidity',
      70,
      NOW - 2 * MINUTE_MS,
    ]);
    await db.run('INSERT INTO history_counters (station, counter, total_mm, at_ms) VALUES (?, ?, ?, ?)', [
      station,
      COUNTER,
      88.1,
      NOW - MINUTE_MS,
    ]);
    await db.run('INSERT INTO history_high_water (station, at_ms, recent) VALUES (?, ?, ?)', [
      station,
      NOW - MINUTE_MS,
      JSON.stringify([[NOW - MINUTE_MS, 12345]]),
    ]);
  }
  await db.run('INSERT INTO history_station_state (station, mowable, above_since_ms) VALUES (?, 1, ?), (?, 0, NULL)', [
    'garden',
    NOW - 3_600_000,
    'gone',
  ]);
  // A station no longer configured: its rows stay.
  await db.run("INSERT INTO history_latest (station, field, value, at_ms) VALUES ('gone', 'temperature', 3.5, 1000)");
}

describe('migration 9: one row per station, buckets in a rowid table', () => {
  const temp = useTempDir('mow-mqtt-');

  it('upgrades a schema 8 database without losing a row or a digit, and rain totals carry on through the counter', async () => {
    const stored = new Map([
      ['garden', days(3)],
      ['shed', days(40)],
    ]);
    const old = await Database.open(temp.dbPath, { migrations: MIGRATIONS.filter((m) => m.version <= 8) });
    await writeSchema8(old, stored);
    const before = await oldTables(old);
    await old.close();

    const upgraded = await Database.open(temp.dbPath);
    expect(await oldTables(upgraded)).toEqual(before);
    const store = new HistoryStore(upgraded);
    const restored = await store.loadAll(['garden', 'shed']);
    expect(restored.get('garden')!.rows.counters).toEqual([{ key: COUNTER, totalMm: 88.1, atMs: NOW - MINUTE_MS }]);
    expect(restored.get('garden')!.rows.latest).toEqual([
      { field: 'humidity', value: 70, atMs: NOW - 2 * MINUTE_MS },
      { field: 'temperature', value: AWKWARD, atMs: NOW - MINUTE_MS },
    ]);
    expect(restored.get('shed')!.rows.duplicates).toEqual({ highWaterMs: NOW - MINUTE_MS, recent: [[NOW - MINUTE_MS, 12345]] });
    expect(restored.get('garden')!.state).toEqual({ station: 'garden', mowable: true, aboveSinceMs: NOW - 3_600_000 });
    expect(restored.get('shed')!.state).toBeUndefined();

    const history = new HistoryService({
      store,
      stations,
      optionsFor: () => DEFAULT_HISTORY_OPTIONS,
      flushIntervalMs: 300_000,
      logger: silentLogger,
    });
    await history.start();
    for (const [station, rows] of stored) expect(history.buckets(station, 0, NOW)).toEqual(rows);
    const rainBefore = history.assemble('garden', NOW).input.rain_24h!;
    // The counter baseline survived: the next reading's step (88.1 → 88.7) is 0.6 mm of rain, no more, no less.
    const next: TimedReading = {
      timeMs: NOW,
      values: { temperature: 12 },
      rainCounters: [{ key: COUNTER, totalMm: 88.7 }],
      fingerprint: 'next',
      dropped: [],
    };
    expect(history.ingest('garden', next)).toBe('accepted');
    expect(history.assemble('garden', NOW).input.rain_24h!).toBeCloseTo(rainBefore + 0.6, 9);
    // The high-water mark survived: a redelivery of the last reading is refused.
    expect(history.ingest('shed', { ...next, timeMs: NOW - MINUTE_MS, fingerprint: 'old' })).toBe('duplicate');
    await history.stop();
    expect(await upgraded.all("SELECT field, value FROM history_latest WHERE station = 'garden' ORDER BY field")).toEqual([
      { field: 'humidity', value: 70 },
      { field: 'temperature', value: 12 },
    ]);
    expect(await upgraded.all("SELECT total_mm FROM history_counters WHERE station = 'garden'")).toEqual([{ total_mm: 88.7 }]);
    await upgraded.close();
  }, 60_000);

  it('prunes buckets, counter baselines and high-water marks older than 14 days from the station rows', async () => {
    const db = await Database.open(temp.dbPath);
    const store = new HistoryStore(db);
    const day = 86_400_000;
    const none = { buckets: [], counters: [], latest: [], duplicates: null };
    const minute = Math.floor(NOW / MINUTE_MS);
    const bucket = (m: number): BucketRow => ({ minute: m, rainMm: 0.2, rainObserved: true, tempMinC: 4 });
    await store.save({
      histories: [
        {
          station: 'garden',
          changes: {
            ...none,
            buckets: [bucket(minute - 15 * 1440), bucket(minute)],
            counters: [
              { key: 'old', totalMm: 1, atMs: NOW - 15 * day },
              { key: 'new', totalMm: 2, atMs: NOW },
            ],
            duplicates: { highWaterMs: NOW, recent: [] },
          },
        },
        {
          station: 'shed',
          changes: {
            ...none,
            counters: [{ key: 'old', totalMm: 1, atMs: NOW - 15 * day }],
            duplicates: { highWaterMs: NOW - 15 * day, recent: [] },
          },
        },
      ],
      states: [],
    });
    expect(await store.prune(NOW)).toBe(1);
    const restored = await new HistoryStore(db).loadAll(['garden', 'shed']);
    expect(restored.get('garden')!.rows.counters).toEqual([{ key: 'new', totalMm: 2, atMs: NOW }]);
    expect(restored.get('garden')!.rows.duplicates).toEqual({ highWaterMs: NOW, recent: [] });
    expect(restored.get('shed')!.rows.counters).toEqual([]);
    expect(restored.get('shed')!.rows.duplicates).toBeNull();
    expect(await db.all('SELECT minute FROM history_buckets')).toEqual([{ minute }]);
    await db.close();
  });

  it('a station row damaged by hand does not block the commits: the damaged column starts afresh', async () => {
    const db = await Database.open(temp.dbPath);
    const store = new HistoryStore(db);
    const none = { buckets: [], counters: [], latest: [], duplicates: null };
    await store.save({
      histories: [{ station: 'garden', changes: { ...none, latest: [{ field: 'humidity', value: 60, atMs: NOW }] } }],
      states: [],
    });
    await db.run("UPDATE history_stations SET latest = 'not json', counters = '{\"broken' WHERE station = 'garden'");
    expect((await new HistoryStore(db).loadAll(['garden'])).get('garden')!.rows.latest).toEqual([]);
    const latest = [{ field: 'temperature' as const, value: 9, atMs: NOW }];
    const counters = [{ key: COUNTER, totalMm: 5, atMs: NOW }];
    expect(await store.save({ histories: [{ station: 'garden', changes: { ...none, latest, counters } }], states: [] })).toBe(true);
    const restored = (await new HistoryStore(db).loadAll(['garden'])).get('garden')!.rows;
    expect([restored.latest, restored.counters]).toEqual([latest, counters]);
    await db.close();
  });
});
