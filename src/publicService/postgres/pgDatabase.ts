/**
 * The service tables in PostgreSQL, for several instances (docs/deployment.md):
 * a `pg` pool for queries and transactions, the change listener for the access
 * cache, and the migrations of ./migrations.ts. Implements SqlDatabase, so the
 * stores run their (portable) SQL here as on SQLite.
 *
 * Nothing waits on the server without bound: a statement ends after
 * store.queryTimeoutMs (the server's statement_timeout; and on our side a
 * little later, for a server that does not answer at all, a stalled one whose
 * connections stay up), a connection or a free pool client is waited for
 * store.connectTimeoutMs. Either failure is a StoreUnavailableError (503 with
 * Retry-After) and marks the store degraded in /health.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import type { RunResult, SqlParams } from '../../store/database.js';
import type { Migration } from '../../store/migrations/migration.js';
import { StoreUnavailableError, type SqlDatabase, type TransactionOptions } from '../../store/sqlDatabase.js';
import { ChangeListener } from './changeListener.js';
import { PG_MIGRATIONS } from './migrations.js';
import { Outage } from './outage.js';

/*
 * The stores write `?` placeholders (SQLite's); PostgreSQL numbers them
 * (`$1`, `$2`, ...). A `?` inside a quoted string, a quoted identifier or a
 * comment is text, not a placeholder. Pure.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const end = skipQuotedOrComment(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else {
      out += ch === '?' ? `$${++n}` : ch;
      i++;
    }
  }
  return out;
}

/** The index after a quoted string, quoted identifier or comment starting at `i`; `i` when none starts there. */
function skipQuotedOrComment(sql: string, i: number): number {
  const ch = sql[i];
  if (ch === "'" || ch === '"') {
    const close = sql.indexOf(ch, i + 1);
    return close === -1 ? sql.length : close + 1;
  }
  if (ch === '-' && sql[i + 1] === '-') {
    const close = sql.indexOf('\n', i);
    return close === -1 ? sql.length : close;
  }
  if (ch === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return close === -1 ? sql.length : close + 2;
  }
  return i;
}

export interface PgOptions {
  connectionString: string;
  logger: Logger;
  poolSize?: number;
  /** store.queryTimeoutMs. */
  queryTimeoutMs?: number;
  /** store.connectTimeoutMs: a new connection, or a free client of a busy pool. */
  connectTimeoutMs?: number;
  /** The safety-net re-read of keys, blocks and maintenance (store.rereadSeconds). */
  rereadMs?: number;
  /** Set false for one-shot use (the CLI): no LISTEN connection. */
  listen?: boolean;
  migrations?: readonly Migration[];
}

/** A query target: the pool, or one client inside a transaction. */
type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** An arbitrary, fixed key for pg_advisory_xact_lock: one migrating instance at a time. */
const MIGRATION_LOCK = 0x6d6f77;
/**
 * Migrations run at start-up, may rewrite a table and wait for another instance's: not bounded by
 * store.queryTimeoutMs, but not forever either (a failed start is retried by the supervisor).
 */
const MIGRATION_TIMEOUT_MS = 10 * 60_000;
/** The client-side bound is the server's plus this: a live server cancels first, with its own clear error. */
const CLIENT_TIMEOUT_MARGIN_MS = 500;
/** pg's client-side timeout's words. */
const CLIENT_TIMEOUT_MESSAGE = /Query read timeout|timeout exceeded when trying to connect/i;

function values(params: SqlParams): unknown[] {
  if (!Array.isArray(params)) throw new Error('PostgreSQL statements take positional (?) parameters only');
  return params as unknown[];
}

/** Statements against one query target; `clientTimeoutMs` overrides the pool's client-side query timeout (migrations). */
class PgStatements {
  constructor(
    protected readonly target: Queryable,
    protected readonly clientTimeoutMs?: number,
  ) {}

  protected async query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.target.query({
      text: sql,
      values: params,
      ...(this.clientTimeoutMs === undefined ? {} : { query_timeout: this.clientTimeoutMs }),
    });
  }

  async run(sql: string, params: SqlParams = []): Promise<RunResult> {
    const result = await this.query(numberPlaceholders(sql), values(params));
    const first = result.rows[0] as { id?: unknown } | undefined;
    return { changes: result.rowCount ?? 0, lastID: Number(first?.id ?? 0) };
  }

  async get<T>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    const result = await this.query(numberPlaceholders(sql), values(params));
    return result.rows as T[];
  }
}

export class PgDatabase extends PgStatements implements SqlDatabase {
  readonly #pool: pg.Pool;
  readonly #listener: ChangeListener | undefined;
  readonly #outage: Outage;
  #closed = false;

  private constructor(pool: pg.Pool, listener: ChangeListener | undefined, outage: Outage) {
    super(pool);
    this.#pool = pool;
    this.#listener = listener;
    this.#outage = outage;
  }

  /** Connects, applies pending migrations and (unless `listen` is false) starts listening for changes. */
  static async open(options: PgOptions): Promise<PgDatabase> {
    const logger = options.logger.child({ module: 'postgres' });
    const outage = new Outage(logger, 'PostgreSQL (store.url)');
    const queryTimeoutMs = options.queryTimeoutMs ?? 2000;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 5,
      keepAlive: true,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
      statement_timeout: queryTimeoutMs,
      query_timeout: queryTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
    });
    // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
    pool.on('error', (err) => outage.failed(err));
    const listener =
      options.listen === false
        ? undefined
        : new ChangeListener({
            connectionString: options.connectionString,
            logger,
            rereadMs: options.rereadMs ?? 60_000,
            connectTimeoutMs: options.connectTimeoutMs,
            outage,
          });
    const database = new PgDatabase(pool, listener, outage);
    try {
      await database.migrate(options.migrations ?? PG_MIGRATIONS);
      await listener?.start();
    } catch (err) {
      await database.close();
      throw err;
    }
    return database;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Since when PostgreSQL is unreachable (epoch ms), or undefined. */
  get unreachableSinceMs(): number | undefined {
    return this.#outage.sinceMs;
  }

  override async run(sql: string, params: SqlParams = []): Promise<RunResult> {
    return this.#watched(() => super.run(sql, params));
  }

  override async all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    return this.#watched(() => super.all<T>(sql, params));
  }

  async transaction<T>(work: (db: SqlDatabase) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.#transaction(work, options);
  }

  async #transaction<T>(work: (db: PgTransaction) => Promise<T>, options: TransactionOptions, clientTimeoutMs?: number): Promise<T> {
    return this.#watched(async () => {
      const client = await this.#pool.connect();
      // A connection lost between the transaction's statements is an 'error' event on the checked-out client.
      const onError = (err: Error): void => this.#outage.failed(err);
      client.on('error', onError);
      let broken: unknown;
      try {
        await client.query('BEGIN');
        if (options.serialize !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [options.serialize]);
        const result = await work(new PgTransaction(client, clientTimeoutMs));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        // A connection that failed or did not answer would not answer the ROLLBACK either (a second
        // timeout's wait): the pool drops it, and the server rolls back when it sees it gone.
        if (isConnectionError(err)) broken = err;
        else await client.query('ROLLBACK').catch((rollbackErr: unknown) => (broken = rollbackErr));
        throw err;
      } finally {
        client.off('error', onError);
        // A client whose connection failed, or whose rollback did, is broken: the pool drops it.
        client.release(broken instanceof Error ? broken : undefined);
      }
    });
  }

  async dataVersion(): Promise<number> {
    return this.#listener?.version ?? 0;
  }

  /** Changes made by any instance or the CLI (NOTIFY), reconnects and the periodic re-read. */
  subscribe(listener: () => void): () => void {
    return this.#listener?.subscribe(listener) ?? (() => undefined);
  }

  problem(): string | null {
    return this.#outage.sinceMs === undefined ? null : `PostgreSQL unreachable: ${this.#outage.lastError}`;
  }

  async migrate(migrations: readonly Migration[]): Promise<void> {
    await this.#transaction(
      async (db) => {
        await db.exec(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
        await db.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
        await db.run(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
        );
        const applied = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
        for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
          if (applied.has(migration.version)) continue;
          await db.exec(migration.up);
          await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
            migration.version,
            migration.name,
            new Date().toISOString(),
          ]);
        }
      },
      {},
      MIGRATION_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.stop();
    await this.#pool.end();
  }

  async #watched<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.#outage.succeeded();
      return result;
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      this.#outage.failed(err, isTimeoutError(err));
      throw new StoreUnavailableError(err);
    }
  }

  /** True while the outage is a server that is connected but does not answer in time. */
  get stalled(): boolean {
    return this.#outage.stalled;
  }
}

/** Statements inside one transaction (one client); nested transactions are not needed by the stores. */
class PgTransaction extends PgStatements implements SqlDatabase {
  readonly closed = false;
  transaction<T>(work: (db: SqlDatabase) => Promise<T>): Promise<T> {
    return work(this);
  }
  async exec(sql: string): Promise<void> {
    await this.query(sql);
  }
  async dataVersion(): Promise<number> {
    return 0;
  }
  problem(): null {
    return null;
  }
  async close(): Promise<void> {}
}

/**
 * A failure to reach the server, as opposed to an error in a statement or in the caller's work:
 * a socket error (ECONNREFUSED, ECONNRESET, ...), SQLSTATE class 08 (connection exception) or 57P
 * (admin shutdown, crash, cannot connect now), a timeout (./isTimeoutError), or the driver's own
 * words for a lost connection.
 */
export function isConnectionError(err: unknown): boolean {
  if (isTimeoutError(err)) return true;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return /^E[A-Z]+$/.test(code) || code.startsWith('08') || code.startsWith('57P');
  return typeof message === 'string' && /Connection terminated|connection error|not queryable/i.test(message);
}

/**
 * No answer in time: SQLSTATE 57014 (query_canceled: our statement_timeout; nothing else here
 * cancels), or pg's client-side query or connect timeout (a server that does not answer at all).
 */
export function isTimeoutError(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === '57014') return true;
  return typeof message === 'string' && CLIENT_TIMEOUT_MESSAGE.test(message);
}
