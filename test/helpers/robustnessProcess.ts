/**
 * Fault injection around a running daemon process: read-only queries of its
 * SQLite file from outside, corrupting and restoring one table's pages as a
 * failing storage medium would, and the daemon's embedded-broker port.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import type { DaemonProcess } from './httpDaemon.js';
import { waitFor } from './httpTempDir.js';

/** Runs one query on a separate read-only connection (another process's view of the file). */
export function queryReadOnly<T>(dbPath: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(dbPath, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) {
        reject(openError);
        return;
      }
      db.all(sql, params, (err: Error | null, rows: T[]) => db.close(() => (err ? reject(err) : resolve(rows))));
    });
  });
}

/** A second read-write connection, as another process (a backup tool, the admin CLI) would hold. */
export class OtherConnection {
  readonly #db: sqlite3.Database;

  private constructor(db: sqlite3.Database) {
    this.#db = db;
  }

  static open(dbPath: string): Promise<OtherConnection> {
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(dbPath, (err) => (err ? reject(err) : resolve(new OtherConnection(db))));
    });
  }

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) =>
      this.#db.all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#db.close(() => resolve()));
  }
}

export interface CorruptedPage {
  restore(): void;
}

/**
 * Overwrites the root page of `table` in the database file with garbage, as
 * a dying SD card might. The WAL is checkpointed first so the page is read
 * from the file, and the caller makes another commit afterwards so that
 * every connection drops its page cache.
 */
export async function corruptTablePage(dbPath: string, other: OtherConnection, table: string): Promise<CorruptedPage> {
  const [root] = await other.all<{ rootpage: number }>('SELECT rootpage FROM sqlite_master WHERE type = ? AND name = ?', ['table', table]);
  const [pageSize] = await other.all<{ page_size: number }>('PRAGMA page_size');
  if (!root || !pageSize) throw new Error(`table ${table} not found`);
  await other.all('PRAGMA wal_checkpoint(TRUNCATE)');
  const offset = (root.rootpage - 1) * pageSize.page_size;
  const fd = openSync(dbPath, 'r+');
  const saved = Buffer.alloc(pageSize.page_size);
  readSync(fd, saved, 0, saved.length, offset);
  writeSync(fd, Buffer.alloc(saved.length, 0xa5), 0, saved.length, offset);
  closeSync(fd);
  return {
    restore() {
      const restoreFd = openSync(dbPath, 'r+');
      writeSync(restoreFd, saved, 0, saved.length, offset);
      closeSync(restoreFd);
    },
  };
}

/** The embedded broker's port, from the daemon's "embedded MQTT broker listening" log line. */
export async function brokerPortOf(daemon: DaemonProcess): Promise<number> {
  let port = 0;
  await waitFor(() => {
    const line = daemon.logLines().find((entry) => entry.module === 'broker' && typeof entry.port === 'number');
    port = Number(line?.port ?? 0);
    return port > 0;
  }, 10_000);
  return port;
}
