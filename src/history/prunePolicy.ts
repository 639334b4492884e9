/**
 * When the history prune may delete, and from which reference. Pure: the
 * caller passes the clocks' readings.
 *
 * The 14 days are measured back from the newest stored reading, or from the
 * wall clock when that is earlier (readings stamped in the future after a
 * clock stepped back do not move the reference). A wall clock that jumped
 * ahead cannot be told from a long power cut by the data alone, so the prune
 * waits while
 *  - the system clock says it is not NTP-synchronised yet, or
 *  - it would delete everything stored before this start (the newest
 *    restored reading is older than the retention) and this run has not yet
 *    been up for the retention on the monotonic clock.
 * Waiting only keeps rows that lie outside every window a while longer.
 */
import type { ClockSyncStatus } from '../util/clockSync.js';
import { MINUTE_MS, RETENTION_MINUTES } from './windows.js';

export const RETENTION_MS = RETENTION_MINUTES * MINUTE_MS;

export interface PruneFacts {
  nowMs: number;
  /** Each station's newest reading time (null: none yet). */
  newestMs: ReadonlyArray<number | null>;
  /** The newest reading restored from the database at start (null: none). */
  restoredNewestMs: number | null;
  /** Monotonic time since this run's start. */
  uptimeMs: number;
  sync: ClockSyncStatus;
}

export type PrunePlan = { prune: true; referenceMs: number } | { prune: false; reason: string };

/** The reference the retention is measured back from: the newest reading, never later than now. */
export function pruneReferenceMs(nowMs: number, newestMs: ReadonlyArray<number | null>): number {
  const known = newestMs.filter((value): value is number => value !== null);
  return known.length === 0 ? nowMs : Math.min(nowMs, Math.max(...known));
}

export function planPrune(facts: PruneFacts): PrunePlan {
  if (facts.sync === 'unsynchronized') return { prune: false, reason: 'the system clock is not NTP-synchronised yet' };
  const referenceMs = pruneReferenceMs(facts.nowMs, facts.newestMs);
  if (facts.restoredNewestMs !== null && facts.restoredNewestMs < referenceMs - RETENTION_MS && facts.uptimeMs < RETENTION_MS) {
    return {
      prune: false,
      reason: 'it would delete all history stored before this start (a clock ahead, or a long outage); it waits until 14 days of uptime',
    };
  }
  return { prune: true, referenceMs };
}
