/**
 * A small wrapper around node-cron: named jobs, no overlapping runs, errors
 * logged instead of thrown, and every task destroyed on stop (node-cron keeps
 * a module-wide registry).
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { logFailure, runGuarded } from './guarded.js';

/** Throws a readable message unless `value` is a cron expression (5 fields, or 6 with seconds). */
export function validateCronExpression(value: unknown): void {
  if (typeof value !== 'string' || !cron.validate(value)) throw new Error('must be a cron expression such as "17 3 * * *" (minute hour day month weekday)');
}

export interface Scheduler {
  /** Registers a job; throws on an invalid cron expression. Jobs run only after start(). */
  add(name: string, expression: string, job: () => unknown): void;
  start(): void;
  stop(): Promise<void>;
}

export function createScheduler(logger: Logger, options: { timeZone?: string } = {}): Scheduler {
  const log = logger.child({ module: 'scheduler' });
  const jobs: Array<{ name: string; expression: string; job: () => unknown }> = [];
  const tasks: ScheduledTask[] = [];
  const cronLogger = {
    info: (message: string) => log.debug(message),
    warn: (message: string) => log.debug(message),
    error: (message: string | Error, err?: Error) => log.warn({ err: err ?? message }, 'cron error'),
    debug: () => undefined,
  };

  return {
    add(name, expression, job) {
      if (!cron.validate(expression)) throw new Error(`job "${name}": "${expression}" is not a valid cron expression`);
      jobs.push({ name, expression, job });
    },
    start() {
      if (tasks.length > 0) return;
      for (const { name, expression, job } of jobs) {
        let running = false;
        const report = logFailure(log, 'scheduled job', { job: name });
        const run = async (): Promise<void> => {
          if (running) return;
          running = true;
          await runGuarded(job, report);
          running = false;
        };
        tasks.push(
          cron.schedule(expression, run, {
            name,
            noOverlap: true,
            logger: cronLogger,
            suppressMissedWarning: true,
            ...(options.timeZone ? { timezone: options.timeZone } : {}),
          }),
        );
      }
    },
    async stop() {
      const stopping = tasks.splice(0);
      for (const task of stopping) await task.destroy();
    },
  };
}
