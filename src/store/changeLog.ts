/**
 * The change log beside the database (`<db>-log`): the shared commit's statements, one record per
 * commit, in a ring file of page-aligned slots overwritten in place and fdatasynced, folded into
 * SQLite hourly, when more than half full, on stop and at start (./database.ts). A 1-frame SQLite
 * commit costs 16–38 KiB of writes on an SD card (the frame straddles two pages of the -wal, plus
 * the -shm's index pages), a 1-page overwrite of a file that keeps its size 4–8 KiB: at 288 commits
 * a day that is the difference between ~18 and ~5 MiB a day (bench/NOTES.md, "A household day's
 * commits with the new parts on, and the change log costed before it is built").
 *
 * Layout (little-endian): page 0 the header (magic, format version, page size, page count, the
 * database's log id — a random id kept in its `change_log` row, so a log beside another database
 * is refused — and a CRC-32 of all that). Records start on page 1 and on a page each: magic,
 * sequence number (u64, one more than the one before), body length, CRC-32 of the sequence number,
 * the length and the body; the body is the commit's statements as JSON (Buffers as base64),
 * deflated. After a fold the next record starts again on page 1; records left behind it from
 * before carry sequence numbers at or below the folded one and count as the end of the log.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { DB_FILE_MODE } from './databaseFile.js';

export const LOG_PAGE_BYTES = 4096;
/** 256 KiB: about 60 commits of the household day's ~2 KiB records, with room for a start's larger first one. */
export const LOG_PAGES = 64;
const FILE_MAGIC = Buffer.from('MOWLOG\u0000\u0001', 'latin1');
const FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 4 + 4 + 4 + 16 + 4;
const RECORD_MAGIC = 0x4d57_5243;
/** magic u32, sequence u64, body length u32, CRC-32 u32. */
const RECORD_HEAD_BYTES = 20;

export type LoggedParams = readonly unknown[] | Record<string, unknown>;
export interface LoggedStatement {
  readonly sql: string;
  readonly params: LoggedParams;
}
export interface LogRecord {
  readonly seq: number;
  readonly statements: readonly LoggedStatement[];
}

/** What a read of the log found besides its records: an interrupted last commit, or damage. */
export interface LogFinding {
  readonly kind: 'torn' | 'corrupt';
  readonly message: string;
}

export interface LogScan {
  readonly records: LogRecord[];
  /** The first page after the last good record. */
  readonly endPage: number;
  readonly finding?: LogFinding;
}

/**
 * The tables the shared commit's parts write (historyStore, chartSeriesStore, forecastStore,
 * retainedStore, lawnPlanStore, src/publicService/keyUsage.ts): another process's reads of these
 * replay the log first. A part writing a new table must be named here (test/store/changeLog.test.ts checks).
 */
export const LOGGED_TABLES: ReadonlySet<string> = new Set([
  'history_stations',
  'history_minutes',
  'chart_series',
  'forecast_cache',
  'retained_messages',
  'lawn_plans',
  'api_keys',
  'key_usage',
]);

export function logPathOf(databasePath: string): string {
  return `${databasePath}-log`;
}

/** JSON has no bytes: a Buffer (a retained payload, a deflated forecast) travels as {"$b": base64}. */
export function encodeStatements(statements: readonly LoggedStatement[]): Buffer {
  const json = JSON.stringify(
    statements.map(({ sql, params }) => [sql, params]),
    function replace(this: unknown, key: string, value: unknown) {
      const raw = (this as Record<string, unknown>)[key];
      if (raw instanceof Uint8Array) return { $b: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
      return value;
    },
  );
  return deflateRawSync(Buffer.from(json, 'utf8'));
}

export function decodeStatements(body: Buffer): LoggedStatement[] {
  const parsed = JSON.parse(inflateRawSync(body).toString('utf8'), (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === '$b') return Buffer.from(String((value as { $b: unknown }).$b), 'base64');
    }
    return value;
  }) as Array<[string, LoggedParams]>;
  return parsed.map(([sql, params]) => ({ sql, params }));
}

function headerPage(logId: string): Buffer {
  const page = Buffer.alloc(LOG_PAGE_BYTES);
  FILE_MAGIC.copy(page, 0);
  page.writeUInt32LE(FORMAT_VERSION, 8);
  page.writeUInt32LE(LOG_PAGE_BYTES, 12);
  page.writeUInt32LE(LOG_PAGES, 16);
  Buffer.from(logId, 'hex').copy(page, 20, 0, 16);
  page.writeUInt32LE(crc32(page.subarray(0, HEADER_BYTES - 4)), HEADER_BYTES - 4);
  return page;
}

/** Why the header does not belong to this database's log, or null. */
export function headerProblem(file: Buffer, logId: string): string | null {
  if (file.length < LOG_PAGE_BYTES * LOG_PAGES) return `is ${file.length} bytes, not ${LOG_PAGE_BYTES * LOG_PAGES}`;
  if (!file.subarray(0, 8).equals(FILE_MAGIC)) return 'has no change-log header';
  if (file.readUInt32LE(HEADER_BYTES - 4) !== crc32(file.subarray(0, HEADER_BYTES - 4))) return 'has a damaged header';
  if (file.readUInt32LE(8) !== FORMAT_VERSION || file.readUInt32LE(12) !== LOG_PAGE_BYTES || file.readUInt32LE(16) !== LOG_PAGES)
    return 'has another format';
  if (file.subarray(20, 36).toString('hex') !== logId) return 'belongs to another database file';
  return null;
}

/** The record starting on `page`, or why there is none. */
function recordAt(file: Buffer, page: number): { seq: number; pages: number; body: Buffer } | 'end' | 'bad' {
  const at = page * LOG_PAGE_BYTES;
  if (file.readUInt32LE(at) !== RECORD_MAGIC) return file.subarray(at, at + RECORD_HEAD_BYTES).every((byte) => byte === 0) ? 'end' : 'bad';
  const seq = Number(file.readBigUInt64LE(at + 4));
  const length = file.readUInt32LE(at + 12);
  const pages = Math.ceil((RECORD_HEAD_BYTES + length) / LOG_PAGE_BYTES);
  if (page + pages > LOG_PAGES) return 'bad';
  const body = file.subarray(at + RECORD_HEAD_BYTES, at + RECORD_HEAD_BYTES + length);
  const crc = crc32(body, crc32(file.subarray(at + 4, at + 16)));
  if (crc !== file.readUInt32LE(at + 16)) return 'bad';
  return { seq, pages, body };
}

/**
 * The records after `foldedSeq`, in order, up to the first page that does not hold the next one.
 * What stops the read decides the finding: nothing (a fresh page, or a record already folded), a
 * torn newest record (an interrupted commit: the same loss as a COMMIT a power cut rolled back), or
 * corruption: any intact record later in the file with a higher sequence number than the one
 * expected means a record in between was lost.
 */
export function scanLog(file: Buffer, foldedSeq: number): LogScan {
  const records: LogRecord[] = [];
  let page = 1;
  let expected = foldedSeq + 1;
  let stop: 'end' | 'bad' | 'stale' = 'end';
  while (page < LOG_PAGES) {
    const found = recordAt(file, page);
    if (found === 'end' || found === 'bad') {
      stop = found;
      break;
    }
    if (found.seq !== expected) {
      stop = found.seq <= foldedSeq ? 'stale' : 'bad';
      break;
    }
    let statements: LoggedStatement[];
    try {
      statements = decodeStatements(Buffer.from(found.body));
    } catch {
      stop = 'bad';
      break;
    }
    records.push({ seq: found.seq, statements });
    expected += 1;
    page += found.pages;
  }
  const endPage = page;
  for (let later = page + 1; later < LOG_PAGES; later += 1) {
    const found = recordAt(file, later);
    if (typeof found === 'object' && found.seq >= expected) {
      return {
        records,
        endPage,
        finding: {
          kind: 'corrupt',
          message: `change log damaged: record ${expected} is unreadable but record ${found.seq} follows it; ${records.length} record(s) before it were replayed, the rest are lost`,
        },
      };
    }
  }
  if (stop === 'bad')
    return {
      records,
      endPage,
      finding: {
        kind: 'torn',
        message: `change log: the newest record (${expected}) was cut short, an interrupted commit (its rows are lost)`,
      },
    };
  return { records, endPage };
}

/** Creates the ring at full size, one page per write() (see bench/NOTES.md on the kernel's folios), synced with its directory. */
function createRing(path: string, logId: string): void {
  const fd = openSync(path, 'wx', DB_FILE_MODE);
  try {
    writeSync(fd, headerPage(logId), 0, LOG_PAGE_BYTES, 0);
    const zero = Buffer.alloc(LOG_PAGE_BYTES);
    for (let page = 1; page < LOG_PAGES; page += 1) writeSync(fd, zero, 0, LOG_PAGE_BYTES, page * LOG_PAGE_BYTES);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dirname(path));
}

function syncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the file's own fsync is what counts then.
  }
}

/** Reads the log read-only (another process: the CLI), or undefined when there is none or it is not this database's. */
export function readLogFor(databasePath: string, logId: string, foldedSeq: number): LogScan | undefined {
  const path = logPathOf(databasePath);
  if (!existsSync(path)) return undefined;
  const file = readFileSync(path);
  if (headerProblem(file, logId) !== null) return undefined;
  return scanLog(file, foldedSeq);
}

export class ChangeLog {
  readonly path: string;
  readonly #handle: FileHandle;
  #nextSeq: number;
  #nextPage: number;
  #unfolded: LogRecord[] = [];
  #tables = new Set<string>();
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(path: string, handle: FileHandle, nextSeq: number, nextPage: number) {
    this.path = path;
    this.#handle = handle;
    this.#nextSeq = nextSeq;
    this.#nextPage = nextPage;
  }

  /**
   * Opens (creating) the database's log and reads what it holds past `foldedSeq`. A log that is not
   * this database's (another file's, another format, a damaged header) is kept as `<db>-log.bad` and
   * a new one made: nothing of it is replayed, and the finding says so.
   */
  static async open(databasePath: string, logId: string, foldedSeq: number): Promise<{ log: ChangeLog; scan: LogScan }> {
    const path = logPathOf(databasePath);
    let scan: LogScan = { records: [], endPage: 1 };
    if (existsSync(path)) {
      const file = readFileSync(path);
      const problem = headerProblem(file, logId);
      if (problem === null) scan = scanLog(file, foldedSeq);
      else {
        renameSync(path, `${path}.bad`);
        scan = {
          records: [],
          endPage: 1,
          finding: { kind: 'corrupt', message: `change log ${path} ${problem}: not replayed, kept as ${path}.bad` },
        };
      }
    }
    if (!existsSync(path)) createRing(path, logId);
    const handle = await open(path, 'r+');
    const last = scan.records.at(-1)?.seq ?? foldedSeq;
    // Records are folded at once at start (the caller), so the next commit may reuse the ring from page 1
    // only after that fold; until then it appends behind them.
    return { log: new ChangeLog(path, handle, last + 1, scan.endPage), scan };
  }

  /** Records written but not folded, oldest first. */
  get unfolded(): readonly LogRecord[] {
    return this.#unfolded;
  }

  /** Tables named by unfolded records' statements (lower case). */
  get tables(): ReadonlySet<string> {
    return this.#tables;
  }

  /** Counts records the caller is about to fold (the ones read at start) as unfolded. */
  adopt(records: readonly LogRecord[]): void {
    for (const record of records) this.#remember(record);
  }

  /** More than half the ring holds unfolded records. */
  get halfFull(): boolean {
    return this.#nextPage - 1 > (LOG_PAGES - 1) / 2;
  }

  /**
   * Writes one commit's statements as a record and fdatasyncs it; false (nothing written) when the
   * ring has no room left before an unfolded record. Resolves once the record is durable.
   */
  append(statements: readonly LoggedStatement[]): Promise<boolean> {
    const write = this.#writing.then(() => this.#append(statements));
    this.#writing = write.catch(() => undefined);
    return write;
  }

  async #append(statements: readonly LoggedStatement[]): Promise<boolean> {
    const body = encodeStatements(statements);
    const pages = Math.ceil((RECORD_HEAD_BYTES + body.length) / LOG_PAGE_BYTES);
    if (this.#nextPage + pages > LOG_PAGES) return false;
    const record = Buffer.alloc(pages * LOG_PAGE_BYTES);
    const seq = this.#nextSeq;
    record.writeUInt32LE(RECORD_MAGIC, 0);
    record.writeBigUInt64LE(BigInt(seq), 4);
    record.writeUInt32LE(body.length, 12);
    body.copy(record, RECORD_HEAD_BYTES);
    record.writeUInt32LE(crc32(body, crc32(record.subarray(4, 16))), 16);
    // One write per page keeps the kernel's page-cache folios at page size (bench/NOTES.md).
    for (let page = 0; page < pages; page += 1)
      await this.#handle.write(record, page * LOG_PAGE_BYTES, LOG_PAGE_BYTES, (this.#nextPage + page) * LOG_PAGE_BYTES);
    // fdatasync(2): the data and what is needed to read it back; the file's size never changes.
    await this.#handle.datasync();
    this.#nextSeq = seq + 1;
    this.#nextPage += pages;
    this.#remember({ seq, statements });
    return true;
  }

  #remember(record: LogRecord): void {
    this.#unfolded.push(record);
    for (const { sql } of record.statements) for (const table of tablesNamed(sql)) this.#tables.add(table);
  }

  /** The records up to `seq` are in SQLite (their fold committed): their pages may be written over once none is left. */
  folded(seq: number): void {
    this.#unfolded = this.#unfolded.filter((record) => record.seq > seq);
    this.#tables = new Set();
    for (const record of this.#unfolded)
      for (const { sql } of record.statements) for (const table of tablesNamed(sql)) this.#tables.add(table);
    if (this.#unfolded.length === 0) this.#nextPage = 1;
  }

  async close(): Promise<void> {
    await this.#writing;
    await this.#handle.close();
  }
}

/** The tables a write statement names (INSERT INTO, UPDATE, DELETE FROM, REPLACE INTO), lower case. */
export function tablesNamed(sql: string): string[] {
  const tables: string[] = [];
  for (const match of sql.matchAll(/\b(?:INTO|UPDATE|FROM|JOIN)\s+["`[]?([A-Za-z_][A-Za-z0-9_]*)/gi)) tables.push(match[1]!.toLowerCase());
  return tables;
}

/** Whether `sql` may touch one of `tables`: any mention of the name counts (folding once too often is harmless). */
export function mentionsTable(sql: string, tables: ReadonlySet<string>): boolean {
  if (tables.size === 0) return false;
  const lower = sql.toLowerCase();
  for (const table of tables) if (new RegExp(`\\b${table}\\b`).test(lower)) return true;
  return false;
}
