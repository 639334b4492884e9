/**
 * The requests one instance counted on its current usage day, kept so a wall-clock step (a Pi
 * without a real-time clock, then NTP) can re-date them. Requests counted before a step were made
 * in the last hours, on the clock that turned out wrong: they belong to the day the corrected
 * clock shows. So on a step to another day they move there, in memory and in the stored rows:
 *  - a step back does not grant a second day of quota (the counts come along);
 *  - a step forward does not reset the quota (the same);
 *  - the day they were booked on wrongly (often "tomorrow") gets them back, so it does not start
 *    exhausted when it really comes.
 * Only this instance's own counts of the current day move; other instances' counts and earlier
 * days stay where they were booked (docs/mqtt.md, clock steps).
 */
import type { ClockStep } from '../util/clockWatch.js';
import { CLOCK_CHECK_INTERVAL_MS, CLOCK_STEP_TOLERANCE_MS } from '../util/clockWatch.js';
import type { SqlDatabase } from '../store/sqlDatabase.js';

/** A request can be counted after the wall clock stepped but before the next check saw it. */
const SEEN_LATE_MS = CLOCK_CHECK_INTERVAL_MS + CLOCK_STEP_TOLERANCE_MS;

/** Counts per key. */
export type KeyCounts = Map<number, number>;

export interface ReDated {
  from: string;
  to: string;
  counts: KeyCounts;
}

export class OwnDayCounts {
  #day = '';
  #own: KeyCounts = new Map();
  #previous: { day: string; own: KeyCounts; switchedAtMs: number } | undefined;

  /** One request of `keyId` counted on `day` at `nowMs` (wall). */
  count(day: string, keyId: number, nowMs: number): void {
    if (day !== this.#day) {
      this.#previous = this.#day === '' ? undefined : { day: this.#day, own: this.#own, switchedAtMs: nowMs };
      this.#day = day;
      this.#own = new Map();
    }
    this.#own.set(keyId, (this.#own.get(keyId) ?? 0) + 1);
  }

  /**
   * The wall clock stepped; `newDay` is the usage day it shows now. Returns the counts to move
   * (from the day they were counted on to `newDay`), or undefined when the day did not change.
   */
  clockStepped(step: ClockStep, newDay: string): ReDated | undefined {
    let from: { day: string; own: KeyCounts } | undefined;
    if (this.#day !== '' && this.#day !== newDay) from = { day: this.#day, own: this.#own };
    else if (
      this.#previous &&
      this.#previous.day !== newDay &&
      step.atMs - this.#previous.switchedAtMs >= 0 &&
      step.atMs - this.#previous.switchedAtMs <= SEEN_LATE_MS
    )
      from = this.#previous;
    this.#previous = undefined;
    if (!from) return undefined;
    const merged: KeyCounts = this.#day === newDay ? this.#own : new Map<number, number>();
    for (const [keyId, requests] of from.own) merged.set(keyId, (merged.get(keyId) ?? 0) + requests);
    this.#day = newDay;
    this.#own = merged;
    return from.own.size === 0 ? undefined : { from: from.day, to: newDay, counts: from.own };
  }
}

/**
 * Moves counts from one day's rows to another's in one transaction (never below 0; keys removed
 * meanwhile are skipped), in key order like every usage write (no deadlock between instances).
 */
export async function moveUsage(db: SqlDatabase, moved: ReDated): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [keyId, requests] of [...moved.counts].sort(([a], [b]) => a - b)) {
      await tx.run(
        'UPDATE key_usage SET requests = CASE WHEN requests < CAST(? AS INTEGER) THEN 0 ELSE requests - CAST(? AS INTEGER) END WHERE key_id = ? AND day = ?',
        [requests, requests, keyId, moved.from],
      );
      await tx.run(
        `INSERT INTO key_usage (key_id, day, requests) SELECT CAST(? AS INTEGER), ?, CAST(? AS INTEGER) WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?)
         ON CONFLICT (key_id, day) DO UPDATE SET requests = key_usage.requests + excluded.requests`,
        [keyId, moved.to, requests, keyId],
      );
    }
  });
}
