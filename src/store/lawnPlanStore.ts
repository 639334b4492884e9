/**
 * The week plan's rows (migration 016): each lawn's last plan as JSON, written when it changed, so a
 * restart keeps its slots' ids and sequence numbers. What a stored plan must hold to be used again is
 * the planner's to check (src/lawn/storedPlan.ts); a row that does not parse is none.
 */
import type { LawnPlan } from '../core/plan/types.js';
import type { Database } from './database.js';

export class LawnPlanStore {
  readonly #database: Database;

  constructor(database: Database) {
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
}
