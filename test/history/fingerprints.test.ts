import { describe, expect, it } from 'vitest';
import { DuplicateFilter, MAX_EXACT_ENTRIES } from '../../src/history/fingerprints.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const WINDOW_MS = 10_000;

describe('DuplicateFilter', () => {
  it('refuses every redelivery of 14 days at one packet per 2.5 s while holding at most MAX_EXACT_ENTRIES', () => {
    const filter = new DuplicateFilter(WINDOW_MS);
    const count = (14 * 24 * 3600) / 2.5;
    let accepted = 0;
    for (let i = 0; i < count; i++) if (!filter.seen(`p${i}`, T0 + i * 2500)) accepted++;
    expect(accepted).toBe(count);
    expect(filter.size).toBe(MAX_EXACT_ENTRIES);
    let duplicates = 0;
    for (let i = 0; i < count; i++) if (filter.seen(`p${i}`, T0 + i * 2500)) duplicates++;
    expect(duplicates).toBe(count);
    expect(filter.seen('next', T0 + count * 2500)).toBe(false);
  });

  it('is exact within its memory: late new content is let in, radio repeats within the window are not', () => {
    const filter = new DuplicateFilter(WINDOW_MS);
    expect(filter.seen('a', T0 + 60_000)).toBe(false);
    expect(filter.seen('b', T0)).toBe(false); // late but new
    expect(filter.seen('b', T0 + 10_000)).toBe(true); // repeat within 10 s
    expect(filter.seen('b', T0 + 11_000)).toBe(false);
    expect(filter.seen('a', T0 + 50_000)).toBe(true);
    expect(filter.seen('c', T0 + 60_000)).toBe(false); // same time, other content
  });

  it('after evicting the oldest entries, refuses anything at or before them', () => {
    const filter = new DuplicateFilter(WINDOW_MS, null, 50);
    for (let i = 0; i < 200; i++) filter.seen(`p${i}`, T0 + i * 60_000);
    expect(filter.size).toBe(50);
    expect(filter.seen('never-seen', T0 + 149 * 60_000)).toBe(true);
    expect(filter.seen('never-seen', T0 + 149 * 60_000 + 1)).toBe(false);
  });

  it('restores from its state: the high-water mark and the radio-repeat memory around it', () => {
    const first = new DuplicateFilter(WINDOW_MS);
    for (let i = 0; i < 100; i++) first.seen(`p${i % 3}`, T0 + i * 4000);
    const state = first.takeState();
    expect(first.dirty).toBe(false);
    // Only the entries within 10 s of the newest are kept: i = 97, 98, 99.
    expect(state?.highWaterMs).toBe(T0 + 99 * 4000);
    expect(state?.recent.map(([atMs]) => atMs)).toEqual([T0 + 97 * 4000, T0 + 98 * 4000, T0 + 99 * 4000]);
    const restored = new DuplicateFilter(WINDOW_MS, JSON.parse(JSON.stringify(state)));
    expect(restored.seen('p0', T0 + 5000)).toBe(true); // behind the high-water mark
    expect(restored.seen('p0', T0 + 99 * 4000 + 3000)).toBe(true); // p0 was the newest (i = 99): a radio repeat
    expect(restored.dirty).toBe(false);
    expect(restored.seen('p1', T0 + 99 * 4000 + 3000)).toBe(false); // p1 was last seen at i = 97, 11 s before
    expect(restored.takeState()?.highWaterMs).toBe(T0 + 99 * 4000 + 3000);
  });

  it('prunes entries older than the horizon', () => {
    const filter = new DuplicateFilter(WINDOW_MS);
    for (let i = 0; i < 10; i++) filter.seen(`p${i}`, T0 + i * 60_000);
    filter.prune(T0 + 5 * 60_000);
    expect(filter.size).toBe(5);
    filter.prune(T0 + 60 * 60_000);
    expect(filter.size).toBe(0);
    expect(filter.seen('p9', T0 + 9 * 60_000)).toBe(false); // the caller refuses readings behind the history first
  });
});
