/**
 * A small promise wrapper around node-sqlite3 and the migration runner.
 * Every other store module talks to SQLite through this class only.
 */
import { statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import sqlite3 from 'sqlite3';
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

  private constructor(path: string, db: sqlite3.Database) {
    this.path = path;
    this.#db = db;
    this.sharedCommit = new SharedCommit<Database>((work) => this.transaction(work));
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
    return (this.#identity && identityProblem(this.path, this.#identity)) ?? this.#writes.problem();
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

  run(sql: string, params: SqlParams = []): Promise<RunResult> {
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

  get<T>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      this.#db.get(sql, params, (err: Error | null, row: T | undefined) => (err ? reject(err) : resolve(row)));
    });
  }

  all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      this.#db.all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
    });
  }

  exec(sql: string): Promise<void> {
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
      try {
        const result = await work(this);
        await this.exec('COMMIT');
        this.#writes.succeeded();
        return result;
      } catch (err) {
        await this.exec('ROLLBACK').catch(() => undefined);
        throw this.#writes.failed(err);
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
