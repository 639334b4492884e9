/**
 * The imperative shell around the decision (src/core/mower/decision.ts) for one lawn's mower: asks it
 * on each tick and on each activity the mower reports, carries a start or dock out through the
 * adapter, and holds it to three promises:
 *
 * - every command is confirmed: the mower must report the expected activity within `confirmSeconds`
 *   (doubled on each retry); after `retries` repeats the controller stops sending, raises an alert
 *   (state, event, log line) and leaves `mowable` alone;
 * - the API budget is never exceeded: each call, a retry included, is counted before it is sent;
 * - a dry run sends nothing: it logs and publishes "would start now (reason)".
 *
 * Nothing is sent once stop() began. The run ledger (./runLedger.ts) records who started each run and
 * how it ended; a completed run records a cut in the lawn memory. Work is serialised on one queue, so
 * a tick and an activity never interleave.
 */
import type { Logger } from 'pino';
import { budgetLeft, type BudgetLeft } from '../core/mower/callBudget.js';
import {
  decide,
  type Decision,
  type DecisionReason,
  type MowerActivity,
  type PlanFollowing,
  type StationView,
} from '../core/mower/decision.js';
import { calendarDay } from '../util/calendarDay.js';
import { confirms, type MowerAdapter, type MowerCommand } from './adapter.js';
import type { MowerControlConfig } from './controlConfig.js';
import { recentRuns, type RunLedger, type RunOutcome, type RunRecord, type RunView } from './runLedger.js';

/** A completed run mowed at least this share of the run length; a shorter one the user ended by hand. */
const COMPLETED_SHARE = 0.5;
const MINUTE_MS = 60_000;

export interface MowerAlert {
  code: 'command_unconfirmed' | 'send_failed' | 'budget_spent' | 'mower_error';
  message: string;
  atMs: number;
}

/** One decision or command, for the event entity and the log. */
export interface MowerEvent {
  type: 'decision' | 'would_start' | 'would_dock' | 'command' | 'confirmed' | 'retry' | 'alert' | 'run_started' | 'run_ended';
  action?: MowerCommand | 'none';
  code?: string;
  reason?: DecisionReason;
  atMs: number;
}

export interface ControllerOptions {
  stationId: string;
  config: MowerControlConfig;
  adapter: MowerAdapter;
  ledger: RunLedger;
  now: () => number;
  log: Logger;
  timeZone: string;
  /** The station's state as the decision sees it, now. */
  station: () => StationView;
  /** When the daemon started: the decision waits at most staleMinutes from here for the station's first state. */
  startedAtMs: number;
  /** Whether the station's first state since the start has arrived. */
  firstStateSeen: () => boolean;
  /** The week's plan of the lawn, when the planner has one (undefined: none; the driver acts as without a planner). */
  plan?: () => PlanFollowing | undefined;
  /** Quiet hours now, with the reason; undefined: none. */
  quiet: (nowMs: number) => DecisionReason | undefined;
  /** The instant of the last unexplained clock step, or null. */
  clockSteppedAtMs: () => number | null;
  /** A completed run's cut, into the lawn memory (absent: the lawn memory is off). */
  recordCut?: (atMs: number) => void;
  onEvent?: (event: MowerEvent) => void;
  /** The mower reported an activity and the controller has taken it in (the state shows it at once, not with the next reading). */
  onActivityTaken?: () => void;
}

interface Pending {
  command: MowerCommand;
  sentAtMs: number;
  attempt: number;
  reason: DecisionReason;
  outcome: RunOutcome;
}

export class MowerController {
  readonly #options: ControllerOptions;
  #automatic: boolean;
  #stopping = false;
  #pending: Pending | undefined;
  #alert: MowerAlert | undefined;
  #decision: (Decision & { atMs: number }) | undefined;
  #activity: MowerActivity = 'unknown';
  #mowingSinceMs: number | null = null;
  #mowedMs = 0;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ControllerOptions) {
    this.#options = options;
    this.#automatic = options.config.enabled;
  }

  get stationId(): string {
    return this.#options.stationId;
  }

  get lawn(): string {
    return this.#options.config.lawn;
  }

  async start(): Promise<void> {
    const { ledger, adapter, now } = this.#options;
    await ledger.load(now());
    // The switch as the user last set it survives a restart: switched off stays off.
    this.#automatic = ledger.automatic ?? this.#automatic;
    // A run left open by a restart counts its mowing from its start: the mower's next report says whether it goes on.
    const open = ledger.current;
    if (open) this.#mowingSinceMs = open.startMs;
    adapter.onActivity((activity) => void this.#enqueue(() => this.#onActivity(activity)));
    await adapter.open();
  }

  /** No command from here on; waits for the work under way, then closes the adapter. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#queue;
    await this.#options.adapter.close();
  }

  /**
   * The wall clock stepped by `deltaMs`: the mowing under way keeps its true length (its start moves
   * with the clock), so a step back never makes a run's minutes negative and a step forward never
   * makes a short run look completed.
   */
  clockStepped(deltaMs: number): void {
    if (this.#mowingSinceMs !== null) this.#mowingSinceMs += deltaMs;
  }

  /** Asks the decision now (the unit's timer, a new station state). */
  tick(): Promise<void> {
    return this.#enqueue(async () => {
      await this.#evaluate(false);
    });
  }

  /** The "Automatic mowing" switch. Turning it on again clears an alert: the user has looked. */
  setAutomatic(on: boolean): Promise<void> {
    return this.#enqueue(async () => {
      if (on && !this.#automatic) this.#alert = undefined;
      this.#automatic = on;
      await this.#options.ledger.saveAutomatic(on, this.#options.now());
      await this.#evaluate(false);
    });
  }

  get automatic(): boolean {
    return this.#automatic;
  }

  /** "Mow now": starts only if every safety rule allows it; the answer says why not. */
  mowNow(): Promise<Decision> {
    return this.#enqueue(async () => {
      this.#alert = undefined;
      const decision = await this.#evaluate(true);
      // The button's answer: a refusal is published even when the same reason was published before.
      if (decision.action === 'none')
        this.#emit({ type: 'decision', action: 'none', code: decision.code, reason: decision.reason, atMs: this.#options.now() });
      return decision;
    });
  }

  /** "Dock now": the user's dock (no start again today with respectUserDock). */
  dockNow(): Promise<Decision> {
    return this.#enqueue(async () => {
      const reason = { en: 'docked from "Dock now"', de: 'Über „Jetzt parken“ geparkt' };
      const decision: Decision = { action: 'dock', code: 'idle', reason };
      if (this.#stopping)
        return {
          action: 'none',
          code: 'shutting_down',
          reason: { en: 'the daemon is stopping: no commands', de: 'Der Dienst hält an: keine Befehle' },
        };
      this.#alert = undefined;
      await this.#carryOut(decision, 'docked_by_user');
      return decision;
    });
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch((err: unknown) => this.#options.log.error({ err, station: this.stationId }, 'mower control failed'));
    return next;
  }

  async #evaluate(requested: boolean): Promise<Decision> {
    const { config, ledger, now, timeZone } = this.#options;
    const nowMs = now();
    await this.#checkPending(nowMs);
    const left = this.budget(nowMs);
    const plan = this.#options.plan?.();
    const decision = decide(
      this.#options.station(),
      ledger.view(nowMs),
      {
        runMinutes: config.runMinutes,
        minGapHours: config.minGapHours,
        staleMinutes: config.staleMinutes,
        rainLeadMinutes: config.rainLeadMinutes,
        userRuns: config.userRuns,
        respectUserDock: config.respectUserDock,
        minCommandGapMinutes: config.minCommandGapMinutes,
        runsPerWeek: config.runsPerWeek > 0 ? config.runsPerWeek : null,
      },
      {
        nowMs,
        today: calendarDay(nowMs, timeZone),
        shuttingDown: this.#stopping,
        automatic: this.#automatic,
        requested,
        clockSteppedAtMs: this.#options.clockSteppedAtMs(),
        commandPending: this.#pending !== undefined,
        commandFailed: this.#alert !== undefined,
        callsLeft: left.now,
        quiet: this.#options.quiet(nowMs),
        mower: this.#activity,
        startedAtMs: this.#options.startedAtMs,
        firstStateSeen: this.#options.firstStateSeen(),
        ...(plan && { plan }),
      },
    );
    const changed = this.#decision?.code !== decision.code || this.#decision.action !== decision.action;
    this.#decision = { ...decision, atMs: nowMs };
    if (changed) this.#emit({ type: 'decision', action: decision.action, code: decision.code, reason: decision.reason, atMs: nowMs });
    if (decision.action !== 'none')
      await this.#carryOut(
        decision,
        decision.code === 'raining' || decision.code === 'rain_expected' ? 'docked_for_rain' : 'docked_by_daemon',
      );
    return decision;
  }

  async #carryOut(decision: Decision, dockOutcome: RunOutcome): Promise<void> {
    const { config, log, ledger, now } = this.#options;
    const nowMs = now();
    const command = decision.action as 'start' | 'dock';
    if (config.dryRun) {
      ledger.recordWould(command, nowMs);
      log.info({ station: this.stationId, lawn: this.lawn, reason: decision.reason.en }, `would ${command} now (${decision.reason.en})`);
      this.#emit({
        type: command === 'start' ? 'would_start' : 'would_dock',
        action: command,
        code: decision.code,
        reason: decision.reason,
        atMs: nowMs,
      });
      return;
    }
    this.#pending = {
      command,
      sentAtMs: nowMs,
      attempt: 1,
      reason: decision.reason,
      outcome: command === 'dock' ? dockOutcome : 'completed',
    };
    await this.#send(this.#pending, nowMs);
  }

  /** One call: counted against the budget before it goes out; a spent budget or a failed send raises the alert. */
  async #send(pending: Pending, nowMs: number): Promise<void> {
    const { ledger, adapter, log } = this.#options;
    const left = this.budget(nowMs).now;
    if (left !== null && left < 1)
      return this.#raise({ code: 'budget_spent', message: `the mower's API budget is spent: ${pending.command} not sent`, atMs: nowMs });
    await ledger.recordCall(pending.command, nowMs);
    log.info(
      { station: this.stationId, lawn: this.lawn, command: pending.command, attempt: pending.attempt, reason: pending.reason.en },
      `mower ${pending.command} sent (${pending.reason.en})`,
    );
    this.#emit({ type: pending.attempt === 1 ? 'command' : 'retry', action: pending.command, reason: pending.reason, atMs: nowMs });
    try {
      await adapter.send(pending.command);
    } catch (err) {
      // Not retried at once: the confirmation's back-off retries it like a lost command.
      log.warn(
        { station: this.stationId, command: pending.command, problem: err instanceof Error ? err.message : String(err) },
        'mower command could not be sent',
      );
    }
  }

  /** Retries an unconfirmed command after its confirmation time (doubled each attempt), or gives up. */
  async #checkPending(nowMs: number): Promise<void> {
    const pending = this.#pending;
    if (!pending) return;
    const waitMs = this.#options.config.confirmSeconds * 1000 * 2 ** (pending.attempt - 1);
    if (nowMs - pending.sentAtMs < waitMs) return;
    if (pending.attempt > this.#options.config.retries || this.#stopping) {
      this.#pending = undefined;
      const message = `the mower did not confirm "${pending.command}" after ${pending.attempt} attempt(s): automatic commands stop until you turn automatic mowing off and on, or press Mow now / Dock now`;
      return this.#raise({ code: 'command_unconfirmed', message, atMs: nowMs });
    }
    pending.attempt++;
    pending.sentAtMs = nowMs;
    await this.#send(pending, nowMs);
  }

  #raise(alert: MowerAlert): void {
    this.#pending = undefined;
    this.#alert = alert;
    this.#options.log.warn({ station: this.stationId, lawn: this.lawn, alert: alert.code }, `mower alert: ${alert.message}`);
    this.#emit({ type: 'alert', code: alert.code, reason: { en: alert.message, de: alert.message }, atMs: alert.atMs });
  }

  async #onActivity(activity: MowerActivity): Promise<void> {
    const { ledger, now } = this.#options;
    const nowMs = now();
    const previous = this.#activity;
    this.#activity = activity;
    if (previous === 'mowing' && activity !== 'mowing' && this.#mowingSinceMs !== null) {
      this.#mowedMs += Math.max(0, nowMs - this.#mowingSinceMs);
      this.#mowingSinceMs = null;
    }
    if (activity === 'mowing' && previous !== 'mowing') this.#mowingSinceMs ??= nowMs;
    const pending = this.#pending;
    if (pending && confirms(pending.command, activity)) {
      this.#pending = undefined;
      this.#emit({ type: 'confirmed', action: pending.command, atMs: nowMs });
      if (pending.command === 'start' && !ledger.current) await this.#openRun('daemon', nowMs);
      if (pending.command === 'dock') await this.#closeRun(nowMs, pending.outcome, pending.reason);
    } else if (activity === 'mowing' && !ledger.current) {
      await this.#openRun('user', nowMs);
    } else if (activity === 'error' && ledger.current) {
      await this.#closeRun(nowMs, 'error', { en: 'the mower reported an error', de: 'Der Mäher meldete einen Fehler' });
    } else if (activity === 'docked' && ledger.current && !pending) {
      const completed = this.#mowedMs >= COMPLETED_SHARE * this.#options.config.runMinutes * MINUTE_MS;
      await this.#closeRun(
        nowMs,
        completed ? 'completed' : 'docked_by_user',
        completed
          ? { en: 'the run is done', de: 'Der Lauf ist fertig' }
          : { en: 'docked before the run was done (by hand)', de: 'Vor dem Ende geparkt (von Hand)' },
      );
    }
    if (!this.#stopping) await this.#evaluate(false);
    this.#options.onActivityTaken?.();
  }

  async #openRun(by: 'daemon' | 'user', nowMs: number): Promise<void> {
    this.#mowedMs = 0;
    this.#mowingSinceMs = nowMs;
    await this.#options.ledger.openRun(by, nowMs);
    this.#emit({ type: 'run_started', atMs: nowMs, code: by });
  }

  async #closeRun(nowMs: number, outcome: RunOutcome, reason: DecisionReason): Promise<void> {
    if (this.#mowingSinceMs !== null) this.#mowedMs += Math.max(0, nowMs - this.#mowingSinceMs);
    this.#mowingSinceMs = null;
    const minutes = Math.round(this.#mowedMs / MINUTE_MS);
    this.#mowedMs = 0;
    const run = await this.#options.ledger.closeRun(nowMs, minutes, outcome, reason);
    if (!run) return;
    this.#emit({ type: 'run_ended', code: outcome, reason, atMs: nowMs });
    if (outcome === 'completed') this.#options.recordCut?.(nowMs);
  }

  #emit(event: MowerEvent): void {
    this.#options.onEvent?.(event);
  }

  budget(nowMs: number): BudgetLeft {
    return budgetLeft(this.#options.config.budget, (windowMs) => this.#options.ledger.callsWithin(windowMs, nowMs));
  }

  /** The ledger's kept runs, oldest first. */
  runs(): readonly RunRecord[] {
    return this.#options.ledger.runs;
  }

  /** What the state's `mower_control` and the route show. */
  status(nowMs: number): MowerControlStatus {
    const { config, adapter, ledger } = this.#options;
    const decision = this.#decision;
    const current = ledger.current;
    return {
      lawn: config.lawn,
      kind: config.kind,
      dry_run: config.dryRun,
      automatic: this.#automatic,
      activity: this.#activity,
      decision: decision
        ? {
            action: decision.action,
            code: decision.code,
            reason: decision.reason.en,
            reason_de: decision.reason.de,
            at: new Date(decision.atMs).toISOString(),
          }
        : null,
      pending: this.#pending
        ? { command: this.#pending.command, attempt: this.#pending.attempt, sent_at: new Date(this.#pending.sentAtMs).toISOString() }
        : null,
      alert: this.#alert ? { code: this.#alert.code, message: this.#alert.message, at: new Date(this.#alert.atMs).toISOString() } : null,
      budget_left: budgetView(this.budget(nowMs)),
      current_run: current ? { started_by: current.startedBy, started_at: new Date(current.startMs).toISOString() } : null,
      connection_problem: adapter.problem() ?? null,
      runs: recentRuns(ledger.runs, nowMs, this.#options.timeZone),
    };
  }
}

export interface MowerControlStatus {
  lawn: string;
  kind: string;
  dry_run: boolean;
  automatic: boolean;
  activity: MowerActivity;
  decision: { action: string; code: string; reason: string; reason_de: string; at: string } | null;
  pending: { command: string; attempt: number; sent_at: string } | null;
  alert: { code: string; message: string; at: string } | null;
  budget_left: { per_day: number | null; per_week: number | null; per_month: number | null };
  current_run: { started_by: string; started_at: string } | null;
  connection_problem: string | null;
  /** Today's runs and the last ones, newest first (the status page shows them). */
  runs: Array<RunView & { today: boolean }>;
}

function budgetView(left: BudgetLeft): MowerControlStatus['budget_left'] {
  return { per_day: left.perDay, per_week: left.perWeek, per_month: left.perMonth };
}
