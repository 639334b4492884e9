/**
 * The week plan's rows (migration 015): each lawn's last plan as JSON, written when it changed, so a
 * restart keeps its slots' ids and sequence numbers. It also reads what the planner needs of the mower
 * control's run ledger (migration 014, keyed by lawn): the mowing minutes since the week's start and the
 * minutes of the latest completed runs (the capacity learned from the ledger). Read only, on a re-plan.
 */
import type { LawnPlan } from '../core/plan/types.js';
import type { UnitStore } from '../station/unit.js';

const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const text = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { en?: unknown }).en === 'string' &&
  typeof (value as { de?: unknown }).de === 'string';

/** A stored plan checked for the members the planner reads back (its slots' ids, times and sequences); anything damaged: none. */
export function restorePlan(raw: unknown, lawnId: string): LawnPlan | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const plan = raw as Record<string, unknown>;
  if (plan.lawnId !== lawnId || !num(plan.computedAtMs) || !num(plan.horizonEndMs) || !Array.isArray(plan.slots)) return null;
  const slotsOk = plan.slots.every((slot: unknown) => {
    const s = slot as Record<string, unknown> | null;
    return (
      typeof s === 'object' &&
      s !== null &&
      typeof s.id === 'string' &&
      num(s.startMs) &&
      num(s.endMs) &&
      s.endMs > s.startMs &&
      num(s.sequence) &&
      num(s.changedAtMs) &&
      (s.band === 'OK' || s.band === 'WARNING') &&
      typeof s.relaxed === 'boolean' &&
      text(s.reason)
    );
  });
  if (!slotsOk || typeof plan.need !== 'object' || typeof plan.debt !== 'object' || !text(plan.statusReason)) return null;
  return plan as unknown as LawnPlan;
}

/** What the run ledger says of a lawn's mowing this week. */
export interface LedgerFigures {
  readonly mownMinutesThisWeek: number;
  /** Mowing minutes of the latest completed runs, oldest first. */
  readonly completedRunMinutes: readonly number[];
}

const LEDGER_RUNS_READ = 5;

export class PlanStore {
  readonly #database: UnitStore;

  constructor(database: UnitStore) {
    this.#database = database;
  }

  async loadPlans(): Promise<Map<string, unknown>> {
    const rows = await this.#database.all<{ lawn: string; plan: string }>('SELECT lawn, plan FROM lawn_plans');
    const plans = new Map<string, unknown>();
    for (const row of rows) {
      try {
        plans.set(row.lawn, JSON.parse(row.plan));
      } catch {
        // A damaged row is a plan made afresh, not a failed start.
      }
    }
    return plans;
  }

  async savePlans(rows: ReadonlyArray<{ station: string; plan: LawnPlan }>, nowMs: number): Promise<void> {
    if (rows.length === 0) return;
    await this.#database.transaction(async (db) => {
      for (const row of rows) {
        await db.run(
          'INSERT INTO lawn_plans (lawn, station, plan, saved_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT(lawn) DO UPDATE SET station = excluded.station, plan = excluded.plan, saved_at_ms = excluded.saved_at_ms',
          [row.plan.lawnId, row.station, JSON.stringify(row.plan), nowMs],
        );
      }
    });
  }

  /** The ledger's figures for a lawn since `weekStartMs` (no rows without the mower control: zero and none). */
  async ledger(lawnId: string, weekStartMs: number): Promise<LedgerFigures> {
    const [week] = await this.#database.all<{ minutes: number | null }>(
      'SELECT SUM(mowing_minutes) AS minutes FROM mower_runs WHERE lawn = ? AND start_ms >= ?',
      [lawnId, weekStartMs],
    );
    const completed = await this.#database.all<{ mowing_minutes: number }>(
      "SELECT mowing_minutes FROM mower_runs WHERE lawn = ? AND outcome = 'completed' ORDER BY start_ms DESC LIMIT ?",
      [lawnId, LEDGER_RUNS_READ],
    );
    return {
      mownMinutesThisWeek: week?.minutes ?? 0,
      completedRunMinutes: completed.map((row) => row.mowing_minutes).reverse(),
    };
  }
}
