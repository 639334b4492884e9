/**
 * The station side's cron jobs: a recompute of every station each minute
 * (states age: freshness, hysteresis delays), the history prune and the
 * database's space reclaim. They run with or without MQTT.
 */
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import { createScheduler, type Scheduler } from '../util/scheduler.js';
import { RECLAIM_SCHEDULE } from '../store/spaceReclaimer.js';

export interface ScheduledJobsOptions {
  logger: Logger;
  clock: Clock;
  timeZone: string;
  /** `history.pruneSchedule` (cron). */
  pruneSchedule: string;
  pipeline: { recomputeAll(): void; history: { prune(nowMs: number): unknown } };
  reclaimer: { reclaim(): unknown };
  /** Runs after each minute's recompute (the MQTT side publishes its stats). */
  afterRecompute?: () => void;
}

export class ScheduledJobs implements LifecycleComponent {
  readonly name = 'scheduled-jobs';
  readonly #options: ScheduledJobsOptions;
  #scheduler: Scheduler | undefined;

  constructor(options: ScheduledJobsOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    const { pipeline, clock, reclaimer } = this.#options;
    const scheduler = createScheduler(this.#options.logger, { timeZone: this.#options.timeZone });
    // The job names appear in the scheduler's log lines; kept from when the MQTT bridge owned them.
    scheduler.add('mqtt-recompute', '* * * * *', () => {
      pipeline.recomputeAll();
      this.#options.afterRecompute?.();
    });
    scheduler.add('history-prune', this.#options.pruneSchedule, () => pipeline.history.prune(clock.now()));
    scheduler.add('database-reclaim', RECLAIM_SCHEDULE, () => reclaimer.reclaim());
    scheduler.start();
    this.#scheduler = scheduler;
  }

  async stop(): Promise<void> {
    await this.#scheduler?.stop();
    this.#scheduler = undefined;
  }
}
