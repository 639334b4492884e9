import { describe, expect, it } from 'vitest';
import { createScheduler, validateCronExpression } from '../../src/util/scheduler.js';
import { silentLogger, waitUntil } from '../helpers/mqttHarness.js';

describe('scheduler (node-cron wrapper)', () => {
  it('refuses an invalid expression with the job name, runs jobs after start, survives failing jobs, stops cleanly', async () => {
    const scheduler = createScheduler(silentLogger);
    expect(() => scheduler.add('prune', 'every night', () => undefined)).toThrow('job "prune": "every night" is not a valid cron expression');
    let runs = 0;
    let failures = 0;
    scheduler.add('tick', '* * * * * *', () => {
      runs++;
    });
    scheduler.add('broken', '* * * * * *', () => {
      failures++;
      throw new Error('job bug');
    });
    scheduler.start();
    try {
      await waitUntil(() => runs >= 2 && failures >= 2, 'two runs of each job', 5000);
    } finally {
      await scheduler.stop();
    }
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(runs).toBe(after);
  });

  it('validates cron expressions for the configuration', () => {
    expect(() => validateCronExpression('17 3 * * *')).not.toThrow();
    expect(() => validateCronExpression('daily')).toThrow(/must be a cron expression/);
    expect(() => validateCronExpression(5)).toThrow(/must be a cron expression/);
  });
});
