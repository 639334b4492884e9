/**
 * Gives disk space back after deletes (retained messages removed, history
 * pruned). SQLite keeps freed pages inside the file unless auto_vacuum is on,
 * and a WAL file keeps its largest size unless journal_size_limit is set
 * (https://www.sqlite.org/pragma.html#pragma_auto_vacuum,
 * #pragma_incremental_vacuum, #pragma_journal_size_limit,
 * #pragma_wal_checkpoint). To spare SD cards it writes only when at least
 * MIN_FREE_BYTES are free; the one-off VACUUM that switches an older database
 * to incremental mode runs only while its live data is small.
 */
import type { Logger } from 'pino';
import { shellQuote } from '../util/shellQuote.js';
import type { Database } from './database.js';

/** How often the scheduler asks for a reclaim (monotonic interval): cheap reads when there is nothing to do. */
export const RECLAIM_INTERVAL_MS = 10 * 60_000;

export interface ReclaimLimits {
  /** Free space below which nothing is written. */
  readonly minFreeBytes: number;
  /** Largest live data size for which the one-off VACUUM (rewrites all live pages) runs automatically. */
  readonly maxVacuumBytes: number;
}

export const DEFAULT_RECLAIM_LIMITS: ReclaimLimits = { minFreeBytes: 1024 * 1024, maxVacuumBytes: 64 * 1024 * 1024 };

/** SQLite's auto_vacuum values. */
const INCREMENTAL = 2;

export interface ReclaimResult {
  action: 'none' | 'incremental' | 'vacuum' | 'too-large';
  /** File size (pages × page size) before and after. */
  bytesBefore: number;
  bytesAfter: number;
}

interface PageStats {
  autoVacuum: number;
  pageSize: number;
  pageCount: number;
  freePages: number;
}

export class SpaceReclaimer {
  readonly #db: Database;
  readonly #log: Logger;
  readonly #limits: ReclaimLimits;
  #warnedTooLarge = false;

  constructor(db: Database, logger: Logger, limits: ReclaimLimits = DEFAULT_RECLAIM_LIMITS) {
    this.#db = db;
    this.#log = logger.child({ module: 'space-reclaimer' });
    this.#limits = limits;
  }

  /** Frees the database's unused pages when there are enough of them; never throws (logs instead). */
  async reclaim(): Promise<ReclaimResult> {
    try {
      return await this.#reclaim();
    } catch (err) {
      // e.g. VACUUM while another caller's transaction is open: the next run tries again.
      this.#log.warn({ err }, 'could not reclaim database space; will try again');
      return { action: 'none', bytesBefore: 0, bytesAfter: 0 };
    }
  }

  async #reclaim(): Promise<ReclaimResult> {
    const before = await this.#stats();
    const bytesBefore = before.pageCount * before.pageSize;
    const freeBytes = before.freePages * before.pageSize;
    if (freeBytes < this.#limits.minFreeBytes) return { action: 'none', bytesBefore, bytesAfter: bytesBefore };
    let action: ReclaimResult['action'] = 'incremental';
    if (before.autoVacuum !== INCREMENTAL) {
      const liveBytes = bytesBefore - freeBytes;
      if (liveBytes > this.#limits.maxVacuumBytes) return this.#tooLarge(bytesBefore, liveBytes);
      // Switching an existing file to incremental mode takes one full VACUUM.
      await this.#db.exec('PRAGMA auto_vacuum = INCREMENTAL; VACUUM;');
      action = 'vacuum';
    } else {
      await this.#db.exec('PRAGMA incremental_vacuum;');
    }
    // In WAL mode the file shrinks when the checkpoint copies the vacuumed pages back; TRUNCATE also empties the WAL.
    await this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE);');
    const after = await this.#stats();
    const bytesAfter = after.pageCount * after.pageSize;
    this.#log.info({ action, bytesBefore, bytesAfter }, 'database space reclaimed');
    return { action, bytesBefore, bytesAfter };
  }

  #tooLarge(bytes: number, liveBytes: number): ReclaimResult {
    if (!this.#warnedTooLarge) {
      this.#warnedTooLarge = true;
      this.#log.warn(
        { path: this.#db.path, bytes, liveBytes, maxVacuumBytes: this.#limits.maxVacuumBytes },
        'database has free space but predates incremental auto-vacuum and is too large to convert while running; ' +
          `stop the daemon and run: sqlite3 ${shellQuote(this.#db.path)} 'PRAGMA auto_vacuum = INCREMENTAL; VACUUM;'`,
      );
    }
    return { action: 'too-large', bytesBefore: bytes, bytesAfter: bytes };
  }

  async #stats(): Promise<PageStats> {
    const value = async (pragma: string): Promise<number> => {
      const row = await this.#db.get<Record<string, number>>(`PRAGMA ${pragma}`);
      return Number(Object.values(row ?? {})[0] ?? 0);
    };
    return {
      autoVacuum: await value('auto_vacuum'),
      pageSize: await value('page_size'),
      pageCount: await value('page_count'),
      freePages: await value('freelist_count'),
    };
  }
}
