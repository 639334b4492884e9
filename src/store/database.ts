/**
 * A small promise wrapper around node-sqlite3 and the migration runner.
 * Every other store module talks to SQLite through this class only.
 */
import { existsSync, statSync, unlinkSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import { ChangeLog, LOGGED_TABLES, logPathOf, mentionsTable, readLogFor, type LogFinding, type LoggedStatement } from './changeLog.js';
import { explainOpenError, fileIdentity, identityProblem, prepareDatabaseFile, type FileIdentity } from './databaseFile.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { KeyedStage, SharedCommit } from './sharedCommit.js';

/*
 * Tells a passing SQLite hiccup from a database that no longer takes
 * writes: a full disk, an I/O error or a read-only file count at once, a
 * busy database only when it stays busy (each attempt already waited the
 * busy timeout). A successful write clears it.
 */
/** Result codes that mean the write will keep failing until someone acts (https://www.sqlite.org/rescode.html). */
const PERSISTENT_CODES = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CANTOPEN',
  'SQLITE_PERM',
]);
const CONTENTION_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);
/** Consecutive busy failures (5 s busy timeout each) before the database counts as stuck. */
export const BUSY_FAILURES_BEFORE_ERROR = 3;

export class WriteHealth {
  #failures = 0;
  #lastCode: string | null = null;
  #lastMessage = '';
  readonly #counted = new WeakSet<object>();

  /** Records a failed write (once per error object) and returns the error for rethrowing. */
  failed(err: unknown): unknown {
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    if (typeof code !== 'string' || !(PERSISTENT_CODES.has(code) || CONTENTION_CODES.has(code))) return err;
    if (this.#counted.has(err as object)) return err;
    this.#counted.add(err as object);
    this.#failures = this.#lastCode === code ? this.#failures + 1 : 1;
    this.#lastCode = code;
    this.#lastMessage = err instanceof Error ? err.message : code;
    return err;
  }

  succeeded(): void {
    this.#failures = 0;
    this.#lastCode = null;
  }

  problem(): string | null {
    if (this.#lastCode === null) return null;
    if (CONTENTION_CODES.has(this.#lastCode) && this.#failures < BUSY_FAILURES_BEFORE_ERROR) return null;
    const times = this.#failures === 1 ? 'the last write failed' : `the last ${this.#failures} writes failed`;
    return `database writes are failing: ${times} (${this.#lastMessage})`;
  }
}

/** The WAL is cut back to this size after a checkpoint (set on every connection by Database.open; SpaceReclaimer relies on it). */
export const JOURNAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

export type SqlParams = readonly unknown[] | Record<string, unknown>;

export interface RunResult {
  changes: number;
  lastID: number;
}

export interface OpenOptions {
  /** Applied in order; defaults to the project's migrations. */
  migrations?: readonly Migration[];
  /** Milliseconds SQLite waits for a lock held by another process (the CLI, the daemon). */
  busyTimeoutMs?: number;
  /**
   * Create the file when missing (default true). Commands that only read or
   * change an existing database pass false, so a wrong path is an error
   * instead of a new, empty database.
   */
  create?: boolean;
  /**
   * Keep the shared commit's rows in the change log beside the file (./changeLog.ts, `db.changeLog`):
   * the daemon only. Admin commands never pass it, so they never create the log.
   */
  changeLog?: { readonly enabled: boolean; readonly foldIntervalMinutes: number };
}

/** A write inside a shared commit that the change log cannot record (it reads, or uses a statement's result). */
class Unrecordable extends Error {}

/**
 * Stands in for the connection while a shared commit's parts write (SharedCommit's RecordCommit):
 * keeps each run()'s statement and parameters for the change log's record. Anything else a part
 * does with the connection (a read, a statement's changes or lastID) throws, and that commit goes
 * into a transaction as before: the history numbering a new station's slot does (historyStore.ts).
 */
function recorder(statements: LoggedStatement[]): Database {
  const refuse = (what: string) => {
    throw new Unrecordable(what);
  };
  const result: RunResult = {
    get changes(): number {
      return refuse('changes');
    },
    get lastID(): number {
      return refuse('lastID');
    },
  };
  return new Proxy({} as Database, {
    get(_target, property) {
      if (property === 'run')
        return (sql: string, params: SqlParams = []) => {
          statements.push({ sql, params: params });
          return Promise.resolve(result);
        };
      return refuse(String(property));
    },
  });
}

export class Database {
  readonly path: string;
  readonly #db: sqlite3.Database;
  #closed = false;
  /** The file opened, to notice it being deleted or replaced. */
  #identity: FileIdentity | undefined;
  readonly #writes = new WriteHealth();
  /** The one commit every batched writer on this connection joins (./sharedCommit.ts). */
  readonly sharedCommit: SharedCommit<Database>;
  /** The change log, when on (OpenOptions.changeLog). */
  #log: ChangeLog | undefined;
  /** Damage the log showed at start, or a failed log write: reported by problem() until the next fold. */
  #logProblem: string | null = null;
  /** What the log held at start: for the daemon's log (an interrupted commit is a warning, damage an error). */
  logFinding: LogFinding | undefined;
  #foldTimer: NodeJS.Timeout | undefined;
  /** Not the daemon's connection: reads of logged tables include the log's unfolded records (#readWithLog). */
  #readsLog = false;
  /** A transaction's statements are running (between BEGIN and COMMIT/ROLLBACK). */
  #inTransaction = false;
  /** The newest record this transaction folded, committed with it. */
  #foldedInTransaction: number | undefined;
  #folding = false;
  /** Records written to the log and folds into SQLite, since open (the bench and tests read them). */
  readonly changeLogCounts = { records: 0, folds: 0, direct: 0 };

  private constructor(path: string, db: sqlite3.Database) {
    this.path = path;
    this.#db = db;
    this.sharedCommit = new SharedCommit<Database>(
      (work) => this.transaction(work),
      (work) => this.#record(work),
    );
  }

  /**
   * Opens (creating if needed) the database file, switches to WAL with
   * synchronous=NORMAL (safe against corruption; after a power loss at most the
   * last commit may roll back) and applies pending migrations.
   */
  static async open(path: string, options: OpenOptions = {}): Promise<Database> {
    const create = options.create ?? true;
    prepareDatabaseFile(path, create);
    const mode = sqlite3.OPEN_READWRITE | (create ? sqlite3.OPEN_CREATE : 0) | sqlite3.OPEN_FULLMUTEX;
    const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
      const db: sqlite3.Database = new sqlite3.Database(path, mode, (err) => (err ? reject(explainOpenError(path, err)) : resolve(db)));
    });
    const database = new Database(path, raw);
    try {
      raw.configure('busyTimeout', options.busyTimeoutMs ?? 5000);
      // auto_vacuum takes effect only on a new file (SpaceReclaimer converts older ones); see spaceReclaimer.ts.
      await database.exec(`PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES};`);
      await database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      await database.migrate(options.migrations ?? MIGRATIONS);
      database.#identity = fileIdentity(path);
      if (options.changeLog?.enabled) await database.#openChangeLog(options.changeLog.foldIntervalMinutes);
      else if (options.changeLog) await database.#retireChangeLog();
      else database.#readsLog = true;
    } catch (err) {
      await database.close().catch(() => undefined);
      throw explainOpenError(path, err);
    }
    return database;
  }

  /**
   * Why the database cannot be trusted any more (its file deleted or
   * replaced, writes failing persistently), or null. Cheap: one stat().
   */
  problem(): string | null {
    return (this.#identity && identityProblem(this.path, this.#identity)) ?? this.#writes.problem() ?? this.#logProblem;
  }

  /**
   * Opens the log, folds what it holds (the commits of a daemon that stopped without folding: a
   * power cut, kill -9) before anything loads, and folds hourly from now on. The log's records are
   * durable once written (fdatasync), as a commit's rows are once COMMIT returns; the fold's COMMIT
   * must be durable before the ring is written over, hence synchronous = FULL
   * (https://www.sqlite.org/pragma.html#pragma_synchronous: NORMAL in WAL mode may roll the last
   * commits back after a power cut).
   */
  async #openChangeLog(foldIntervalMinutes: number): Promise<void> {
    await this.exec('PRAGMA synchronous = FULL');
    const row = await this.get<{ log_id: string; folded_seq: number }>('SELECT log_id, folded_seq FROM change_log WHERE id = 1');
    if (!row) throw new Error('change_log: its row is missing (migration 17)');
    const { log, scan } = await ChangeLog.open(this.path, row.log_id, row.folded_seq);
    this.#log = log;
    this.logFinding = scan.finding;
    log.adopt(scan.records);
    await this.foldChangeLog();
    // Damage stays reported past the start's own fold, until the next one.
    if (scan.finding?.kind === 'corrupt') this.#logProblem = scan.finding.message;
    this.#foldTimer = setInterval(() => void this.foldChangeLog().catch(() => undefined), foldIntervalMinutes * 60_000);
    this.#foldTimer.unref();
  }

  /** The daemon with db.changeLog false: what a log left from before holds is folded, then the log removed. */
  async #retireChangeLog(): Promise<void> {
    if (!existsSync(logPathOf(this.path))) return;
    await this.#openChangeLog(60);
    clearInterval(this.#foldTimer);
    const log = this.#log!;
    this.#log = undefined;
    await log.close();
    if (this.#logProblem === null) unlinkSync(log.path);
  }

  /**
   * Another process (the admin CLI: status, keys usage, history export) reads a table the daemon's
   * unfolded log records write: the records are replayed into a transaction, the read runs in it, and
   * the transaction is rolled back, so the answer includes the daemon's last commits and nothing is
   * written. The log is read under the write lock, so no fold can commit in between and count a
   * record twice; a record the daemon is writing meanwhile reads as torn and is left out.
   */
  async #readWithLog<T>(sql: string, read: () => Promise<T>): Promise<T> {
    if (!this.#readsLog || this.#inTransaction || !existsSync(logPathOf(this.path)) || !mentionsTable(sql, LOGGED_TABLES)) return read();
    const previous = this.#txQueue;
    let release!: () => void;
    this.#txQueue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      try {
        await this.exec('BEGIN IMMEDIATE');
      } catch {
        return await read();
      }
      try {
        const row = await this.#rawGet<{ log_id: string; folded_seq: number }>('SELECT log_id, folded_seq FROM change_log WHERE id = 1');
        const scan = row ? readLogFor(this.path, row.log_id, row.folded_seq) : undefined;
        for (const record of scan?.records ?? [])
          for (const { sql: statement, params } of record.statements) await this.#rawRun(statement, params);
        return await read();
      } finally {
        await this.exec('ROLLBACK').catch(() => undefined);
      }
    } finally {
      release();
    }
  }

  /** The shared commit's work as one change-log record; false: it goes into a transaction. */
  async #record(work: (db: Database) => Promise<void>): Promise<boolean> {
    const log = this.#log;
    if (!log || this.#closed) return false;
    const statements: LoggedStatement[] = [];
    try {
      await work(recorder(statements));
    } catch (err) {
      if (err instanceof Unrecordable) {
        this.changeLogCounts.direct += 1;
        return false;
      }
      throw err;
    }
    if (statements.length === 0) return true;
    let written: boolean;
    try {
      written = await log.append(statements);
    } catch (err) {
      this.#logProblem = `change log ${log.path}: a write failed (${err instanceof Error ? err.message : String(err)}); commits go to the database directly`;
      written = false;
    }
    if (!written) {
      this.changeLogCounts.direct += 1;
      return false;
    }
    this.changeLogCounts.records += 1;
    if (log.halfFull) void this.foldChangeLog().catch(() => undefined);
    return true;
  }

  /**
   * Writes the log's unfolded records into their tables in one transaction (with `folded_seq`);
   * afterwards the ring is written over from its start. Does nothing without unfolded records.
   */
  async foldChangeLog(): Promise<void> {
    if (!this.#log || this.#log.unfolded.length === 0) return;
    await this.transaction(async () => {
      if (this.#foldedInTransaction === undefined) await this.#foldInline();
    });
  }

  /**
   * Replays the unfolded records' statements, oldest first, into the open transaction. Called before
   * any statement that names a table an unfolded record writes (a direct write, a read, a commit the
   * log could not take), so the tables never show or take rows out of order.
   */
  async #foldInline(): Promise<void> {
    const log = this.#log;
    if (!log || log.unfolded.length === 0) return;
    this.#folding = true;
    try {
      const records = [...log.unfolded];
      for (const record of records) for (const { sql, params } of record.statements) await this.run(sql, params);
      const last = records.at(-1)!.seq;
      await this.run('UPDATE change_log SET folded_seq = ? WHERE id = 1', [last]);
      this.#foldedInTransaction = last;
    } finally {
      this.#folding = false;
    }
  }

  /** Folds first when `sql` names a table of an unfolded record. */
  async #foldBefore(sql: string): Promise<void> {
    const log = this.#log;
    if (!log || this.#folding || log.unfolded.length === 0 || !mentionsTable(sql, log.tables)) return;
    if (this.#inTransaction) {
      if (this.#foldedInTransaction === undefined) await this.#foldInline();
    } else await this.foldChangeLog();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Inode, size and modification time (ns) of the database file and its -wal: another connection's commit moves them. */
  changeStamp(): string {
    return [this.path, `${this.path}-wal`]
      .map((file) => {
        const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
        return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : '-';
      })
      .join(' ');
  }

  /**
   * Calls `onChange` when the database file or its -wal may have changed (another connection's commit, and
   * this one's own writes), told by the kernel (inotify on the file's directory), so a quiet database costs
   * no stat() a second. Returns the stop function, or undefined where the directory cannot be watched;
   * `onLost` is called (and the watch closed) if the watch fails later.
   */
  watchChanges(onChange: () => void, onLost: () => void): (() => void) | undefined {
    const files = new Set([basename(this.path), `${basename(this.path)}-wal`]);
    try {
      const watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
        if (file === null || files.has(String(file))) onChange();
      });
      watcher.once('error', () => {
        watcher.close();
        onLost();
      });
      return () => watcher.close();
    } catch {
      return undefined;
    }
  }

  async run(sql: string, params: SqlParams = []): Promise<RunResult> {
    await this.#foldBefore(sql);
    return this.#rawRun(sql, params);
  }

  #rawRun(sql: string, params: SqlParams): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const writes = this.#writes;
      this.#db.run(sql, params, function onRun(this: sqlite3.RunResult, err: Error | null) {
        if (err) {
          const failure = writes.failed(err);
          return reject(failure instanceof Error ? failure : err);
        }
        writes.succeeded();
        resolve({ changes: this.changes, lastID: this.lastID });
      });
    });
  }

  async get<T>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    await this.#foldBefore(sql);
    return this.#readWithLog(sql, () => this.#rawGet<T>(sql, params));
  }

  #rawGet<T>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      this.#db.get(sql, params, (err: Error | null, row: T | undefined) => (err ? reject(err) : resolve(row)));
    });
  }

  async all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    await this.#foldBefore(sql);
    return this.#readWithLog(sql, () => this.#rawAll<T>(sql, params));
  }

  #rawAll<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      this.#db.all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
    });
  }

  async exec(sql: string): Promise<void> {
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK|PRAGMA)\b/i.test(sql)) await this.#foldBefore(sql);
    return new Promise((resolve, reject) => {
      this.#db.exec(sql, (err: Error | null) => (err ? reject(err) : resolve()));
    });
  }

  /**
   * Runs `work` inside one transaction. node-sqlite3 shares one connection, so
   * transactions are serialised here to keep statements of concurrent callers
   * from landing inside each other's BEGIN/COMMIT.
   */
  async transaction<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const previous = this.#txQueue;
    let release!: () => void;
    this.#txQueue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      try {
        await this.exec('BEGIN IMMEDIATE');
      } catch (err) {
        throw this.#writes.failed(err);
      }
      this.#inTransaction = true;
      try {
        const result = await work(this);
        await this.exec('COMMIT');
        this.#writes.succeeded();
        if (this.#foldedInTransaction !== undefined) {
          this.#log?.folded(this.#foldedInTransaction);
          this.changeLogCounts.folds += 1;
          if (!this.#writes.problem()) this.#logProblem = null;
        }
        return result;
      } catch (err) {
        await this.exec('ROLLBACK').catch(() => undefined);
        throw this.#writes.failed(err);
      } finally {
        this.#inTransaction = false;
        this.#foldedInTransaction = undefined;
      }
    } finally {
      release();
    }
  }
  #txQueue: Promise<void> = Promise.resolve();

  /** SQLite's data_version: changes when another connection (e.g. the CLI) commits. */
  async dataVersion(): Promise<number> {
    const row = await this.get<{ data_version: number }>('PRAGMA data_version');
    return row?.data_version ?? 0;
  }

  async migrate(migrations: readonly Migration[]): Promise<void> {
    await this.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const rows = await this.all<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await this.transaction(async (db) => {
        await db.exec(migration.up);
        await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
      });
    }
  }

  /** Checkpoints the WAL into the main file and closes. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#foldTimer);
    // A fold that fails leaves the records in the log: the next start folds them.
    await this.foldChangeLog().catch(() => undefined);
    await this.#log?.close().catch(() => undefined);
    this.#closed = true;
    await this.exec('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
    await new Promise<void>((resolve, reject) => this.#db.close((err) => (err ? reject(err) : resolve())));
  }
}

/**
 * A writer's stage for rows keyed by what they replace (a station's forecast, a lawn's plan), joined to
 * the daemon's shared commit; undefined for a stand-in connection without one (a test's), which the
 * writer then writes to at once.
 */
export function keyedStageOn(database: unknown): KeyedStage<Database> | undefined {
  return database instanceof Database ? new KeyedStage(database.sharedCommit) : undefined;
}
