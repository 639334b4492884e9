import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScheduler, validateCronExpression } from '../../src/util/scheduler.js';
import { silentLogger } from '../helpers/mqttHarness.js';

describe('scheduler (node-cron wrapper)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses an invalid expression with the job name, runs jobs after start, survives failing jobs, stops cleanly', async () => {
    const scheduler = createScheduler(silentLogger);
    expect(() => scheduler.add('prune', 'every night', () => undefined)).toThrow(
      'job "prune": "every night" is not a valid cron expression',
    );
    let runs = 0;
    let failures = 0;
    scheduler.add('tick', '* * * * * *', () => {
      runs++;
    });
    scheduler.add('broken', '* * * * * *', () => {
      failures++;
      throw new Error('job bug');
    });
    // Fake timers (and Date): cron's seconds pass at once, and "no run after stop" needs no real wait.
    vi.useFakeTimers();
    scheduler.start();
    try {
      await vi.advanceTimersByTimeAsync(2_500);
      expect(runs).toBeGreaterThanOrEqual(2);
      expect(failures).toBeGreaterThanOrEqual(2);
    } finally {
      await scheduler.stop();
    }
    const after = runs;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(after);
  });

  it('validates cron expressions for the configuration', () => {
    expect(() => validateCronExpression('17 3 * * *')).not.toThrow();
    expect(() => validateCronExpression('daily')).toThrow(/must be a cron expression/);
    expect(() => validateCronExpression(5)).toThrow(/must be a cron expression/);
  });
});
