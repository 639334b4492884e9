/**
 * The daemon's scheduler. Periodic work (the minute recompute, stats) runs on
 * Node's timers, which follow the monotonic clock: a step of the wall clock
 * neither stalls nor bunches it. Calendar work (the nightly prune) is a cron
 * expression checked once per tick against the wall clock's current minute:
 * a missed run is never replayed, a step in either direction only changes
 * which minute is checked next (no walk over the minutes in between, which
 * is what node-cron's own timer does after a forward step: seconds of CPU and
 * hundreds of MB for a year). No job overlaps itself; errors are logged.
 */
import cron from 'node-cron';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { TickSource } from './clockWatch.js';
import { guarded, logFailure, runGuarded } from './guarded.js';
import { localDateTime } from '../core/index.js';

/*
 * Does a wall-clock instant match a cron expression? node-cron parses the
 * expression (its syntax and validation stay the configuration's); the
 * scheduler asks this once per tick for the current minute (or second), so a
 * clock step never makes it walk the missed minutes.
 */
export interface CronMatcher {
  /** The expression has a seconds field other than "0": it is matched per second, not per minute. */
  readonly perSecond: boolean;
  matches(epochMs: number): boolean;
}

const numbers = (values: ReadonlyArray<number | string>): Set<number> =>
  new Set(values.filter((value): value is number => typeof value === 'number'));

export function cronMatcher(expression: string, timeZone: string): CronMatcher {
  const fields = cron.parse(expression);
  const seconds = new Set(fields.second);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const days = numbers(fields.dayOfMonth);
  const months = new Set(fields.month);
  const weekdays = new Set([...numbers(fields.dayOfWeek)].map((day) => day % 7));
  // Classic cron: when both the day of month and the weekday are restricted, either one matches.
  const dayRestricted = days.size < 31;
  const weekdayRestricted = weekdays.size < 7;
  const perSecond = !(seconds.size === 1 && seconds.has(0));
  return {
    perSecond,
    matches(epochMs) {
      const local = localDateTime(epochMs, timeZone);
      if (perSecond && !seconds.has(local.second)) return false;
      if (!minutes.has(local.minute) || !hours.has(local.hour) || !months.has(local.month)) return false;
      const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
      const dayMatch = days.has(local.day);
      const weekdayMatch = weekdays.has(weekday);
      return dayRestricted && weekdayRestricted ? dayMatch || weekdayMatch : dayMatch && weekdayMatch;
    },
  };
}

/** How often calendar jobs are checked against the wall clock. */
export const CALENDAR_TICK_MS = 1_000;

/** Throws a readable message unless `value` is a cron expression (5 fields, or 6 with seconds). */
export function validateCronExpression(value: unknown): void {
  if (typeof value !== 'string' || !cron.validate(value))
    throw new Error('must be a cron expression such as "17 3 * * *" (minute hour day month weekday)');
}

export interface Scheduler {
  /** A calendar job (cron expression on the wall clock); throws on an invalid expression. Jobs run only after start(). */
  add(name: string, expression: string, job: () => unknown): void;
  /** A periodic job every `intervalMs` on the monotonic clock. */
  every(name: string, intervalMs: number, job: () => unknown): void;
  start(): void;
  stop(): Promise<void>;
  /** The wall clock stepped: calendar jobs are checked against the new time on the next tick. */
  clockStepped(): void;
}

interface Job {
  name: string;
  run: () => Promise<void>;
}

interface CalendarJob extends Job {
  matcher: CronMatcher;
  /** The minute (or second) last checked; a different one is checked once. */
  lastSlot: number | undefined;
}

/**
 * `ticks`: the daemon's once-a-second heartbeat (the clock check's timer); calendar jobs are checked
 * on it instead of on an own timer, so an idle daemon wakes once a second, not twice.
 */
export function createScheduler(logger: Logger, options: { timeZone?: string; clock?: Clock; ticks?: TickSource } = {}): Scheduler {
  const log = logger.child({ module: 'scheduler' });
  const clock = options.clock ?? systemClock;
  const timeZone = options.timeZone ?? 'UTC';
  const calendar: CalendarJob[] = [];
  const periodic: Array<Job & { intervalMs: number }> = [];
  const timers: NodeJS.Timeout[] = [];
  let untick: (() => void) | undefined;
  let started = false;

  const guardedRun = (name: string, job: () => unknown): (() => Promise<void>) => {
    let running = false;
    const report = logFailure(log, 'scheduled job', { job: name });
    return async () => {
      if (running) return;
      running = true;
      await runGuarded(job, report);
      running = false;
    };
  };

  // Guarded like every job: a throwing clock inside the timer is logged, never an uncaught exception.
  const tick = guarded(
    (): void => {
      const nowMs = clock.now();
      for (const job of calendar) {
        const slot = Math.floor(nowMs / (job.matcher.perSecond ? 1000 : 60_000));
        if (slot === job.lastSlot) continue;
        job.lastSlot = slot;
        if (job.matcher.matches(nowMs)) void job.run();
      }
    },
    logFailure(log, 'scheduler tick'),
  );

  return {
    add(name, expression, job) {
      if (!cron.validate(expression)) throw new Error(`job "${name}": "${expression}" is not a valid cron expression`);
      calendar.push({ name, run: guardedRun(name, job), matcher: cronMatcher(expression, timeZone), lastSlot: undefined });
    },
    every(name, intervalMs, job) {
      periodic.push({ name, run: guardedRun(name, job), intervalMs });
    },
    start() {
      if (started) return;
      started = true;
      // The current minute counts as checked: a start at 03:17:40 does not run the 03:17 job.
      for (const job of calendar) job.lastSlot = Math.floor(clock.now() / (job.matcher.perSecond ? 1000 : 60_000));
      if (calendar.length > 0 && options.ticks) untick = options.ticks(tick);
      else if (calendar.length > 0) timers.push(setInterval(tick, CALENDAR_TICK_MS));
      for (const job of periodic) timers.push(setInterval(() => void job.run(), job.intervalMs));
    },
    async stop() {
      started = false;
      for (const timer of timers.splice(0)) clearInterval(timer);
      untick?.();
      untick = undefined;
    },
    clockStepped() {
      // The slot numbers jumped with the clock; the next tick checks the new current minute once.
      tick();
    },
  };
}
