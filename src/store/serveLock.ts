/**
 * One `serve` per database. Two daemons on one file would each keep their
 * own history in memory and overwrite each other's rows.
 *
 * The lock is SQLite's own write lock (a POSIX advisory lock, fcntl(2)) on a
 * small side file `<db>.lock`: the holder keeps a write transaction open
 * (RESERVED lock, https://www.sqlite.org/lockingv3.html) for as long as it
 * runs. The kernel drops the lock when the process ends in any way,
 * SIGKILL and power loss included, so a stale lock cannot block a restart and
 * a reused PID cannot fake a holder. Readers are not blocked, which lets a
 * second process read the holder's PID for its message. The main database
 * is not used for this: it runs in WAL mode, and its lock is not held for
 * long by design, so the admin CLI keeps working next to the daemon.
 */
import { resolve } from 'node:path';
import sqlite3 from 'sqlite3';
import { EXIT_CONFIG } from '../util/exitCodes.js';
import { canonicalDatabasePath, DB_PATH_FLAGS, explainOpenError, isSpecialPath, prepareDatabaseFile } from './databaseFile.js';

/** How long a start waits for a lock that is being released (e.g. a restart racing the old process's exit). */
const LOCK_WAIT_MS = 250;
/** Attempts when two starts race for the same free lock. */
const MAX_ATTEMPTS = 5;

/** Next to the real file: a symlink or another spelling of the path must find the same lock. */
export function lockPathFor(dbPath: string): string {
  return `${canonicalDatabasePath(dbPath)}.lock`;
}

/** Another `serve` holds the database; exit code 78 (EX_CONFIG), which systemd's RestartPreventExitStatus=78 does not restart. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
  readonly exitCode = EXIT_CONFIG;
  readonly holderPid: number | null;
  constructor(dbPath: string, holder: { pid: number; since: string } | undefined) {
    const who = holder ? `mowability serve (PID ${holder.pid}, started ${holder.since})` : 'another mowability serve';
    super(
      `database ${resolve(dbPath)} is already in use by ${who}. Only one daemon may run per database; ` +
        `stop the other one, or give this one its own database with ${DB_PATH_FLAGS}. ` +
        'The admin commands (keys, ip, maintenance) work while the daemon runs.',
    );
    this.holderPid = holder?.pid ?? null;
  }
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((done, fail) => db.exec(sql, (err) => (err ? fail(err) : done())));
}

function get<T>(db: sqlite3.Database, sql: string): Promise<T | undefined> {
  return new Promise((done, fail) => db.get(sql, (err: Error | null, row: T | undefined) => (err ? fail(err) : done(row))));
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** The recorded holder; our own PID on record means the winner has not written its own yet. */
async function readHolder(db: sqlite3.Database): Promise<{ pid: number; since: string } | undefined> {
  const holder = await get<{ pid: number; since: string }>(db, 'SELECT pid, since FROM holder WHERE id = 1').catch(() => undefined);
  return holder?.pid === process.pid ? undefined : holder;
}

export class ServeLock {
  readonly path: string;
  readonly #db: sqlite3.Database;

  private constructor(path: string, db: sqlite3.Database) {
    this.path = path;
    this.#db = db;
  }

  /** Takes the lock for `dbPath` or throws DatabaseInUseError; null for in-memory databases (nothing to share). */
  static async acquire(dbPath: string): Promise<ServeLock | null> {
    if (isSpecialPath(dbPath)) return null;
    const path = lockPathFor(dbPath);
    prepareDatabaseFile(path, true);
    const db = await new Promise<sqlite3.Database>((done, fail) => {
      const opened: sqlite3.Database = new sqlite3.Database(path, (err) => (err ? fail(explainOpenError(path, err)) : done(opened)));
    });
    try {
      db.configure('busyTimeout', LOCK_WAIT_MS);
      await ServeLock.#take(db, dbPath);
      return new ServeLock(path, db);
    } catch (err) {
      await new Promise<void>((done) => db.close(() => done()));
      throw err;
    }
  }

  /**
   * Writes our PID (so a second start can name us), then holds a write
   * transaction. Between the commit and the new BEGIN another start may slip
   * in; whoever then holds the lock with someone else's PID on record writes
   * its own again.
   */
  static async #take(db: sqlite3.Database, dbPath: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await exec(db, 'BEGIN IMMEDIATE');
      } catch (err) {
        if (isBusy(err)) throw new DatabaseInUseError(dbPath, await readHolder(db));
        throw err;
      }
      const recorded = await get<{ pid: number }>(db, 'SELECT pid FROM holder WHERE id = 1').catch(() => undefined);
      if (recorded?.pid === process.pid && attempt > 0) return;
      await exec(
        db,
        'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, since TEXT NOT NULL)',
      );
      await exec(db, `INSERT OR REPLACE INTO holder (id, pid, since) VALUES (1, ${process.pid}, '${new Date().toISOString()}')`);
      await exec(db, 'COMMIT');
    }
    throw new DatabaseInUseError(dbPath, await readHolder(db));
  }

  /** Ends the transaction and closes the file; the next `serve` may start. Idempotent. */
  async release(): Promise<void> {
    await exec(this.#db, 'ROLLBACK').catch(() => undefined);
    await new Promise<void>((done) => this.#db.close(() => done()));
  }
}
