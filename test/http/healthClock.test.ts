/** /health's checks.clock: informational (an unsynchronised or stepped clock never makes it 503). */
import { afterEach, describe, expect, it } from 'vitest';
import { clockCheck } from '../../src/http/healthRoute.js';
import type { ClockWatchStats } from '../../src/util/clockWatch.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

describe('GET /health checks.clock', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => h?.close());

  it('shows an unsynchronised clock and the last step, and stays 200', async () => {
    const stats: ClockWatchStats = { clockSteps: 0, lastClockStepMs: 0, clockSync: 'unsynchronized' };
    h = await startHttpHarness({ overrides: { clockStatus: () => stats } });
    const first = await h.app.inject({ method: 'GET', url: '/health' });
    expect(first.statusCode).toBe(200);
    expect(first.json().mfi.checks.clock).toEqual({
      status: 'unsynchronized',
      steps: 0,
      message: 'the system clock is not NTP-synchronised yet',
    });
    Object.assign(stats, { clockSteps: 1, lastClockStepMs: -86_400_000, clockSync: 'synchronized' });
    const second = await h.app.inject({ method: 'GET', url: '/v1/health' });
    expect(second.statusCode).toBe(200);
    expect(second.json().mfi.checks.clock).toEqual({
      status: 'synchronized',
      steps: 1,
      last_step_ms: -86_400_000,
      message: 'the wall clock stepped back by 1 d',
    });
  });

  it('is absent when not wired, and says nothing with a quiet clock', async () => {
    h = await startHttpHarness();
    expect((await h.app.inject({ method: 'GET', url: '/health' })).json().mfi.checks.clock).toBeUndefined();
    expect(clockCheck({ clockSteps: 0, lastClockStepMs: 0, clockSync: 'unknown' })).toEqual({ status: 'unknown', steps: 0 });
  });
});
