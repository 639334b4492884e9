/**
 * Clock-step detection. A Raspberry Pi without a real-time clock boots on a
 * saved time and NTP steps the wall clock later, by hours, days or a year,
 * while the monotonic clock keeps counting. Comparing how far each moved
 * between two checks gives the step: its size and direction. Each step is
 * logged once, counted, and handed to every part that keeps time.
 *
 * Slewing (NTP's gradual correction, at most 0.5 ms per second) and a busy
 * event loop (both clocks move together) stay far below the tolerance.
 */
import type { Logger } from 'pino';
import type { Clock, MonotonicClock } from './clock.js';
import type { ClockSyncStatus } from './clockSync.js';
import type { LifecycleComponent } from './lifecycle.js';

/** A divergence of wall and monotonic time beyond this between two checks is a step. */
export const CLOCK_STEP_TOLERANCE_MS = 2_000;
/** How often the clocks are compared. */
export const CLOCK_CHECK_INTERVAL_MS = 1_000;
/** The synchronisation status is read every this many checks. */
const SYNC_EVERY_CHECKS = 5;

export interface ClockStep {
  /** Wall-clock change beyond the monotonic one: positive forward, negative back (ms). */
  deltaMs: number;
  direction: 'forward' | 'back';
  /** The wall clock at the check that saw the step (epoch ms). */
  atMs: number;
}

export type ClockStepListener = (step: ClockStep) => void;

/**
 * The daemon's once-a-second heartbeat: subscribe a listener to the clock check's timer (it gets how
 * many ms later than due the check ran) and get back the unsubscribe. Per-second work (the
 * scheduler's calendar check, the event-loop delay sample, the database change poll) rides this one
 * timer instead of waking an idle daemon once a second each (bench/NOTES.md, "A household day").
 */
export type TickSource = (listener: (lateMs: number) => void) => () => void;

/** What the parts that keep time subscribe to. */
export interface ClockSteps {
  onStep(listener: ClockStepListener): void;
  /** NTP synchronisation as last read. */
  readonly sync: ClockSyncStatus;
  /** The monotonic time of the last step (ms), undefined before the first. */
  readonly lastStepMonotonicMs: number | undefined;
  /** The heartbeat of the clock check (absent in fakes: their users keep their own timers). */
  readonly onTick?: TickSource;
}

export interface ClockWatchStats {
  clockSteps: number;
  /** Size of the last step (ms, signed), 0 before the first. */
  lastClockStepMs: number;
  clockSync: ClockSyncStatus;
}

export class ClockWatch implements LifecycleComponent, ClockSteps {
  readonly name = 'clock-watch';
  readonly #wall: Clock;
  readonly #monotonic: MonotonicClock;
  readonly #logger: Logger | undefined;
  readonly #listeners: ClockStepListener[] = [];
  readonly #tickListeners = new Set<(lateMs: number) => void>();
  #offsetMs: number;
  #steps = 0;
  #last: ClockStep | undefined;
  #timer: NodeJS.Timeout | undefined;

  readonly #readSync: () => ClockSyncStatus;
  #sync: ClockSyncStatus = 'unknown';
  #checks = 0;
  #lastStepMonotonicMs: number | undefined;

  constructor(options: { wall: Clock; monotonic: MonotonicClock; logger?: Logger; readSync?: () => ClockSyncStatus }) {
    this.#wall = options.wall;
    this.#monotonic = options.monotonic;
    this.#logger = options.logger?.child({ module: 'clock' });
    this.#readSync = options.readSync ?? (() => 'unknown');
    this.#offsetMs = this.#offset();
  }

  get sync(): ClockSyncStatus {
    return this.#sync;
  }

  get lastStepMonotonicMs(): number | undefined {
    return this.#lastStepMonotonicMs;
  }

  /** Reads the synchronisation status; says so once when it changes. */
  checkSync(): ClockSyncStatus {
    const sync = this.#readSync();
    if (sync === this.#sync) return sync;
    const was = this.#sync;
    this.#sync = sync;
    const now = new Date(this.#wall.now()).toISOString();
    if (sync === 'unsynchronized') {
      this.#logger?.warn(
        { clockSync: sync, now },
        'the system clock is not NTP-synchronised yet: readings keep their order, the history prune waits (see docs/mqtt.md, clock steps)',
      );
    } else if (was === 'unsynchronized') {
      this.#logger?.info({ clockSync: sync, now }, 'the system clock is NTP-synchronised');
    }
    return sync;
  }

  #offset(): number {
    return this.#wall.now() - this.#monotonic.now();
  }

  onStep(listener: ClockStepListener): void {
    this.#listeners.push(listener);
  }

  readonly onTick: TickSource = (listener) => {
    this.#tickListeners.add(listener);
    return () => void this.#tickListeners.delete(listener);
  };

  /** One timed check: the clocks first, then the heartbeat's listeners, each on its own. */
  #tick(lateMs: number): void {
    this.check();
    for (const listener of this.#tickListeners) {
      try {
        listener(lateMs);
      } catch (err) {
        this.#logger?.error({ err }, 'a once-a-second check failed; it runs again at the next second');
      }
    }
  }

  /** Compares the clocks; on a step logs it, counts it and tells the listeners. Returns the step, if any. */
  check(): ClockStep | undefined {
    if (++this.#checks % SYNC_EVERY_CHECKS === 0) this.checkSync();
    const offset = this.#offset();
    const deltaMs = Math.round(offset - this.#offsetMs);
    // Re-based every check: slewing never adds up to a step.
    this.#offsetMs = offset;
    if (Math.abs(deltaMs) <= CLOCK_STEP_TOLERANCE_MS) return undefined;
    const step: ClockStep = { deltaMs, direction: deltaMs > 0 ? 'forward' : 'back', atMs: this.#wall.now() };
    this.#steps++;
    this.#last = step;
    this.#lastStepMonotonicMs = this.#monotonic.now();
    this.#logger?.warn(
      { deltaMs, direction: step.direction, now: new Date(step.atMs).toISOString() },
      `system clock stepped ${step.direction} by ${describeDuration(Math.abs(deltaMs))}`,
    );
    for (const listener of this.#listeners) {
      try {
        listener(step);
      } catch (err) {
        this.#logger?.error(
          { err },
          'a part of the daemon could not follow the clock step; the others did. Restart the daemon if values look stale',
        );
      }
    }
    return step;
  }

  stats(): ClockWatchStats {
    return { clockSteps: this.#steps, lastClockStepMs: this.#last?.deltaMs ?? 0, clockSync: this.#sync };
  }

  get lastStep(): ClockStep | undefined {
    return this.#last;
  }

  async start(): Promise<void> {
    this.checkSync();
    this.#offsetMs = this.#offset();
    if (this.#timer === undefined) {
      let previousMs = this.#monotonic.now();
      this.#timer = setInterval(() => {
        const nowMs = this.#monotonic.now();
        const lateMs = Math.max(0, nowMs - previousMs - CLOCK_CHECK_INTERVAL_MS);
        previousMs = nowMs;
        this.#tick(lateMs);
      }, CLOCK_CHECK_INTERVAL_MS);
    }
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** "3 s", "25 min", "1.5 h", "2 d" */
export function describeDuration(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms >= size) return `${Math.round((ms / size) * 10) / 10} ${unit}`;
  return `${ms} ms`;
}
