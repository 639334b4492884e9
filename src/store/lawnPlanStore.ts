/**
 * The week plan's rows (migration 016): each lawn's last plan as JSON, written when it changed, so a
 * restart keeps its slots' ids and sequence numbers. What a stored plan must hold to be used again is
 * the planner's to check (src/lawn/storedPlan.ts); a row that does not parse is none. A save joins
 * the history's next commit (./sharedCommit.ts, the newest plan per lawn wins) instead of a commit of
 * its own: a re-plan after each forecast fetch was a commit of ~4 WAL frames (bench/NOTES.md, "A
 * household day's commits with the new parts on"). A power cut loses at most the plans of the last
 * `history.flushIntervalSeconds`; the planner then re-plans from the plan before, as after any start.
 */
import type { LawnPlan } from '../core/plan/types.js';
import { keyedStageOn, type Database } from './database.js';
import type { KeyedStage } from './sharedCommit.js';

export class LawnPlanStore {
  readonly #database: Database;
  /** The daemon's database: saves join the history's commit (a stand-in without one writes at once). */
  readonly #stage: KeyedStage<Database> | undefined;

  constructor(database: Database) {
    this.#database = database;
    this.#stage = keyedStageOn(database);
  }

  async loadPlans(): Promise<Map<string, unknown>> {
    await this.#stage?.settle();
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

  /** Resolves once the rows are staged for the history's next commit, or written where nothing drives commits. */
  async savePlans(rows: ReadonlyArray<{ station: string; plan: LawnPlan }>, nowMs: number): Promise<void> {
    if (rows.length === 0) return;
    const writes = rows.map(
      ({ station, plan }) => [plan.lawnId, (db: Database) => LawnPlanStore.#write(db, station, plan, nowMs)] as const,
    );
    if (this.#stage) await this.#stage.stageAll(writes);
    else
      await this.#database.transaction(async (db) => {
        for (const [, write] of writes) await write(db);
      });
  }

  static async #write(db: Database, station: string, plan: LawnPlan, nowMs: number): Promise<void> {
    await db.run(
      'INSERT INTO lawn_plans (lawn, station, plan, saved_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT(lawn) DO UPDATE SET station = excluded.station, plan = excluded.plan, saved_at_ms = excluded.saved_at_ms',
      [plan.lawnId, station, JSON.stringify(plan), nowMs],
    );
  }
}
