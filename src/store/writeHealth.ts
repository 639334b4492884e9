/**
 * Tells a passing SQLite hiccup from a database that no longer takes
 * writes: a full disk, an I/O error or a read-only file count at once, a
 * busy database only when it stays busy (each attempt already waited the
 * busy timeout). A successful write clears it.
 */

/** Result codes that mean the write will keep failing until someone acts (https://www.sqlite.org/rescode.html). */
const PERSISTENT_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CANTOPEN', 'SQLITE_PERM']);
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
