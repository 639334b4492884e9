/**
 * The scheduler across wall-clock steps: periodic jobs on the monotonic timers, calendar jobs
 * checked against the current minute only (no walk over missed minutes, no replay), re-armed
 * after a step either way. Timers are faked (the monotonic side); the wall clock is injected.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cronMatcher, CALENDAR_TICK_MS, createScheduler } from '../../src/util/scheduler.js';
import { silentLogger } from '../helpers/mqttHarness.js';

const YEAR = 365 * 86_400_000;

describe('scheduler across clock steps', () => {
  const wall = {
    ms: Date.parse('2026-06-01T03:16:30Z'),
    now() {
      return this.ms;
    },
  };
  beforeEach(() => {
    wall.ms = Date.parse('2026-06-01T03:16:30Z');
    // Only the timers: the step's cost is measured in real CPU time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  });
  afterEach(() => vi.useRealTimers());

  it('runs a calendar job once in its minute, never replays a missed one, and runs again after a step back', async () => {
    const scheduler = createScheduler(silentLogger, { timeZone: 'UTC', clock: wall });
    const runs: string[] = [];
    scheduler.add('prune', '17 3 * * *', () => runs.push(new Date(wall.ms).toISOString()));
    scheduler.start();
    const tick = async (advanceWallMs: number) => {
      wall.ms += advanceWallMs;
      await vi.advanceTimersByTimeAsync(CALENDAR_TICK_MS);
    };
    await tick(0);
    expect(runs).toEqual([]);
    await tick(30_000); // 03:17:00
    await tick(20_000); // still 03:17
    expect(runs).toEqual(['2026-06-01T03:17:00.000Z']);
    // NTP steps back a day: the 03:17 of the day before comes round again and runs.
    wall.ms -= 86_400_000 + 60_000; // 03:16:20 the day before
    scheduler.clockStepped();
    for (let i = 0; i < 50; i++) await tick(1000);
    expect(runs).toHaveLength(2);
    // A forward step over 03:17 does not replay it.
    wall.ms = Date.parse('2026-06-02T03:16:50Z');
    await tick(0);
    wall.ms = Date.parse('2026-06-02T03:25:00Z');
    scheduler.clockStepped();
    await tick(0);
    expect(runs).toHaveLength(2);
    await scheduler.stop();
  });

  it('a one-year forward step costs one check, not a walk over the missed minutes', async () => {
    const scheduler = createScheduler(silentLogger, { timeZone: 'Europe/Berlin', clock: wall });
    let runs = 0;
    scheduler.add('every-minute', '* * * * *', () => runs++);
    scheduler.start();
    wall.ms += 40_000;
    await vi.advanceTimersByTimeAsync(CALENDAR_TICK_MS);
    expect(runs).toBe(1);
    wall.ms += YEAR;
    // CPU time, not wall time: on a loaded machine the wall clock also counts other processes' turns.
    // A walk over the year's 525,600 missed minutes costs seconds; one check costs microseconds.
    const started = process.cpuUsage();
    scheduler.clockStepped();
    await vi.advanceTimersByTimeAsync(CALENDAR_TICK_MS);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(200);
    expect(runs).toBe(2);
    await scheduler.stop();
  });

  it('periodic jobs keep their interval whatever the wall clock does', async () => {
    const scheduler = createScheduler(silentLogger, { clock: wall });
    let runs = 0;
    scheduler.every('recompute', 60_000, () => runs++);
    scheduler.start();
    wall.ms -= 86_400_000;
    await vi.advanceTimersByTimeAsync(60_000);
    wall.ms += 2 * YEAR;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(3);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(3);
  });
});

describe('cronMatcher', () => {
  it('matches minute, hour, month and the classic day-of-month OR weekday rule in the time zone', () => {
    const prune = cronMatcher('17 3 * * *', 'Europe/Berlin');
    expect(prune.perSecond).toBe(false);
    expect(prune.matches(Date.parse('2026-06-01T01:17:40Z'))).toBe(true); // 03:17 CEST
    expect(prune.matches(Date.parse('2026-06-01T03:17:00Z'))).toBe(false);
    // The 1st of the month OR a Monday; 2026-06-02 is a Tuesday, 2026-06-08 a Monday.
    const either = cronMatcher('0 12 1 * 1', 'UTC');
    expect(either.matches(Date.parse('2026-06-01T12:00:00Z'))).toBe(true);
    expect(either.matches(Date.parse('2026-06-02T12:00:00Z'))).toBe(false);
    expect(either.matches(Date.parse('2026-06-08T12:00:00Z'))).toBe(true);
    const mondays = cronMatcher('0 12 * * 1', 'UTC');
    expect(mondays.matches(Date.parse('2026-06-01T12:00:00Z'))).toBe(true);
    expect(mondays.matches(Date.parse('2026-06-02T12:00:00Z'))).toBe(false);
    const seconds = cronMatcher('*/10 * * * * *', 'UTC');
    expect(seconds.perSecond).toBe(true);
    expect(seconds.matches(Date.parse('2026-06-01T12:00:10Z'))).toBe(true);
    expect(seconds.matches(Date.parse('2026-06-01T12:00:11Z'))).toBe(false);
    expect(cronMatcher('0 0 1 7 *', 'UTC').matches(Date.parse('2026-06-01T00:00:00Z'))).toBe(false);
  });
});
