/**
 * The built daemon with the change log on (`db.changeLog`, opt-in), killed with SIGKILL after its commits went
 * to the log and before a fold, then restarted: the rows the log held are in the tables, equal to
 * what another process read from the running daemon's database and log before the kill.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_PAGE_BYTES, logPathOf } from '../../src/store/changeLog.js';
import { Database } from '../../src/store/database.js';
import { cleanup, startStepped, type ClockStepSetup } from '../helpers/clockStepDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';

const TABLES = ['history_minutes', 'history_stations', 'retained_messages', 'chart_series'] as const;

async function rows(path: string, raw: boolean): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  if (!raw) {
    // As the admin CLI reads: the daemon's unfolded records replayed, then rolled back.
    const database = await Database.open(path, { create: false });
    for (const table of TABLES) out[table] = await database.all(`SELECT * FROM ${table} ORDER BY 1, 2`);
    await database.close();
    return out;
  }
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(opened)));
  });
  for (const table of TABLES)
    out[table] = await new Promise<unknown[]>((resolve, reject) =>
      db.all(`SELECT * FROM ${table} ORDER BY 1, 2`, (err, got) => (err ? reject(err) : resolve(got))),
    );
  await new Promise<void>((resolve) => db.close(() => resolve()));
  return out;
}

/** Sequence numbers of the records in the log's first pages (magic 'MWRC' at a page start). */
function logRecords(dbPath: string): number {
  const path = logPathOf(dbPath);
  if (!existsSync(path)) return 0;
  const file = readFileSync(path);
  let count = 0;
  for (let page = 1; page * LOG_PAGE_BYTES < file.length; page += 1)
    if (file.readUInt32LE(page * LOG_PAGE_BYTES) === 0x4d57_5243) count += 1;
  return count;
}

describe('a daemon killed with its last commits in the change log', () => {
  let setup: ClockStepSetup;
  beforeEach(() => {
    const temp = makeTempDir('mow-changelog-');
    setup = { dir: temp.dir, dbPath: join(temp.dir, 'mowability.db'), env: { MOWABILITY_DB_CHANGE_LOG: 'true' } };
  });
  afterEach(() => cleanup(setup.dir));

  it('restarts with every row the log held, as a reader saw them before the kill', async () => {
    const first = await startStepped(setup, '+0');
    let total = 10;
    let seen: Record<string, unknown[]> | undefined;
    try {
      await waitFor(async () => {
        total += 0.5;
        await first.reading({ t: 18 + (total % 3), total });
        if (logRecords(setup.dbPath) === 0) return false;
        const logged = await rows(setup.dbPath, false);
        const raw = await rows(setup.dbPath, true);
        // The log holds rows SQLite does not have yet: the kill then tests the replay.
        if (JSON.stringify(logged.history_minutes) === JSON.stringify(raw.history_minutes)) return false;
        seen = logged;
        return true;
      }, 60_000);
    } finally {
      await first.stop('SIGKILL');
    }
    expect(seen).toBeDefined();
    const second = await startStepped(setup, '+0');
    await second.stop('SIGTERM');
    const after = await rows(setup.dbPath, true);
    expect(after.history_minutes).toEqual(seen!.history_minutes);
    expect(after.chart_series).toEqual(seen!.chart_series);
    // The restart's own commits may move the station's state and retained messages on; its latest values stay.
    expect((after.history_stations as Array<{ latest: string }>)[0]?.latest).toEqual(
      (seen!.history_stations as Array<{ latest: string }>)[0]?.latest,
    );
  }, 180_000);
});
