import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedDebounce } from '../../src/station/debounce.js';

describe('KeyedDebounce', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a key's task once per burst, at the end of the first request's delay; keys are independent", async () => {
    const runs: string[] = [];
    const debounce = new KeyedDebounce(500, () => () => undefined);
    debounce.schedule('a', () => runs.push('a1'));
    await vi.advanceTimersByTimeAsync(300);
    debounce.schedule('a', () => runs.push('a2'));
    debounce.schedule('b', () => runs.push('b1'));
    await vi.advanceTimersByTimeAsync(199);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual(['a1']);
    await vi.advanceTimersByTimeAsync(300);
    expect(runs).toEqual(['a1', 'b1']);
    debounce.schedule('a', () => runs.push('a3'));
    expect(debounce.pending).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toEqual(['a1', 'b1', 'a3']);
  });

  it('runs at once with a delay of 0', () => {
    const runs: number[] = [];
    const debounce = new KeyedDebounce(0, () => () => undefined);
    debounce.schedule('a', () => runs.push(1));
    debounce.schedule('a', () => runs.push(2));
    expect(runs).toEqual([1, 2]);
    expect(debounce.pending).toBe(0);
  });

  it('reports a throwing task with its key and keeps working', async () => {
    const reports: Array<[string, string]> = [];
    const debounce = new KeyedDebounce(100, (key) => (err) => reports.push([key, (err as Error).message]));
    debounce.schedule('garden', () => {
      throw new Error('bug');
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(reports).toEqual([['garden', 'bug']]);
    let ran = false;
    debounce.schedule('garden', () => {
      ran = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toBe(true);
  });

  it('cancelAll drops pending tasks without running them', async () => {
    let ran = false;
    const debounce = new KeyedDebounce(100, () => () => undefined);
    debounce.schedule('a', () => {
      ran = true;
    });
    debounce.cancelAll();
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toBe(false);
    expect(debounce.pending).toBe(0);
  });
});
