/**
 * What a household commit costs the SD card today, and what it would cost with the history's commits
 * appended to a change log and folded into the tables once an hour: both in one run, interleaved,
 * on two copies of one 14-day database (10 stations), commit by commit.
 *
 *   tables  today's commit: the build's own HistoryStore (10 stations × 5 minutes of buckets, the
 *           latest values, a rain counter, the duplicate filter), the chart series' slot rows every
 *           other commit and one station's forecast in 10 of 12 commits (ten stations fetching
 *           about hourly), all staged into one shared commit as the daemon stages them
 *   log     the same rows encoded into one record (deflated JSON, the forecast's stored bytes
 *           as they are) written into a ring of page-sized slots (`commit_ring`, one row per
 *           page, updated in place: the same length, so SQLite rewrites that one leaf), and every
 *           `FOLD_EVERY` commits a fold: the accumulated rows written into the tables by the same
 *           stores in one transaction, with the folded sequence number
 *   file    the same record into a ring file beside the database instead (`<db>-log`, created at its
 *           full size, 4 KiB-aligned slots overwritten in place, fdatasync), folded the same way: no
 *           WAL frame, no wal-index page and no size change to journal for a commit
 *
 * Per commit: WAL frames (and the tables they touched, bench/lib/walFrames.ts) and `write_bytes` of
 * this process (/proc/self/io) with `sync` before each commit, so every page starts clean as it does
 * when commits are 300 s apart (the kernel writes dirty pages back after ~30 s). A day: 288 commits,
 * 24 folds. Run: `node dist-bench/bench/commitLogLab.js [commits]` (default 48, four hours).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { Database } from '../src/store/database.js';
import { HistoryStore, type HistoryBatch } from '../src/store/historyStore.js';
import { ChartSeriesStore, CHART_SLOT_MINUTES, type ChartSlotRow } from '../src/store/chartSeriesStore.js';
import { encodeHours, ForecastStore, type CachedForecast } from '../src/store/forecastStore.js';
import { parseOpenMeteo } from '../src/openmeteo/openMeteoResponse.js';
import { MINUTE_MS } from '../src/history/windows.js';
import type { ForecastHour } from '../src/core/forecastProjection.js';
import { readIo } from './lib/proc.js';
import { seedHistory } from './lib/seedHistory.js';
import { makeTempDir, removeDir } from './lib/tempDir.js';
import { walWindow } from './lib/walFrames.js';

const STATIONS = Array.from({ length: 10 }, (_, index) => `bench${index}`);
const COMMIT_MINUTES = 5;
/** Commits per fold (`FOLD_EVERY`, default 12: hourly at the shipped 300 s flush interval). */
const FOLD_EVERY = Number(process.env.FOLD_EVERY) || 12;
const RING_SLOTS = 16;
/** A slot row's body: with its record header it stays under a 4 KiB page's 4,061 bytes of local payload, so each row has a page of its own. */
const SLOT_BODY_BYTES = 3_980;
const DAY_COMMITS = 288;
const DAY_FOLDS = DAY_COMMITS / FOLD_EVERY;

interface CommitRows {
  batch: HistoryBatch;
  chart: ChartSlotRow[];
  forecast: { station: string; forecast: CachedForecast } | undefined;
}

function forecastHours(repoRoot: string, firstHourMs: number): ForecastHour[] {
  const recorded = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'openMeteo', 'dryDay.json'), 'utf8')) as {
    hourly: { time: number[] };
  };
  const body = { ...recorded, hourly: { ...recorded.hourly, time: recorded.hourly.time.map((_, i) => firstHourMs / 1000 + i * 3600) } };
  const parsed = parseOpenMeteo(body);
  if (!parsed.ok) throw new Error(`the recorded forecast does not parse: ${parsed.reason}`);
  return parsed.hours;
}

/** The rows of commit `index` (5 minutes of 10 stations ending at `endMinute`). */
function commitRows(index: number, endMinute: number, hours: ForecastHour[]): CommitRows {
  const atMs = endMinute * MINUTE_MS;
  const histories = STATIONS.map((station, s) => ({
    station,
    changes: {
      buckets: Array.from({ length: COMMIT_MINUTES }, (_, m) => ({
        minute: endMinute - COMMIT_MINUTES + 1 + m,
        rainMm: (index + m + s) % 17 === 0 ? 0.3 : 0,
        rainObserved: true,
        tempMinC: Math.round((12 + Math.sin(index / 10 + s) * 6 + m / 10) * 10) / 10,
      })),
      counters: [{ key: `Fineoffset-WH24/${station}/rain_mm`, totalMm: 123.4 + index * 0.3, atMs }],
      latest: ['temperature', 'humidity', 'wind_speed', 'wind_gust', 'uv', 'light_lux', 'rain_mm', 'battery_ok'].map((field, f) => ({
        field: field as 'temperature',
        value: Math.round((10 + f * 7 + Math.sin(index + s + f)) * 10) / 10,
        atMs: atMs - f * 1000,
      })),
      duplicates: { highWaterMs: atMs, recent: Array.from({ length: 19 }, (_, r) => [atMs - r * 16_000, 1000 + r] as [number, number]) },
    },
  }));
  const slot = Math.floor(endMinute / CHART_SLOT_MINUTES);
  const chart =
    index % 2 === 1
      ? STATIONS.map((station, s) => ({
          station,
          slot,
          temperature: 12 + s / 10,
          humidity: 70 - s,
          dewPoint: 7.5,
          index: 60 + (index % 30),
        }))
      : [];
  const station = STATIONS[index % STATIONS.length]!;
  const forecast =
    index % FOLD_EVERY < 10
      ? { station, forecast: { source: 'open-meteo' as const, fetchedAtMs: atMs, hours, validators: {} } }
      : undefined;
  return { batch: { histories, states: [] }, chart, forecast };
}

/** The log's record of one commit: its rows as deflated JSON, the forecast's stored bytes as they are. */
function encodeRecord(seq: number, rows: CommitRows): Buffer {
  const json = Buffer.from(
    JSON.stringify({
      seq,
      batch: rows.batch,
      chart: rows.chart,
      forecast: rows.forecast && { ...rows.forecast.forecast, hours: undefined, station: rows.forecast.station },
    }),
  );
  const head = deflateRawSync(json);
  const hours = rows.forecast ? encodeHours(rows.forecast.forecast.hours) : Buffer.alloc(0);
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(head.length, 0);
  lengths.writeUInt32BE(hours.length, 4);
  return Buffer.concat([lengths, head, hours]);
}

interface Subject {
  name: string;
  db: Database;
  history: HistoryStore;
  chart: ChartSeriesStore;
  forecast: ForecastStore;
  release: () => void;
}

async function open(name: string, path: string): Promise<Subject> {
  const db = await Database.open(path);
  const history = new HistoryStore(db);
  const chart = new ChartSeriesStore(db);
  const forecast = new ForecastStore(db);
  // Nothing drives on a wake: this lab commits when it says so, as the history's timer would.
  const release = await history.drive(() => {});
  await db.exec(
    `CREATE TABLE IF NOT EXISTS commit_ring (slot INTEGER PRIMARY KEY, seq INTEGER NOT NULL, crc INTEGER NOT NULL, length INTEGER NOT NULL, body BLOB NOT NULL);
     CREATE TABLE IF NOT EXISTS commit_ring_state (id INTEGER PRIMARY KEY CHECK (id = 1), folded_seq INTEGER NOT NULL);
     INSERT OR IGNORE INTO commit_ring_state (id, folded_seq) VALUES (1, 0);`,
  );
  for (let slot = 0; slot < RING_SLOTS; slot++)
    await db.run('INSERT OR IGNORE INTO commit_ring (slot, seq, crc, length, body) VALUES (?, 0, 0, 0, zeroblob(?))', [
      slot,
      SLOT_BODY_BYTES,
    ]);
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  if (process.env.GROWING_WAL !== '1') {
    // The daemon's steady state: the WAL once grown to its autocheckpoint size and rewound, so a commit overwrites
    // blocks of the file instead of growing it (a grown file's fsync also journals its new size).
    for (let n = 0; n < 1000; n++) await db.run('UPDATE commit_ring SET seq = ? WHERE slot = ?', [-n, n % RING_SLOTS]);
    await db.exec('PRAGMA wal_checkpoint(RESTART)');
  }
  return { name, db, history, chart, forecast, release };
}

/** Stages the rows into the shared commit and commits: today's commit, or a fold of several. */
async function writeTables(subject: Subject, rows: readonly CommitRows[]): Promise<void> {
  const merged = new Map<string, HistoryBatch['histories'][number]['changes']>();
  for (const { batch, chart, forecast } of rows) {
    for (const row of chart) subject.chart.stage(row);
    if (forecast) await subject.forecast.save(forecast.station, forecast.forecast);
    for (const { station, changes } of batch.histories) {
      const kept = merged.get(station);
      if (!kept) merged.set(station, { ...changes, buckets: [...changes.buckets] });
      else
        merged.set(station, {
          buckets: [...kept.buckets, ...changes.buckets],
          counters: changes.counters,
          latest: changes.latest,
          duplicates: changes.duplicates,
        });
    }
  }
  await subject.history.save({ histories: [...merged].map(([station, changes]) => ({ station, changes })), states: [] });
}

/** One log record into the ring: as many page-sized slots as it needs, updated in place. */
async function writeLog(subject: Subject, seq: number, record: Buffer, firstSlot: number): Promise<number> {
  const slots = Math.ceil(record.length / SLOT_BODY_BYTES);
  await subject.db.transaction(async (db) => {
    for (let part = 0; part < slots; part++) {
      const body = Buffer.alloc(SLOT_BODY_BYTES);
      const piece = record.subarray(part * SLOT_BODY_BYTES, (part + 1) * SLOT_BODY_BYTES);
      piece.copy(body);
      await db.run('UPDATE commit_ring SET seq = ?, crc = ?, length = ?, body = ? WHERE slot = ?', [
        seq * 16 + part,
        crc32(piece),
        piece.length,
        body,
        (firstSlot + part) % RING_SLOTS,
      ]);
    }
  });
  return slots;
}

interface Cost {
  frames: number;
  bytes: number;
  owners: Record<string, number>;
}

/** A ring file of page-aligned slots, created at its full size (so a commit never changes the file's size). */
function openRingFile(path: string): number {
  const fd = openSync(path, 'w+');
  // Page by page: written in one call, the kernel (6.18 here, ext4 with large folios) keeps the file in one 64 KiB
  // folio, and every later 2 KiB write dirties (and counts, and writes back) all of it.
  for (let slot = 0; slot < RING_SLOTS; slot++) writeSync(fd, Buffer.alloc(4096), 0, 4096, slot * 4096);
  fdatasyncSync(fd);
  return fd;
}

/** One record into the ring file's slots (a 16-byte header: sequence, length, CRC-32 of the body), then fdatasync. */
function writeRingFile(fd: number, seq: number, record: Buffer, firstSlot: number): number {
  const slots = Math.ceil((record.length + 16) / 4096);
  const framed = Buffer.alloc(slots * 4096);
  framed.writeBigUInt64BE(BigInt(seq), 0);
  framed.writeUInt32BE(record.length, 8);
  framed.writeUInt32BE(crc32(record), 12);
  record.copy(framed, 16);
  // The record's written length only (rounded to the page): what a real writer would do.
  const length = Math.ceil((record.length + 16) / 512) * 512;
  if (firstSlot + slots > RING_SLOTS) firstSlot = 0;
  writeSync(fd, framed, 0, length, firstSlot * 4096);
  fdatasyncSync(fd);
  return slots;
}

async function measure(subject: Subject, work: () => Promise<void>): Promise<Cost> {
  execFileSync('sync');
  // Counted from the WAL's start: a rewound WAL is longer than what its current generation holds.
  const framesBefore = await walWindow(subject.db.path, 0);
  const before = readIo(process.pid).writeBytes;
  await work();
  const bytes = readIo(process.pid).writeBytes - before;
  const framesAfter = await walWindow(subject.db.path, 0);
  const reset = framesAfter.frames < framesBefore.frames;
  const owners: Record<string, number> = {};
  for (const [owner, frames] of Object.entries(framesAfter.byOwner)) {
    const added = frames - (reset ? 0 : (framesBefore.byOwner[owner] ?? 0));
    if (added > 0) owners[owner] = added;
  }
  return { frames: framesAfter.frames - (reset ? 0 : framesBefore.frames), bytes, owners };
}

function summary(costs: readonly Cost[]): { frames: number; kib: number; owners: string } {
  const owners: Record<string, number> = {};
  for (const cost of costs) for (const [owner, n] of Object.entries(cost.owners)) owners[owner] = (owners[owner] ?? 0) + n;
  const n = Math.max(costs.length, 1);
  return {
    frames: costs.reduce((sum, cost) => sum + cost.frames, 0) / n,
    kib: costs.reduce((sum, cost) => sum + cost.bytes, 0) / n / 1024,
    owners: Object.entries(owners)
      .sort((a, b) => b[1] - a[1])
      .map(([owner, frames]) => `${owner} ${(frames / n).toFixed(1)}`)
      .join(', '),
  };
}

async function main(): Promise<void> {
  const commits = Number(process.argv[2]) || 48;
  const repoRoot = process.cwd();
  const dir = makeTempDir();
  try {
    const endMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const seeded = join(dir, 'seed.db');
    await seedHistory(seeded, STATIONS, endMs);
    for (const name of ['tables', 'log']) copyFileSync(seeded, join(dir, `${name}.db`));
    const tables = await open('tables', join(dir, 'tables.db'));
    const log = await open('log', join(dir, 'log.db'));
    copyFileSync(seeded, join(dir, 'file.db'));
    const file = await open('file', join(dir, 'file.db'));
    const ringFd = openRingFile(join(dir, 'file.db-log'));
    let fileSlot = 0;
    const hours = forecastHours(repoRoot, Math.floor(endMs / 3_600_000) * 3_600_000);
    const costs = { tables: [] as Cost[], log: [] as Cost[], fold: [] as Cost[], file: [] as Cost[], fileFold: [] as Cost[] };
    let unfolded: CommitRows[] = [];
    let slot = 0;
    let slotsUsed = 0;
    let recordBytes = 0;
    for (let index = 0; index < commits; index++) {
      const rows = commitRows(index, Math.floor(endMs / MINUTE_MS) + (index + 1) * COMMIT_MINUTES, hours);
      costs.tables.push(await measure(tables, () => writeTables(tables, [rows])));
      const record = encodeRecord(index + 1, rows);
      recordBytes += record.length;
      let used = 0;
      costs.log.push(await measure(log, async () => void (used = await writeLog(log, index + 1, record, slot))));
      slot = (slot + used) % RING_SLOTS;
      costs.file.push(
        await measure(file, async () => void (fileSlot = (fileSlot + writeRingFile(ringFd, index + 1, record, fileSlot)) % RING_SLOTS)),
      );
      slotsUsed += used;
      unfolded.push(rows);
      if (unfolded.length === FOLD_EVERY) {
        const folding = unfolded;
        costs.fold.push(
          await measure(log, async () => {
            await writeTables(log, folding);
            await log.db.run('UPDATE commit_ring_state SET folded_seq = ?', [index + 1]);
          }),
        );
        costs.fileFold.push(
          await measure(file, async () => {
            await writeTables(file, folding);
            await file.db.run('UPDATE commit_ring_state SET folded_seq = ?', [index + 1]);
          }),
        );
        unfolded = [];
      }
    }
    const today = summary(costs.tables);
    const logged = summary(costs.log);
    const folded = summary(costs.fold);
    const todayDay = (today.kib * DAY_COMMITS) / 1024;
    const logDay = (logged.kib * DAY_COMMITS + folded.kib * DAY_FOLDS) / 1024;
    console.log(
      `commits: ${commits}; record ${(recordBytes / commits).toFixed(0)} bytes on average, ${(slotsUsed / commits).toFixed(2)} slots a commit`,
    );
    console.log(
      `tables (today): ${today.frames.toFixed(2)} frames, ${today.kib.toFixed(1)} KiB a commit [${today.owners}] → ${todayDay.toFixed(2)} MiB a day`,
    );
    console.log(`log: ${logged.frames.toFixed(2)} frames, ${logged.kib.toFixed(1)} KiB a commit [${logged.owners}]`);
    console.log(`fold of ${FOLD_EVERY}: ${folded.frames.toFixed(2)} frames, ${folded.kib.toFixed(1)} KiB [${folded.owners}]`);
    console.log(`log + folds: ${logDay.toFixed(2)} MiB a day; today ÷ log: ${(todayDay / logDay).toFixed(2)}×`);
    const inFile = summary(costs.file);
    const fileFolded = summary(costs.fileFold);
    const fileDay = (inFile.kib * DAY_COMMITS + fileFolded.kib * DAY_FOLDS) / 1024;
    console.log(
      `file: ${inFile.frames.toFixed(2)} frames, ${inFile.kib.toFixed(1)} KiB a commit; fold of ${FOLD_EVERY}: ${fileFolded.frames.toFixed(2)} frames, ${fileFolded.kib.toFixed(1)} KiB`,
    );
    console.log(`file + folds: ${fileDay.toFixed(2)} MiB a day; today ÷ file: ${(todayDay / fileDay).toFixed(2)}×`);
    closeSync(ringFd);
    for (const subject of [tables, log, file]) {
      subject.release();
      await subject.db.close();
    }
  } finally {
    removeDir(dir);
  }
}

await main();
