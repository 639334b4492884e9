/**
 * The mower control's rows (migrations 013 and 014, keyed by lawn): its runs (`mower_runs`: a row when
 * a run starts, the same row completed when it ends), the API calls it sent (`mower_calls`, for the
 * budgets) and the "Automatic mowing" switch as last set (`mower_switches`). The run ledger
 * (src/mower/runLedger.ts) keeps them in memory over this store; the week plan reads a lawn's runs
 * through the read-only LawnRuns the mower control module offers (src/daemon.ts wires it).
 */
import type { Database } from './database.js';

/** A run as stored: what started it and how it ended, in the mower control's words (its types check them). */
export interface StoredRun {
  readonly id: number;
  readonly lawn: string;
  readonly startedBy: string;
  readonly startMs: number;
  readonly endMs: number | null;
  readonly mowingMinutes: number;
  readonly outcome: string | null;
  readonly reason: { readonly en: string; readonly de: string } | null;
}

export interface StoredCall {
  readonly atMs: number;
  readonly action: string;
}

/** What the runs of a lawn say of its mowing this week (the week plan's capacity). */
export interface LawnRunFigures {
  readonly mownMinutesThisWeek: number;
  /** Mowing minutes of the latest completed runs, oldest first. */
  readonly completedRunMinutes: readonly number[];
}

/** The runs of a lawn, read only (the mower control module's offer to the week plan). */
export interface LawnRuns {
  /** Since `weekStartMs`; a lawn no mower control ever ran: zero and none. */
  figures(lawnId: string, weekStartMs: number): Promise<LawnRunFigures>;
}

interface RunRow {
  id: number;
  lawn: string;
  started_by: string;
  start_ms: number;
  end_ms: number | null;
  mowing_minutes: number;
  outcome: string | null;
  reason: string | null;
  reason_de: string | null;
}

/** Completed runs the week plan learns a full cut's length from. */
const FIGURE_RUNS = 5;

export class MowerRunStore implements LawnRuns {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** The lawn's latest `limit` runs, newest first. */
  async runs(lawn: string, limit: number): Promise<StoredRun[]> {
    const rows = await this.#database.all<RunRow>('SELECT * FROM mower_runs WHERE lawn = ? ORDER BY start_ms DESC, id DESC LIMIT ?', [
      lawn,
      limit,
    ]);
    return rows.map((row) => ({
      id: row.id,
      lawn: row.lawn,
      startedBy: row.started_by,
      startMs: row.start_ms,
      endMs: row.end_ms,
      mowingMinutes: row.mowing_minutes,
      outcome: row.outcome,
      reason: row.reason === null ? null : { en: row.reason, de: row.reason_de ?? row.reason },
    }));
  }

  /** The lawn's calls after `afterMs`, oldest first. */
  async calls(lawn: string, afterMs: number): Promise<StoredCall[]> {
    const rows = await this.#database.all<{ at_ms: number; action: string }>(
      'SELECT at_ms, action FROM mower_calls WHERE lawn = ? AND at_ms > ? ORDER BY at_ms',
      [lawn, afterMs],
    );
    return rows.map((row) => ({ atMs: row.at_ms, action: row.action }));
  }

  /** The "Automatic mowing" switch as last set; undefined: never set. */
  async automatic(lawn: string): Promise<boolean | undefined> {
    const rows = await this.#database.all<{ automatic: number }>('SELECT automatic FROM mower_switches WHERE lawn = ?', [lawn]);
    return rows[0] === undefined ? undefined : rows[0].automatic === 1;
  }

  async saveAutomatic(lawn: string, on: boolean, atMs: number): Promise<void> {
    await this.#database.run(
      'INSERT INTO mower_switches (lawn, automatic, set_at_ms) VALUES (?, ?, ?) ON CONFLICT(lawn) DO UPDATE SET automatic = excluded.automatic, set_at_ms = excluded.set_at_ms',
      [lawn, on ? 1 : 0, atMs],
    );
  }

  /** A new open run; its id. */
  async openRun(run: { lawn: string; station: string; startedBy: string; startMs: number }): Promise<number> {
    const result = await this.#database.run('INSERT INTO mower_runs (lawn, station, started_by, start_ms) VALUES (?, ?, ?, ?)', [
      run.lawn,
      run.station,
      run.startedBy,
      run.startMs,
    ]);
    return Number(result.lastID);
  }

  async closeRun(
    id: number,
    end: { endMs: number; mowingMinutes: number; outcome: string; reason: { readonly en: string; readonly de: string } },
  ): Promise<void> {
    await this.#database.run('UPDATE mower_runs SET end_ms = ?, mowing_minutes = ?, outcome = ?, reason = ?, reason_de = ? WHERE id = ?', [
      end.endMs,
      end.mowingMinutes,
      end.outcome,
      end.reason.en,
      end.reason.de,
      id,
    ]);
  }

  async recordCall(lawn: string, atMs: number, action: string): Promise<void> {
    await this.#database.run('INSERT INTO mower_calls (lawn, at_ms, action) VALUES (?, ?, ?)', [lawn, atMs, action]);
  }

  async figures(lawnId: string, weekStartMs: number): Promise<LawnRunFigures> {
    const [week] = await this.#database.all<{ minutes: number | null }>(
      'SELECT SUM(mowing_minutes) AS minutes FROM mower_runs WHERE lawn = ? AND start_ms >= ?',
      [lawnId, weekStartMs],
    );
    const completed = await this.#database.all<{ mowing_minutes: number }>(
      "SELECT mowing_minutes FROM mower_runs WHERE lawn = ? AND outcome = 'completed' ORDER BY start_ms DESC LIMIT ?",
      [lawnId, FIGURE_RUNS],
    );
    return {
      mownMinutesThisWeek: week?.minutes ?? 0,
      completedRunMinutes: completed.map((row) => row.mowing_minutes).reverse(),
    };
  }
}
