import { describe, expect, it } from 'vitest';
import { planPrune, pruneReferenceMs, RETENTION_MS } from '../../src/history/prunePolicy.js';

const NOW = Date.parse('2026-06-01T03:17:00Z');
const DAY = 86_400_000;

describe('planPrune (the history prune against the data, not the wall clock)', () => {
  it('measures the retention from the newest reading, never from later than now', () => {
    expect(pruneReferenceMs(NOW, [])).toBe(NOW);
    expect(pruneReferenceMs(NOW, [null, NOW - 3 * DAY, NOW - 5 * DAY])).toBe(NOW - 3 * DAY);
    // Readings stamped in the future (the clock stepped back since) do not move it past now.
    expect(pruneReferenceMs(NOW, [NOW + 365 * DAY])).toBe(NOW);
  });

  it('prunes normally with a synchronised or unknown clock', () => {
    const facts = { nowMs: NOW, newestMs: [NOW - 60_000], restoredNewestMs: NOW - DAY, uptimeMs: DAY, sync: 'synchronized' as const };
    expect(planPrune(facts)).toEqual({ prune: true, referenceMs: NOW - 60_000 });
    expect(planPrune({ ...facts, sync: 'unknown' })).toEqual({ prune: true, referenceMs: NOW - 60_000 });
  });

  it('waits while the clock is not synchronised', () => {
    expect(planPrune({ nowMs: NOW, newestMs: [NOW], restoredNewestMs: NOW - DAY, uptimeMs: DAY, sync: 'unsynchronized' })).toEqual({
      prune: false,
      reason: 'the system clock is not NTP-synchronised yet',
    });
  });

  it('a clock a year ahead with new readings stamped on it does not delete what was stored before the start', () => {
    const ahead = NOW + 365 * DAY;
    const plan = planPrune({ nowMs: ahead, newestMs: [ahead - 60_000], restoredNewestMs: NOW, uptimeMs: 2 * DAY, sync: 'unknown' });
    expect(plan.prune).toBe(false);
    // After the retention of uptime (or a restart with recent data) it prunes again.
    expect(planPrune({ nowMs: ahead, newestMs: [ahead], restoredNewestMs: NOW, uptimeMs: RETENTION_MS, sync: 'unknown' })).toEqual({
      prune: true,
      referenceMs: ahead,
    });
    expect(planPrune({ nowMs: ahead, newestMs: [ahead], restoredNewestMs: null, uptimeMs: 0, sync: 'unknown' }).prune).toBe(true);
  });
});
