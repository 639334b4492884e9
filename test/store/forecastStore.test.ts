/**
 * The forecast cache on the SD card: the hours are stored deflated (one B-tree page, not five), a
 * save waits for the history's commit (the shared commit's driver) instead of committing on its own,
 * and rows of earlier versions (JSON text) still load.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ForecastHour } from '../../src/core/forecastProjection.js';
import { Database } from '../../src/store/database.js';
import { ForecastStore, type CachedForecast } from '../../src/store/forecastStore.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 5, 15, 0);

/** A recorded 74-hour Open-Meteo day as the parser would hold it: 16.7 KB of JSON. */
function recordedHours(): ForecastHour[] {
  const recorded = JSON.parse(readFileSync(join('test', 'fixtures', 'openMeteo', 'dryDay.json'), 'utf8')) as {
    hourly: Record<string, number[]>;
  };
  const { hourly } = recorded;
  return hourly.time!.map((_, index) => ({
    timeMs: START_MS + index * HOUR_MS,
    values: {
      temperature: hourly.temperature_2m![index]!,
      humidity: hourly.relative_humidity_2m![index]!,
      wind_speed: hourly.wind_speed_10m![index]!,
    },
    precipitationMm: hourly.precipitation![index]!,
    precipitationProbabilityPct: hourly.precipitation_probability![index]!,
  }));
}

/** Hours whose values deflate little (a real forecast's do not repeat like the recorded dry day's): about 2 KB deflated. */
function noisyHours(seed: number): ForecastHour[] {
  let state = seed;
  const next = (): number => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: 74 }, (_, index) => ({
    timeMs: START_MS + index * HOUR_MS,
    values: {
      temperature: Math.round(next() * 300) / 10,
      humidity: Math.round(next() * 100),
      wind_speed: Math.round(next() * 400) / 10,
      solar: Math.round(next() * 900),
    },
    precipitationMm: Math.round(next() * 50) / 10,
    precipitationProbabilityPct: Math.round(next() * 100),
  }));
}

const forecast = (fetchedAtMs: number, hours = recordedHours()): CachedForecast => ({
  source: 'open-meteo',
  fetchedAtMs,
  hours,
  validators: { etag: '"v1"' },
});

describe('ForecastStore', () => {
  const temp = useTempDatabase();

  it('stores the hours deflated, well inside one 4 KiB page, and reads them back exactly after a restart', async () => {
    const saved = forecast(START_MS);
    expect(JSON.stringify(saved.hours).length).toBeGreaterThan(8000);
    await new ForecastStore(temp.db).save('garden', saved);
    const row = await temp.db.get<{ bytes: number }>("SELECT length(hours) AS bytes FROM forecast_cache WHERE station = 'garden'");
    expect(row!.bytes).toBeLessThan(2048);
    await temp.db.close();
    const reopened = await Database.open(temp.dbPath);
    try {
      expect((await new ForecastStore(reopened).loadAll()).get('garden')).toEqual(saved);
    } finally {
      await reopened.close();
    }
  });

  it("a save waits for the history's commit while one drives commits, the newest per station wins, and it is there after a restart", async () => {
    const commit = temp.db.sharedCommit;
    let wakes = 0;
    const release = commit.drive(() => wakes++);
    const store = new ForecastStore(temp.db);
    await store.save('garden', forecast(START_MS));
    await store.save('garden', forecast(START_MS + HOUR_MS));
    await store.save('meadow', forecast(START_MS + 2 * HOUR_MS));
    expect(wakes).toBe(3);
    const other = await Database.open(temp.dbPath);
    try {
      const count = async () => (await other.get<{ n: number }>('SELECT COUNT(*) AS n FROM forecast_cache'))!.n;
      expect(await count()).toBe(0);
      expect(await commit.commit()).toBe(true);
      expect(await count()).toBe(2);
    } finally {
      await other.close();
    }
    release();
    await temp.db.close();
    const reopened = await Database.open(temp.dbPath);
    try {
      const loaded = await new ForecastStore(reopened).loadAll();
      expect([...loaded].map(([station, cached]) => [station, cached.fetchedAtMs])).toEqual([
        ['garden', START_MS + HOUR_MS],
        ['meadow', START_MS + 2 * HOUR_MS],
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('a failed commit keeps the staged forecast for the next one; a read commits what is staged first', async () => {
    const commit = temp.db.sharedCommit;
    const release = commit.drive(() => undefined);
    const store = new ForecastStore(temp.db);
    await store.save('garden', forecast(START_MS));
    await expect(
      commit.commit(async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect((await store.loadAll()).get('garden')?.fetchedAtMs).toBe(START_MS);
    release();
  });

  it('a save rewrites one database page, also when the deflated hours are over 1 KB (no overflow page, no freelist)', async () => {
    const store = new ForecastStore(temp.db);
    const stations = Array.from({ length: 10 }, (_, index) => `station${index}`);
    for (const [index, station] of stations.entries()) await store.save(station, forecast(START_MS, noisyHours(index + 1)));
    const row = await temp.db.get<{ bytes: number }>("SELECT length(hours) AS bytes FROM forecast_cache WHERE station = 'station3'");
    expect(row!.bytes).toBeGreaterThan(1500);
    const walFrames = (): number => (statSync(`${temp.dbPath}-wal`).size - 32) / (4096 + 24);
    const before = walFrames();
    await store.save('station3', forecast(START_MS + HOUR_MS, noisyHours(99)));
    expect(walFrames() - before).toBe(1);
    expect((await store.loadAll()).get('station3')).toEqual(forecast(START_MS + HOUR_MS, noisyHours(99)));
  });

  it('reads rows earlier versions wrote as JSON text, and skips a damaged blob', async () => {
    const hours = recordedHours();
    await temp.db.run("INSERT INTO forecast_cache (station, source, fetched_at_ms, hours) VALUES ('old', 'mqtt', 5, ?)", [
      JSON.stringify(hours),
    ]);
    await temp.db.run("INSERT INTO forecast_cache (station, source, fetched_at_ms, hours) VALUES ('broken', 'open-meteo', 5, ?)", [
      Buffer.from([1, 2, 3]),
    ]);
    const loaded = await new ForecastStore(temp.db).loadAll();
    expect(loaded.get('old')).toEqual({ source: 'mqtt', fetchedAtMs: 5, hours, validators: {} });
    expect(loaded.has('broken')).toBe(false);
  });

  it('migration 12 keeps the forecasts an earlier version cached (JSON text in the WITHOUT ROWID table)', async () => {
    const temp = makeTempDir('mow-forecast-');
    try {
      const hours = recordedHours();
      const old = await Database.open(temp.dbPath, { migrations: MIGRATIONS.filter((migration) => migration.version < 12) });
      await old.run("INSERT INTO forecast_cache (station, source, fetched_at_ms, etag, hours) VALUES ('garden', 'open-meteo', 7, ?, ?)", [
        '"v0"',
        JSON.stringify(hours),
      ]);
      await old.close();
      const migrated = await Database.open(temp.dbPath);
      try {
        expect(await new ForecastStore(migrated).loadAll()).toEqual(
          new Map([['garden', { source: 'open-meteo', fetchedAtMs: 7, hours, validators: { etag: '"v0"' } }]]),
        );
      } finally {
        await migrated.close();
      }
    } finally {
      temp.cleanup();
    }
  });
});
