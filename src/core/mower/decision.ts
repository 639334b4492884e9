/**
 * When the daemon starts or docks a robot mower: a pure function of what the station's state says,
 * the quiet hours, the run ledger, the mower's reported activity, the settings and `nowMs`. The
 * controller (src/mower/) only carries the answer out and confirms it; every safety rule lives here
 * so property tests can hold it to them (test/core/mower/decision.test.ts).
 *
 * Two kinds of dock trigger: the hard ones (rain now or within the lead, quiet hours, a stale or
 * unknown station) dock at once; the soft one (`mowable` turned off by the index) waits until the
 * start is `minCommandGapMinutes` old, so an index that wobbles around its threshold never sends a
 * start and a dock within that gap. A start also waits that long after any command. With a plan
 * (./planRule.ts) an automatic start also needs a planned slot and the plan's week not yet mowed.
 */
import { planRefusal, type PlanFollowing } from './planRule.js';

export type { PlanFollowing } from './planRule.js';

/** What the mower reports (Home Assistant's `lawn_mower` activities, `unknown` when it said nothing usable). */
export type MowerActivity = 'mowing' | 'docked' | 'paused' | 'returning' | 'error' | 'unknown';

/** Who started the run the mower is on. */
export type RunStarter = 'daemon' | 'user' | 'schedule';

/** What the daemon does with runs it did not start (`mower.control.userRuns`). */
export type UserRunPolicy = 'respect' | 'dockOnRain' | 'takeOver';
export const USER_RUN_POLICIES: readonly UserRunPolicy[] = ['respect', 'dockOnRain', 'takeOver'];

export type MowerAction = 'start' | 'dock' | 'none';

/** One sentence per language: the sensor "Mower activity", the event and the log. */
export interface DecisionReason {
  readonly en: string;
  readonly de: string;
}

/** A stable word for each rule, for tests, events and automations. */
export type DecisionCode =
  | 'shutting_down'
  | 'automatic_off'
  | 'command_pending'
  | 'mower_error'
  | 'mower_unknown'
  | 'station_unknown'
  | 'station_stale'
  | 'clock_untrusted'
  | 'not_mowable'
  | 'raining'
  | 'rain_expected'
  | 'quiet_hours'
  | 'window_short'
  | 'gap'
  | 'user_docked_today'
  | 'budget_spent'
  | 'plan_done'
  | 'runs_spent'
  | 'command_gap'
  | 'mower_busy'
  | 'user_run'
  | 'command_failed'
  | 'start'
  | 'mowing'
  | 'idle'
  | 'awaiting_first_state'
  | 'outside_plan';

export interface Decision {
  readonly action: MowerAction;
  readonly code: DecisionCode;
  readonly reason: DecisionReason;
}

/** What the station's last state says (undefined members: not known). */
export interface StationView {
  /** A state has been computed and carries an index (not an error state). */
  readonly known: boolean;
  readonly mowable: boolean;
  /** The index's band is BLOCK (a user run is docked for it under `dockOnRain`). */
  readonly blocked: boolean;
  /** It rains now (precipitation rate above 0). */
  readonly raining: boolean;
  /** How long mowing stays possible from now (forecast); null: no forecast (unknown). */
  readonly mowableForMinutes: number | null;
  /** Minutes to the first hour with rain expected; null: none within the horizon, or no forecast. */
  readonly rainExpectedInMinutes: number | null;
  readonly lastReadingAtMs: number | null;
}

/** The run ledger's view for the decision. */
export interface LedgerView {
  /** The run the mower is on now, when the ledger holds an open one. */
  readonly current: { readonly by: RunStarter; readonly startMs: number } | null;
  /** End of the last completed run. */
  readonly lastCompletedEndMs: number | null;
  /** The local day ("YYYY-MM-DD") the user last docked a run by hand. */
  readonly userDockedDay: string | null;
  /** Median minutes of the recent completed runs; null: too few to learn from. */
  readonly learnedRunMinutes: number | null;
  /** Completed or started runs this week, against the week's run budget. */
  readonly runsThisWeek: number;
  /** Minutes the ended runs of this local week (from Monday 00:00) mowed, against the plan's need. */
  readonly mowedMinutesThisWeek: number;
  /** The last command sent (or the dry run's "would"), with its time. */
  readonly lastCommand: { readonly action: 'start' | 'dock'; readonly atMs: number } | null;
}

export interface DecisionSettings {
  readonly runMinutes: number;
  readonly minGapHours: number;
  readonly staleMinutes: number;
  readonly rainLeadMinutes: number;
  readonly userRuns: UserRunPolicy;
  /** No start again on a day the user docked a run by hand. */
  readonly respectUserDock: boolean;
  /** Minimum minutes between two commands of the index alone (the no-flapping rule). */
  readonly minCommandGapMinutes: number;
  /** Runs the week allows; null: no limit (with a plan, the plan's budget holds instead). */
  readonly runsPerWeek: number | null;
}

/** Everything else the decision needs, from the controller. */
export interface DecisionContext {
  readonly nowMs: number;
  /** The local day of `nowMs` ("YYYY-MM-DD"). */
  readonly today: string;
  readonly shuttingDown: boolean;
  /** The "Automatic mowing" switch; a "Mow now" press asks with `requested` instead. */
  readonly automatic: boolean;
  /** The user pressed "Mow now": start if every safety rule allows, the switch aside. */
  readonly requested?: boolean;
  /** The wall clock stepped without explanation at this instant (src/util/clockWatch.ts); null: never. */
  readonly clockSteppedAtMs: number | null;
  /** A command is sent and not yet confirmed: nothing new until it is. */
  readonly commandPending: boolean;
  /** A command went unconfirmed through every retry: no automatic command until the user acts (the alert). */
  readonly commandFailed?: boolean;
  /** Calls the mower's API budget still allows (day, week and month: the smallest); null: no limit. */
  readonly callsLeft: number | null;
  /** Quiet hours now (night ban, noise hours, Sunday, holiday), with the reason; undefined: none. */
  readonly quiet: DecisionReason | undefined;
  readonly mower: MowerActivity;
  /** When the daemon started (the mower control was built). */
  readonly startedAtMs: number;
  /** The station's first state since the start has arrived. */
  readonly firstStateSeen: boolean;
  /** The week's plan of the mower's lawn; undefined: no plan (the planner is off or failed), the driver acts as without one. */
  readonly plan?: PlanFollowing;
}

/** After an unexplained clock step the daemon's times are not trusted for this long. */
export const CLOCK_SETTLE_MINUTES = 10;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * In the first minutes after a start, before the pipeline has computed the station's first state,
 * nothing is sent: a run that was going on keeps going (docking for "unknown" would cut every run
 * short at each restart). The wait lasts at most `staleMinutes`; after it the state counts as unknown.
 */
export function awaitingFirstState(settings: DecisionSettings, context: DecisionContext): boolean {
  return !context.firstStateSeen && context.nowMs - context.startedAtMs < settings.staleMinutes * MINUTE_MS;
}

const reason = (code: DecisionCode, action: MowerAction, en: string, de: string): Decision => ({ action, code, reason: { en, de } });

/** The run length the window ahead must hold: the learned one when the ledger has it, else the configured one. */
export function runLengthMinutes(settings: DecisionSettings, ledger: LedgerView): number {
  return ledger.learnedRunMinutes ?? settings.runMinutes;
}

function stale(station: StationView, settings: DecisionSettings, nowMs: number): boolean {
  return station.lastReadingAtMs === null || nowMs - station.lastReadingAtMs > settings.staleMinutes * MINUTE_MS;
}

function rainSoon(station: StationView, settings: DecisionSettings): boolean {
  return station.rainExpectedInMinutes !== null && station.rainExpectedInMinutes <= settings.rainLeadMinutes;
}

/** The dry window ahead: the forecast's `mowable_for`, never past the first rain it expects. */
export function dryWindowMinutes(station: StationView): number | null {
  if (station.mowableForMinutes === null) return null;
  return station.rainExpectedInMinutes === null
    ? station.mowableForMinutes
    : Math.min(station.mowableForMinutes, station.rainExpectedInMinutes);
}

/** A hard dock trigger now (rain, quiet hours, stale or unknown station), or undefined. */
function hardDockTrigger(station: StationView, settings: DecisionSettings, context: DecisionContext): Decision | undefined {
  if (!station.known)
    return reason('station_unknown', 'dock', "docking: the station's state is unknown", 'Parken: der Zustand der Station ist unbekannt');
  if (stale(station, settings, context.nowMs))
    return reason(
      'station_stale',
      'dock',
      `docking: no reading for more than ${settings.staleMinutes} min`,
      `Parken: seit mehr als ${settings.staleMinutes} Min. keine Messung`,
    );
  if (station.raining) return reason('raining', 'dock', 'docking: it is raining', 'Parken: es regnet');
  if (rainSoon(station, settings))
    return reason(
      'rain_expected',
      'dock',
      `docking: rain expected in ${station.rainExpectedInMinutes} min`,
      `Parken: Regen in ${station.rainExpectedInMinutes} Min. erwartet`,
    );
  if (context.quiet) return reason('quiet_hours', 'dock', `docking: ${context.quiet.en}`, `Parken: ${context.quiet.de}`);
  return undefined;
}

/** While the mower mows: dock, or let it go on. */
function whileMowing(station: StationView, ledger: LedgerView, settings: DecisionSettings, context: DecisionContext): Decision {
  const by = ledger.current?.by ?? 'user';
  const hard = hardDockTrigger(station, settings, context);
  if (by !== 'daemon' && settings.userRuns !== 'takeOver') {
    // A run the user (or the mower's schedule) started: docked only for rain or BLOCK, and only when asked to.
    if (settings.userRuns === 'respect')
      return reason('user_run', 'none', 'a run started by hand: left alone', 'Von Hand gestartet: wird nicht unterbrochen');
    const rain = hard && (hard.code === 'raining' || hard.code === 'rain_expected');
    if (rain) return hard;
    if (station.known && station.blocked)
      return reason('not_mowable', 'dock', 'docking: the index says BLOCK', 'Parken: der Index steht auf BLOCK');
    return reason(
      'user_run',
      'none',
      'a run started by hand: docked only for rain or BLOCK',
      'Von Hand gestartet: geparkt wird nur bei Regen oder BLOCK',
    );
  }
  if (hard) return hard;
  if (!station.mowable) {
    const startMs = ledger.current?.startMs ?? ledger.lastCommand?.atMs ?? 0;
    if (context.nowMs - startMs >= settings.minCommandGapMinutes * MINUTE_MS)
      return reason('not_mowable', 'dock', 'docking: not mowable any more', 'Parken: nicht mehr mähbar');
    return reason(
      'command_gap',
      'none',
      `not mowable, docking once the run is ${settings.minCommandGapMinutes} min old (no flapping)`,
      `Nicht mähbar; geparkt wird, wenn der Lauf ${settings.minCommandGapMinutes} Min. alt ist`,
    );
  }
  return reason('mowing', 'none', 'mowing', 'Mäht');
}

/** The first rule that refuses a start now, or undefined when every rule allows it. */
function startRefusal(
  station: StationView,
  ledger: LedgerView,
  settings: DecisionSettings,
  context: DecisionContext,
): Decision | undefined {
  const { nowMs } = context;
  const none = (code: DecisionCode, en: string, de: string) => reason(code, 'none', en, de);
  if (!context.automatic && !context.requested) return none('automatic_off', 'automatic mowing is off', 'Automatisches Mähen ist aus');
  if (context.mower === 'error') return none('mower_error', 'the mower reports an error', 'Der Mäher meldet einen Fehler');
  if (context.mower === 'unknown') return none('mower_unknown', "the mower's state is unknown", 'Der Zustand des Mähers ist unbekannt');
  if (context.mower !== 'docked')
    return none('mower_busy', `the mower is ${context.mower}, not docked`, `Der Mäher ist nicht in der Station (${context.mower})`);
  if (!station.known) return none('station_unknown', "the station's state is unknown", 'Der Zustand der Station ist unbekannt');
  if (stale(station, settings, nowMs))
    return none(
      'station_stale',
      `no reading for more than ${settings.staleMinutes} min`,
      `Seit mehr als ${settings.staleMinutes} Min. keine Messung`,
    );
  if (context.clockSteppedAtMs !== null && nowMs - context.clockSteppedAtMs < CLOCK_SETTLE_MINUTES * MINUTE_MS) {
    return none(
      'clock_untrusted',
      `the clock stepped less than ${CLOCK_SETTLE_MINUTES} min ago`,
      `Die Uhr ist vor weniger als ${CLOCK_SETTLE_MINUTES} Min. gesprungen`,
    );
  }
  if (context.quiet) return none('quiet_hours', context.quiet.en, context.quiet.de);
  if (station.raining) return none('raining', 'it is raining', 'Es regnet');
  if (rainSoon(station, settings))
    return none(
      'rain_expected',
      `rain expected in ${station.rainExpectedInMinutes} min`,
      `Regen in ${station.rainExpectedInMinutes} Min. erwartet`,
    );
  if (!station.mowable) return none('not_mowable', 'not mowable', 'Nicht mähbar');
  const run = runLengthMinutes(settings, ledger);
  const dry = dryWindowMinutes(station);
  if (dry === null || dry < run) {
    const window = dry === null ? 'no forecast of the dry window' : `mowable for ${dry} min only`;
    const windowDe = dry === null ? 'keine Vorhersage des trockenen Fensters' : `nur ${dry} Min. mähbar`;
    return none('window_short', `${window}, a run takes ${run} min`, `${windowDe}, ein Lauf dauert ${run} Min.`);
  }
  if (ledger.lastCompletedEndMs !== null && nowMs - ledger.lastCompletedEndMs < settings.minGapHours * HOUR_MS) {
    return none(
      'gap',
      `the last run ended less than ${settings.minGapHours} h ago`,
      `Der letzte Lauf endete vor weniger als ${settings.minGapHours} Std.`,
    );
  }
  if (settings.respectUserDock && ledger.userDockedDay === context.today)
    return none('user_docked_today', 'docked by hand today: no start again today', 'Heute von Hand geparkt: heute kein neuer Start');
  if (!context.plan && settings.runsPerWeek !== null && ledger.runsThisWeek >= settings.runsPerWeek)
    return none(
      'runs_spent',
      `this week's ${settings.runsPerWeek} runs are done`,
      `Die ${settings.runsPerWeek} Läufe dieser Woche sind erledigt`,
    );
  if (context.callsLeft !== null && context.callsLeft < 1)
    return none('budget_spent', "the mower's API budget is spent", 'Das API-Budget des Mähers ist aufgebraucht');
  if (ledger.lastCommand && nowMs - ledger.lastCommand.atMs < settings.minCommandGapMinutes * MINUTE_MS) {
    return none(
      'command_gap',
      `the last command was less than ${settings.minCommandGapMinutes} min ago`,
      `Der letzte Befehl ist weniger als ${settings.minCommandGapMinutes} Min. her`,
    );
  }
  // Last, after every safety rule allowed the start: the plan only ever refuses. "Mow now" ignores it.
  const planned = context.plan && !context.requested ? planRefusal(context.plan, ledger.mowedMinutesThisWeek, nowMs) : undefined;
  if (planned) return none(planned.code, planned.en, planned.de);
  return undefined;
}

/** Start, dock or nothing, with the reason. */
export function decide(station: StationView, ledger: LedgerView, settings: DecisionSettings, context: DecisionContext): Decision {
  if (context.shuttingDown)
    return reason('shutting_down', 'none', 'the daemon is stopping: no commands', 'Der Dienst hält an: keine Befehle');
  if (awaitingFirstState(settings, context))
    return reason(
      'awaiting_first_state',
      'none',
      "waiting for the station's first state since the start",
      'Warte auf den ersten Zustand der Station seit dem Start',
    );
  if (context.commandFailed && !context.requested)
    return reason(
      'command_failed',
      'none',
      'the mower did not confirm the last command: automatic commands stop until you act',
      'Der Mäher hat den letzten Befehl nicht bestätigt: keine automatischen Befehle, bis Sie eingreifen',
    );
  if (context.commandPending)
    return reason(
      'command_pending',
      'none',
      'waiting for the mower to confirm the last command',
      'Warte auf die Bestätigung des letzten Befehls',
    );
  if (context.mower === 'mowing') return whileMowing(station, ledger, settings, context);
  // Paused on the lawn in a run of the daemon's: rain or quiet hours still send it home.
  if (context.mower === 'paused' && ledger.current?.by === 'daemon') {
    const hard = hardDockTrigger(station, settings, context);
    if (hard) return hard;
  }
  const refusal = startRefusal(station, ledger, settings, context);
  if (refusal) return refusal;
  const dry = dryWindowMinutes(station);
  const run = runLengthMinutes(settings, ledger);
  return reason(
    'start',
    'start',
    `starting: mowable for ${dry} min, a run takes ${run} min`,
    `Start: ${dry} Min. mähbar, ein Lauf dauert ${run} Min.`,
  );
}
