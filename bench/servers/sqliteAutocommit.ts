/**
 * Baseline for the SD-card write figures: the naive way to keep a history,
 * one autocommitted INSERT per reading (WAL, synchronous=NORMAL, like the
 * product), into a temp SQLite file. Prints {rows, writeBytes, wchar} from
 * /proc/self/io to stdout. argv[2]: number of rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { makeTempDir, removeDir } from '../lib/tempDir.js';

function io(): { writeBytes: number; wchar: number } {
  const text = readFileSync('/proc/self/io', 'utf8');
  const pick = (key: string): number => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { writeBytes: pick('write_bytes'), wchar: pick('wchar') };
}

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (err: Error | null) => (err ? reject(err) : resolve())));
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1000);
  const dir = makeTempDir();
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const handle: sqlite3.Database = new sqlite3.Database(join(dir, 'naive.db'), (err) => (err ? reject(err) : resolve(handle)));
  });
  await run(db, 'PRAGMA journal_mode = WAL');
  await run(db, 'PRAGMA synchronous = NORMAL');
  await run(
    db,
    'CREATE TABLE readings (station TEXT NOT NULL, ts INTEGER NOT NULL, temperature REAL, humidity REAL, rain_mm REAL, PRIMARY KEY (station, ts)) WITHOUT ROWID',
  );
  const before = io();
  const startMs = Date.now() - rows * 1600;
  for (let i = 0; i < rows; i++) {
    await run(db, 'INSERT INTO readings VALUES (?, ?, ?, ?, ?)', [
      `bench${i % 10}`,
      startMs + i * 1600,
      10 + (i % 50) / 10,
      60 + (i % 30),
      100 + i / 100,
    ]);
  }
  const after = io();
  await new Promise<void>((resolve) => db.close(() => resolve()));
  removeDir(dir);
  process.stdout.write(
    `${JSON.stringify({ rows, writeBytes: after.writeBytes - before.writeBytes, wchar: after.wchar - before.wchar })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
