import { describe, expect, it, vi } from 'vitest';
import { CLOCK_STEP_TOLERANCE_MS, ClockWatch, describeDuration } from '../../src/util/clockWatch.js';
import type { ClockSyncStatus } from '../../src/util/clockSync.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

/** A wall clock and a monotonic clock the test moves separately (a Pi: NTP steps only the wall). */
function clocks() {
  const state = { wall: Date.parse('2026-06-01T12:00:00Z'), mono: 1000 };
  return {
    state,
    wall: { now: () => state.wall },
    monotonic: { now: () => state.mono },
    elapse(ms: number) {
      state.wall += ms;
      state.mono += ms;
    },
  };
}

describe('ClockWatch', () => {
  it('sees no step while both clocks move together or the wall slews within the tolerance', () => {
    const c = clocks();
    const watch = new ClockWatch({ wall: c.wall, monotonic: c.monotonic });
    for (let i = 0; i < 100; i++) {
      c.elapse(1000);
      c.state.wall += 0.5; // NTP slewing at its maximum, 500 ppm
      expect(watch.check()).toBeUndefined();
    }
    c.state.wall += CLOCK_STEP_TOLERANCE_MS;
    expect(watch.check()).toBeUndefined();
    expect(watch.stats()).toEqual({ clockSteps: 0, lastClockStepMs: 0, clockSync: 'unknown' });
  });

  it('logs each step once with its size and direction, counts it and tells every listener', () => {
    const c = clocks();
    const capture = captureLogger('info');
    const watch = new ClockWatch({ wall: c.wall, monotonic: c.monotonic, logger: capture.logger });
    const seen: number[] = [];
    watch.onStep(() => {
      throw new Error('listener bug');
    });
    watch.onStep((step) => seen.push(step.deltaMs));
    c.elapse(1000);
    c.state.wall -= 86_400_000;
    expect(watch.check()).toMatchObject({ deltaMs: -86_400_000, direction: 'back' });
    c.elapse(1000);
    expect(watch.check()).toBeUndefined();
    c.state.wall += 365 * 86_400_000;
    expect(watch.check()).toMatchObject({ direction: 'forward', deltaMs: 365 * 86_400_000 });
    expect(seen).toEqual([-86_400_000, 365 * 86_400_000]);
    expect(watch.stats()).toMatchObject({ clockSteps: 2, lastClockStepMs: 365 * 86_400_000 });
    expect(watch.lastStep?.direction).toBe('forward');
    expect(watch.lastStepMonotonicMs).toBe(c.state.mono);
    const steps = capture.lines().filter((line) => String(line.msg).startsWith('system clock stepped'));
    expect(steps.map((line) => line.msg)).toEqual(['system clock stepped back by 1 d', 'system clock stepped forward by 365 d']);
    expect(steps[0]).toMatchObject({ module: 'clock', deltaMs: -86_400_000, direction: 'back' });
    expect(
      capture.lines().filter((line) => String(line.msg).startsWith('a part of the daemon could not follow the clock step')),
    ).toHaveLength(2);
  });

  it('reads the synchronisation status on start and every few checks, and says so once per change', async () => {
    const c = clocks();
    const capture = captureLogger('info');
    let sync: ClockSyncStatus = 'unsynchronized';
    const watch = new ClockWatch({ wall: c.wall, monotonic: c.monotonic, logger: capture.logger, readSync: () => sync });
    vi.useFakeTimers();
    try {
      await watch.start();
      expect(watch.sync).toBe('unsynchronized');
      await vi.advanceTimersByTimeAsync(20_000);
      sync = 'synchronized';
      await vi.advanceTimersByTimeAsync(10_000);
      expect(watch.sync).toBe('synchronized');
      await watch.stop();
    } finally {
      vi.useRealTimers();
    }
    const messages = capture.lines().map((line) => String(line.msg));
    expect(messages.filter((msg) => msg.startsWith('the system clock is not NTP-synchronised'))).toHaveLength(1);
    expect(messages.filter((msg) => msg === 'the system clock is NTP-synchronised')).toHaveLength(1);
  });

  it('describes durations', () => {
    expect(describeDuration(500)).toBe('500 ms');
    expect(describeDuration(3_000)).toBe('3 s');
    expect(describeDuration(90 * 60_000)).toBe('1.5 h');
    expect(describeDuration(25 * 60_000)).toBe('25 min');
  });
});
