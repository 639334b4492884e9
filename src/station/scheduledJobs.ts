/**
 * The station side's scheduled jobs: a recompute of every station each
 * interval (states age: freshness, hysteresis delays) and the database's space
 * reclaim on the monotonic clock, and the history prune at its calendar time
 * (src/util/scheduler.ts: no replay of missed runs, re-armed after a clock
 * step). They run with or without MQTT.
 */
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import type { ClockSteps } from '../util/clockWatch.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import { createScheduler, type Scheduler } from '../util/scheduler.js';
import { RECLAIM_INTERVAL_MS } from '../store/spaceReclaimer.js';

export interface ScheduledJobsOptions {
  logger: Logger;
  clock: Clock;
  timeZone: string;
  /** `history.pruneSchedule` (cron). */
  pruneSchedule: string;
  /** `station.recomputeIntervalSeconds` in ms. */
  recomputeIntervalMs: number;
  pipeline: { recomputeAll(): void; history: { prune(nowMs: number): unknown } };
  reclaimer: { reclaim(): unknown };
  /** Runs after each interval's recompute (./side.ts hands it to its listeners: the MQTT side's stats). */
  afterRecompute?: () => void;
  /** Clock steps re-arm the calendar jobs. */
  clockSteps?: ClockSteps;
}

export class ScheduledJobs implements LifecycleComponent {
  readonly name = 'scheduled-jobs';
  readonly #options: ScheduledJobsOptions;
  #scheduler: Scheduler | undefined;

  constructor(options: ScheduledJobsOptions) {
    this.#options = options;
    options.clockSteps?.onStep(() => this.#scheduler?.clockStepped());
  }

  async start(): Promise<void> {
    const { pipeline, clock, reclaimer } = this.#options;
    const ticks = this.#options.clockSteps?.onTick;
    const scheduler = createScheduler(this.#options.logger, { timeZone: this.#options.timeZone, clock, ...(ticks ? { ticks } : {}) });
    // The job names appear in the scheduler's log lines.
    scheduler.every('station-recompute', this.#options.recomputeIntervalMs, () => {
      pipeline.recomputeAll();
      this.#options.afterRecompute?.();
    });
    scheduler.add('history-prune', this.#options.pruneSchedule, () => pipeline.history.prune(clock.now()));
    scheduler.every('database-reclaim', RECLAIM_INTERVAL_MS, () => reclaimer.reclaim());
    scheduler.start();
    this.#scheduler = scheduler;
  }

  async stop(): Promise<void> {
    await this.#scheduler?.stop();
    this.#scheduler = undefined;
  }
}
