import { describe, expect, it } from 'vitest';
import { WindowCounter } from '../../src/http/windowCounter.js';

describe('WindowCounter', () => {
  it('counts per key within a window and starts over when it ends', () => {
    const counter = new WindowCounter(60_000);
    expect(counter.hit('a', 0)).toEqual({ count: 1, retryAfterSeconds: 60 });
    expect(counter.hit('a', 59_000)).toEqual({ count: 2, retryAfterSeconds: 1 });
    expect(counter.hit('b', 59_000)).toEqual({ count: 1, retryAfterSeconds: 60 });
    expect(counter.hit('a', 60_000)).toEqual({ count: 1, retryAfterSeconds: 60 });
  });

  it('stays bounded under a flood of addresses: ended windows go first, then the oldest live ones', () => {
    const counter = new WindowCounter(60_000);
    // 10 000 addresses, the first half an hour old, the second half live.
    for (let i = 0; i < 5_000; i++) counter.hit(`old${i}`, 0);
    for (let i = 0; i < 5_000; i++) counter.hit(`live${i}`, 3_600_000);
    expect(counter.size).toBe(10_000);
    counter.hit('new0', 3_600_001);
    expect(counter.size).toBe(5_001);
    expect(counter.hit('live0', 3_600_002).count).toBe(2);
    for (let i = 1; i < 5_000; i++) counter.hit(`new${i}`, 3_600_003);
    expect(counter.size).toBe(10_000);
    // Full of live windows: the one that started first (live0; counting in it does not make it younger) makes room.
    counter.hit('newest', 3_600_004);
    expect(counter.size).toBe(10_000);
    expect(counter.hit('live2', 3_600_005).count).toBe(2);
    expect(counter.hit('live0', 3_600_005).count).toBe(1);
  });
});
