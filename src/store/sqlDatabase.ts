/**
 * What the service stores (ServiceStore, RegistrationStore, KeyUsage) need of
 * a database: SQLite (`Database`, the home install) and PostgreSQL
 * (`PgDatabase`, several instances) both provide it. Statements use `?`
 * placeholders and SQL both engines accept (INSERT ... RETURNING id, CAST for
 * counts, qualified columns in ON CONFLICT updates).
 */
import type { RunResult, SqlParams } from './database.js';

export interface TransactionOptions {
  serialize?: string;
}

export interface SqlDatabase {
  run(sql: string, params?: SqlParams): Promise<RunResult>;
  get<T>(sql: string, params?: SqlParams): Promise<T | undefined>;
  all<T>(sql: string, params?: SqlParams): Promise<T[]>;
  /**
   * Runs `work` in one transaction on one connection; rolls back when it throws. Transactions
   * naming the same `serialize` run one after the other, also across processes (a count-then-insert
   * stays exact): SQLite's write lock does this for every transaction, PostgreSQL takes an advisory
   * lock on the name.
   */
  transaction<T>(work: (db: SqlDatabase) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Changes whenever another process may have changed the data (SQLite's data_version; for
   * PostgreSQL a counter bumped by NOTIFY, reconnects and the periodic re-read).
   */
  dataVersion(): Promise<number>;
  /**
   * A cheap, synchronous stamp of the files another process writes to (SQLite: the database and its
   * write-ahead log, one stat() each): while it stays the same, dataVersion() need not be asked.
   * Absent where no such files exist (PostgreSQL).
   */
  changeStamp?(): string;
  /** Told when those files may have changed (SQLite: inotify); undefined where they cannot be watched. */
  watchChanges?(onChange: () => void, onLost: () => void): (() => void) | undefined;
  /** Changes made elsewhere that the engine announces (PostgreSQL's NOTIFY); SQLite has none (data_version is polled). */
  subscribe?(listener: () => void): () => void;
  /** Why the database cannot be trusted, or null (cheap, no query). */
  problem(): string | null;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** The shared database could not be reached (PostgreSQL down or failing over); HTTP answers 503, retry shortly. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the shared store (PostgreSQL) is unreachable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}
