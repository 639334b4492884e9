/**
 * The chart series table: rows are only staged, written by the history's commit (the shared
 * commit's driver) and never in a commit of their own; a later row of a slot replaces the
 * earlier; rows past the 14-day retention go in the first commit of a day.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHART_RETENTION_SLOTS, ChartSeriesStore, type ChartSlotRow } from '../../src/store/chartSeriesStore.js';
import { Database } from '../../src/store/database.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

const SLOT = 2_968_416 + 72; // 2026-06-15 12:00 UTC in 10-minute slots
const row = (slot: number, humidity: number, station = 'garden'): ChartSlotRow => ({
  station,
  slot,
  temperature: 20,
  humidity,
  dewPoint: 9.5,
  index: 80,
});

describe('ChartSeriesStore', () => {
  let temp = makeTempDir('mow-chart-');
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
    temp.cleanup();
    temp = makeTempDir('mow-chart-');
  });

  it("writes staged rows only with the driver's commit, keeps the latest row per slot, and prunes past 14 days once a day", async () => {
    db = await Database.open(temp.dbPath);
    const store = new ChartSeriesStore(db);
    const commit = db.sharedCommit;
    let wakes = 0;
    const release = commit.drive(() => wakes++);
    store.stage(row(SLOT - CHART_RETENTION_SLOTS - 5, 40));
    store.stage(row(SLOT - 1, 50));
    store.stage(row(SLOT - 1, 55));
    store.stage(row(SLOT - 1, 60, 'meadow'));
    expect(wakes).toBe(4);
    expect(await store.load(['garden', 'meadow'], 0)).toEqual([]);
    expect(await commit.commit()).toBe(true);
    expect((await store.load(['garden'], 0)).map((r) => [r.slot, r.humidity])).toEqual([[SLOT - 1, 55]]);
    expect(await store.load(['meadow'], SLOT)).toEqual([]);
    expect(await store.load([], 0)).toEqual([]);

    // The same day: no prune; the next day: rows at or past the retention are deleted in that commit.
    await db.run('INSERT INTO chart_series (slot, station, humidity) VALUES (?, ?, ?)', [SLOT - CHART_RETENTION_SLOTS - 1, 'garden', 1]);
    store.stage(row(SLOT, 70));
    await commit.commit();
    expect((await store.load(['garden'], 0)).map((r) => r.slot)).toEqual([SLOT - CHART_RETENTION_SLOTS - 1, SLOT - 1, SLOT]);
    store.stage(row(SLOT + 144, 71));
    await commit.commit();
    expect((await store.load(['garden'], 0)).map((r) => r.slot)).toEqual([SLOT - 1, SLOT, SLOT + 144]);
    release();
  });

  it('without a driver nothing is written (a row is not worth a commit of its own); a failed commit gives the rows back', async () => {
    db = await Database.open(temp.dbPath);
    const store = new ChartSeriesStore(db);
    store.stage(row(SLOT, 30));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.load(['garden'], 0)).toEqual([]);
    await expect(
      db.sharedCommit.commit(async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await db.sharedCommit.commit()).toBe(true);
    expect((await store.load(['garden'], 0)).map((r) => r.humidity)).toEqual([30]);
  });
});
