/**
 * The run ledger of one lawn's mower, over its rows in the database (src/store/mowerRunStore.ts): a row
 * when a run starts, the same row completed when it ends, and the API calls sent, for the budgets. Kept
 * in memory too, so the decision's view (LedgerView) is answered without a query; loaded at start, so a
 * restart mid-run continues the open run instead of starting a second one.
 */
import type { DecisionReason, LedgerView, RunStarter } from '../core/mower/decision.js';
import type { MowerRunStore, StoredRun } from '../store/mowerRunStore.js';
import { calendarDay, weekStartDay } from '../util/calendarDay.js';

export type RunOutcome = 'completed' | 'docked_for_rain' | 'docked_by_daemon' | 'docked_by_user' | 'error' | 'interrupted';

export interface RunRecord {
  id: number;
  lawn: string;
  startedBy: RunStarter;
  startMs: number;
  endMs: number | null;
  mowingMinutes: number;
  outcome: RunOutcome | null;
  reason: DecisionReason | null;
}

const DAY_MS = 86_400_000;
/** Runs kept in memory (and shown): more than two weeks of daily runs. */
const KEPT_RUNS = 30;
/** Calls remembered: the longest budget window. */
const CALL_WINDOW_MS = 31 * DAY_MS;
/** Completed runs the run length is learned from, and how many it needs. */
const LEARN_FROM = 5;
const LEARN_MIN = 3;

function recordOf(run: StoredRun): RunRecord {
  return {
    id: run.id,
    lawn: run.lawn,
    startedBy: run.startedBy as RunStarter,
    startMs: run.startMs,
    endMs: run.endMs,
    mowingMinutes: run.mowingMinutes,
    outcome: run.outcome as RunOutcome | null,
    reason: run.reason,
  };
}

export class RunLedger {
  readonly #store: MowerRunStore;
  readonly #lawn: string;
  readonly #station: string;
  readonly #timeZone: string;
  #runs: RunRecord[] = [];
  #calls: number[] = [];
  #lastCommand: LedgerView['lastCommand'] = null;
  #automatic: boolean | undefined;

  constructor(options: { store: MowerRunStore; lawn: string; station: string; timeZone: string }) {
    this.#store = options.store;
    this.#lawn = options.lawn;
    this.#station = options.station;
    this.#timeZone = options.timeZone;
  }

  async load(nowMs: number): Promise<void> {
    const runs = await this.#store.runs(this.#lawn, KEPT_RUNS);
    this.#runs = runs.map(recordOf).reverse();
    const calls = await this.#store.calls(this.#lawn, nowMs - CALL_WINDOW_MS);
    this.#calls = calls.map((call) => call.atMs);
    this.#automatic = await this.#store.automatic(this.#lawn);
    const last = calls.at(-1);
    if (last && (last.action === 'start' || last.action === 'dock')) this.#lastCommand = { action: last.action, atMs: last.atMs };
  }

  /** The "Automatic mowing" switch as last set; undefined: never set (the configuration's `enabled` holds). */
  get automatic(): boolean | undefined {
    return this.#automatic;
  }

  async saveAutomatic(on: boolean, atMs: number): Promise<void> {
    this.#automatic = on;
    await this.#store.saveAutomatic(this.#lawn, on, atMs);
  }

  /** The open run (no end yet), if any. */
  get current(): RunRecord | undefined {
    const last = this.#runs.at(-1);
    return last && last.endMs === null ? last : undefined;
  }

  /** The kept runs, oldest first. */
  get runs(): readonly RunRecord[] {
    return this.#runs;
  }

  async openRun(by: RunStarter, startMs: number): Promise<RunRecord> {
    const id = await this.#store.openRun({ lawn: this.#lawn, station: this.#station, startedBy: by, startMs });
    const run: RunRecord = {
      id,
      lawn: this.#lawn,
      startedBy: by,
      startMs,
      endMs: null,
      mowingMinutes: 0,
      outcome: null,
      reason: null,
    };
    this.#runs.push(run);
    if (this.#runs.length > KEPT_RUNS) this.#runs.shift();
    return run;
  }

  async closeRun(endMs: number, mowingMinutes: number, outcome: RunOutcome, reason: DecisionReason): Promise<RunRecord | undefined> {
    const run = this.current;
    if (!run) return undefined;
    // Written first: what the memory (and the route) shows as ended is in the database.
    await this.#store.closeRun(run.id, { endMs, mowingMinutes, outcome, reason });
    run.endMs = endMs;
    run.mowingMinutes = mowingMinutes;
    run.outcome = outcome;
    run.reason = reason;
    return run;
  }

  /** One API call sent to the mower (a retry is another call). */
  async recordCall(action: 'start' | 'dock' | 'pause', atMs: number): Promise<void> {
    this.#calls.push(atMs);
    if (action !== 'pause') this.#lastCommand = { action, atMs };
    await this.#store.recordCall(this.#lawn, atMs, action);
  }

  /** A dry run's "would": kept in memory only, so the no-flapping gap applies to what it shows as well. */
  recordWould(action: 'start' | 'dock', atMs: number): void {
    this.#lastCommand = { action, atMs };
  }

  /** Calls within the last `windowMs` before `nowMs`. */
  callsWithin(windowMs: number, nowMs: number): number {
    this.#calls = this.#calls.filter((atMs) => atMs > nowMs - CALL_WINDOW_MS);
    return this.#calls.filter((atMs) => atMs > nowMs - windowMs && atMs <= nowMs).length;
  }

  view(nowMs: number): LedgerView {
    const current = this.current;
    const completed = this.#runs.filter((run) => run.outcome === 'completed');
    const recent = completed
      .slice(-LEARN_FROM)
      .map((run) => run.mowingMinutes)
      .sort((a, b) => a - b);
    const dockedByUser = this.#runs.filter((run) => run.outcome === 'docked_by_user').at(-1);
    // The local week from Monday 00:00 (a day string compares in calendar order): the plan's week.
    const monday = weekStartDay(nowMs, this.#timeZone);
    const today = calendarDay(nowMs, this.#timeZone);
    const thisWeek = this.#runs.filter((run) => {
      const day = calendarDay(run.startMs, this.#timeZone);
      return run.endMs !== null && day >= monday && day <= today;
    });
    return {
      current: current ? { by: current.startedBy, startMs: current.startMs } : null,
      lastCompletedEndMs: completed.at(-1)?.endMs ?? null,
      userDockedDay: dockedByUser?.endMs == null ? null : calendarDay(dockedByUser.endMs, this.#timeZone),
      learnedRunMinutes: recent.length >= LEARN_MIN ? recent[Math.floor(recent.length / 2)]! : null,
      runsThisWeek: this.#runs.filter((run) => run.startMs > nowMs - 7 * DAY_MS && run.startMs <= nowMs).length,
      mowedMinutesThisWeek: thisWeek.reduce((sum, run) => sum + run.mowingMinutes, 0),
      lastCommand: this.#lastCommand,
    };
  }
}

/** A run as the route, the state and the CLI show it. */
export interface RunView {
  started_by: string;
  started_at: string;
  ended_at: string | null;
  mowing_minutes: number;
  outcome: string | null;
  reason: string | null;
  reason_de: string | null;
}

export function runView(run: RunRecord): RunView {
  return {
    started_by: run.startedBy,
    started_at: new Date(run.startMs).toISOString(),
    ended_at: run.endMs === null ? null : new Date(run.endMs).toISOString(),
    mowing_minutes: run.mowingMinutes,
    outcome: run.outcome,
    reason: run.reason?.en ?? null,
    reason_de: run.reason?.de ?? null,
  };
}

/** Runs the state shows besides today's: the last few, for the page. */
const RECENT_RUNS = 5;
/** At most this many in the state, however many runs today had. */
const MAX_STATE_RUNS = 10;

/** Today's runs and the last ones (at least RECENT_RUNS), newest first, each marked whether it started today. */
export function recentRuns(runs: readonly RunRecord[], nowMs: number, timeZone: string): Array<RunView & { today: boolean }> {
  const today = calendarDay(nowMs, timeZone);
  const shown: Array<RunView & { today: boolean }> = [];
  // Newest first; the runs are in start order, so the first earlier one past the recent few ends the walk.
  for (let index = runs.length - 1; index >= 0 && shown.length < MAX_STATE_RUNS; index--) {
    const run = runs[index]!;
    const isToday = calendarDay(run.startMs, timeZone) === today;
    if (!isToday && shown.length >= RECENT_RUNS) break;
    shown.push({ ...runView(run), today: isToday });
  }
  return shown;
}
