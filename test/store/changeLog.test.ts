import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_PAGE_BYTES, LOG_PAGES, logPathOf } from '../../src/store/changeLog.js';
import { ChartSeriesStore } from '../../src/store/chartSeriesStore.js';
import { Database } from '../../src/store/database.js';
import { RetainedStore } from '../../src/store/retainedStore.js';
import { KeyedStage } from '../../src/store/sharedCommit.js';
import { mqttTempDir } from '../helpers/mqttHarness.js';

const LOGGED = { changeLog: { enabled: true, foldIntervalMinutes: 60 } } as const;
const TABLES = ['retained_messages', 'chart_series', 'history_minutes', 'history_stations'] as const;

/** A seeded random sequence of commits as the shared commit's parts make them (upserts, deletes, Buffers). */
function* commits(seed: number, count: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < count; i += 1) {
    const retained = new Map<string, { topic: string; payload: Buffer; qos: 0 | 1 | 2 }>();
    for (let j = 0; j < 1 + Math.floor(next() * 3); j += 1) {
      const topic = `t/${Math.floor(next() * 5)}`;
      const payload =
        next() < 0.2 ? Buffer.alloc(0) : Buffer.from(Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 256)));
      retained.set(topic, { topic, payload, qos: Math.floor(next() * 3) as 0 | 1 | 2 });
    }
    const chart = {
      slot: 1000 + Math.floor(next() * 20),
      station: `s${Math.floor(next() * 2)}`,
      temperature: next() * 30,
      humidity: null,
      dewPoint: 3.5,
      index: Math.round(next() * 100),
    };
    const minute = { bucket: Math.floor(next() * 50), rain: Math.round(next() * 10) / 10 };
    yield { retained, chart, minute, nowMs: 1_700_000_000_000 + i };
  }
}

type Commit = ReturnType<typeof commits> extends Generator<infer C> ? C : never;

/** One commit through the daemon's parts: the retained store and the chart series stage, the history's work writes a minute. */
async function commitOn(database: Database, parts: Parts, commit: Commit): Promise<void> {
  await parts.retained.save(commit.retained, commit.nowMs);
  parts.chart.stage(commit.chart);
  await parts.minutes.stage(String(commit.minute.bucket), async (db) => {
    await db.run(
      'INSERT INTO history_minutes (bucket, rain_mm, rain_observed, temp_min_c) VALUES (?, ?, 1, NULL) ON CONFLICT (bucket) DO UPDATE SET rain_mm = excluded.rain_mm',
      [commit.minute.bucket, commit.minute.rain],
    );
  });
  await database.sharedCommit.commit();
}

interface Parts {
  retained: RetainedStore;
  chart: ChartSeriesStore;
  minutes: KeyedStage<Database>;
}

function partsOn(database: Database): Parts {
  return { retained: new RetainedStore(database), chart: new ChartSeriesStore(database), minutes: new KeyedStage(database.sharedCommit) };
}

async function driven(path: string, options: Parameters<typeof Database.open>[1] = {}) {
  const database = await Database.open(path, options);
  database.sharedCommit.drive(() => undefined);
  return { database, parts: partsOn(database) };
}

/** The tables as another process (the admin CLI) reads them: with the log's unfolded records. */
async function tables(path: string): Promise<Record<string, unknown[]>> {
  const database = await Database.open(path, { create: false });
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) out[table] = await database.all(`SELECT * FROM ${table} ORDER BY 1, 2`);
    return out;
  } finally {
    await database.close();
  }
}

/** The tables as SQLite holds them, without the log (node-sqlite3 directly; read-only). */
async function rawTables(path: string): Promise<Record<string, unknown[]>> {
  const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
    const db: sqlite3.Database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(db)));
  });
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES)
    out[table] = await new Promise<unknown[]>((resolve, reject) =>
      raw.all(`SELECT * FROM ${table} ORDER BY 1, 2`, (err, rows) => (err ? reject(err) : resolve(rows))),
    );
  await new Promise<void>((resolve) => raw.close(() => resolve()));
  return out;
}

/** The files of a database as a kill -9 leaves them (copied while it is open, between commits). */
function crashImage(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm', '-log']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
}

describe('change log (src/store/changeLog.ts)', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(() => temp.cleanup());

  async function direct(list: readonly Commit[]): Promise<Record<string, unknown[]>> {
    const path = join(temp.dir, 'direct.db');
    const { database, parts } = await driven(path);
    for (const commit of list) await commitOn(database, parts, commit);
    await database.close();
    return tables(path);
  }

  it('keeps commits in the log, not in SQLite, and folds them on stop to the same rows as direct commits', async () => {
    const list = [...commits(7, 30)];
    const { database, parts } = await driven(temp.dbPath, LOGGED);
    for (const commit of list) await commitOn(database, parts, commit);
    expect(database.changeLogCounts).toMatchObject({ records: 30, direct: 0 });
    expect((statSync(logPathOf(temp.dbPath)).mode & 0o777).toString(8)).toBe('600');
    expect(statSync(logPathOf(temp.dbPath)).size).toBe(LOG_PAGE_BYTES * LOG_PAGES);
    await database.close();
    expect(await rawTables(temp.dbPath)).toEqual(await direct(list));
  });

  it('replays at start what a killed daemon left in the log, table by table equal to direct commits', async () => {
    const list = [...commits(11, 25)];
    const { database, parts } = await driven(temp.dbPath, LOGGED);
    for (const commit of list) await commitOn(database, parts, commit);
    const crashed = join(temp.dir, 'crashed.db');
    crashImage(temp.dbPath, crashed);
    await database.close();
    // Without replay the copy's tables are empty (nothing folded yet), so this compares something.
    expect((await rawTables(crashed)).retained_messages).toEqual([]);
    // Another process (the CLI) reads the logged rows without folding them: replayed, then rolled back.
    const expected = await direct(list);
    expect(await tables(crashed)).toEqual(expected);
    expect((await rawTables(crashed)).retained_messages).toEqual([]);
    const restarted = await Database.open(crashed, LOGGED);
    expect(restarted.logFinding).toBeUndefined();
    await restarted.close();
    expect(await rawTables(crashed)).toEqual(expected);
  });

  it('a read or direct write of a logged table in the same process sees the logged rows first', async () => {
    const list = [...commits(3, 4)];
    const { database, parts } = await driven(temp.dbPath, LOGGED);
    for (const commit of list) await commitOn(database, parts, commit);
    const folds = database.changeLogCounts.folds;
    const rows = await database.all('SELECT * FROM chart_series ORDER BY 1, 2');
    expect(rows.length).toBeGreaterThan(0);
    expect(database.changeLogCounts.folds).toBe(folds + 1);
    await database.close();
  });

  it('an admin command (no changeLog option) never creates the log', async () => {
    const database = await Database.open(temp.dbPath);
    await database.close();
    expect(existsSync(logPathOf(temp.dbPath))).toBe(false);
  });

  describe('a damaged log never fails the start', () => {
    async function logged(count: number): Promise<{ list: Commit[]; image: string; log: Buffer }> {
      const list = [...commits(5, count)];
      const { database, parts } = await driven(temp.dbPath, LOGGED);
      for (const commit of list) await commitOn(database, parts, commit);
      const image = join(temp.dir, 'image.db');
      crashImage(temp.dbPath, image);
      await database.close();
      return { list, image, log: readFileSync(logPathOf(image)) };
    }

    function recordLength(log: Buffer, page: number): number {
      return 20 + log.readUInt32LE(page * LOG_PAGE_BYTES + 12);
    }

    it('a newest record torn at each byte offset is an interrupted commit: the ones before it replayed, a warning', async () => {
      const { list, image, log } = await logged(3);
      const expected = await direct(list.slice(0, 2));
      // Each record here fits one page: the third starts on page 3.
      const start = 3 * LOG_PAGE_BYTES;
      const length = recordLength(log, 3);
      const copy = join(temp.dir, 'torn.db');
      for (let offset = 1; offset < length; offset += Math.max(1, Math.floor(length / 40))) {
        for (const suffix of ['', '-wal', '-shm']) if (existsSync(image + suffix)) copyFileSync(image + suffix, copy + suffix);
        const torn = Buffer.from(log);
        torn.fill(0, start + offset, start + LOG_PAGE_BYTES);
        writeFileSync(logPathOf(copy), torn);
        const database = await Database.open(copy, LOGGED);
        expect(database.logFinding?.kind, `offset ${offset}`).toBe('torn');
        expect(database.problem()).toBeNull();
        await database.close();
        expect(await rawTables(copy)).toEqual(expected);
      }
    });

    it('a flipped bit in a record followed by good ones is corruption: named by problem() until the next fold, the records before it replayed', async () => {
      const { list, image, log } = await logged(3);
      const flipped = Buffer.from(log);
      flipped[2 * LOG_PAGE_BYTES + 25] = flipped[2 * LOG_PAGE_BYTES + 25]! ^ 0x10;
      writeFileSync(logPathOf(image), flipped);
      const database = await Database.open(image, LOGGED);
      expect(database.logFinding?.kind).toBe('corrupt');
      expect(database.problem()).toMatch(/change log damaged: record 2 is unreadable but record 3 follows/);
      database.sharedCommit.drive(() => undefined);
      await commitOn(database, partsOn(database), list[0]!);
      await database.foldChangeLog();
      expect(database.problem()).toBeNull();
      await database.close();
    });

    it('a log beside another database file is refused whole, kept as -log.bad, and reported', async () => {
      const { image } = await logged(2);
      const other = join(temp.dir, 'other.db');
      await (await Database.open(other)).close();
      copyFileSync(logPathOf(image), logPathOf(other));
      const database = await Database.open(other, LOGGED);
      expect(database.problem()).toMatch(/belongs to another database file/);
      expect(existsSync(`${logPathOf(other)}.bad`)).toBe(true);
      await database.close();
      expect((await rawTables(other)).retained_messages).toEqual([]);
    });
  });

  it('never writes over an unfolded record: full while folds fail, commits fail and keep their rows, then all land', async () => {
    const list = [...commits(13, 200)];
    const { database, parts } = await driven(temp.dbPath, { ...LOGGED, busyTimeoutMs: 20 });
    const blocker = await Database.open(temp.dbPath, { create: false, busyTimeoutMs: 20 });
    await blocker.exec('BEGIN IMMEDIATE');
    let failed = 0;
    for (const commit of list) await commitOn(database, parts, commit).catch(() => (failed += 1));
    expect(failed).toBeGreaterThan(0);
    expect(database.changeLogCounts.records).toBeLessThan(LOG_PAGES);
    await blocker.exec('ROLLBACK');
    await blocker.close();
    await database.sharedCommit.commit();
    await database.close();
    expect(await rawTables(temp.dbPath)).toEqual(await direct(list));
  });

  it('with db.changeLog false, the daemon folds what a log from before holds and removes it', async () => {
    const list = [...commits(17, 5)];
    const { database, parts } = await driven(temp.dbPath, LOGGED);
    for (const commit of list) await commitOn(database, parts, commit);
    const image = join(temp.dir, 'image.db');
    crashImage(temp.dbPath, image);
    await database.close();
    const off = await Database.open(image, { changeLog: { enabled: false, foldIntervalMinutes: 60 } });
    await off.close();
    expect(existsSync(logPathOf(image))).toBe(false);
    expect(await rawTables(image)).toEqual(await direct(list));
  });
});
