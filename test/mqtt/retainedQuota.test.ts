import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESTORED_OWNER, RetainedQuota } from '../../src/mqtt/retainedQuota.js';

const limits = { maxMessages: 3, maxBytes: 100, maxBytesPerClient: 60 };

describe('RetainedQuota', () => {
  it('refuses the message past the count limit and names the setting', () => {
    const quota = new RetainedQuota(limits);
    expect(quota.admit('a', 'c1', 1)).toBeUndefined();
    expect(quota.admit('b', 'c2', 1)).toBeUndefined();
    expect(quota.admit('c', 'c3', 1)).toBeUndefined();
    expect(quota.admit('d', 'c4', 1)).toContain('broker.maxRetainedMessages = 3');
    expect(quota.messages).toBe(3);
    // Replacing an existing topic does not add a message.
    expect(quota.admit('a', 'c1', 2)).toBeUndefined();
    expect(quota.bytes).toBe(4);
  });

  it('refuses past the total and the per-client byte limits; a refusal changes nothing', () => {
    const quota = new RetainedQuota(limits);
    expect(quota.admit('a', 'c1', 60)).toBeUndefined();
    expect(quota.admit('b', 'c1', 1)).toContain('broker.maxRetainedBytesPerClient = 60');
    expect(quota.admit('b', 'c2', 41)).toContain('broker.maxRetainedBytes = 100');
    expect(quota.admit('b', 'c2', 40)).toBeUndefined();
    expect(quota.bytes).toBe(100);
    expect(quota.bytesOf('c1')).toBe(60);
    expect(quota.bytesOf('c2')).toBe(40);
  });

  it('judges a replacement by its difference, and moves the bytes to the new owner', () => {
    const quota = new RetainedQuota(limits);
    quota.admit('a', 'c1', 60);
    expect(quota.admit('a', 'c1', 59)).toBeUndefined();
    expect(quota.bytesOf('c1')).toBe(59);
    expect(quota.admit('a', 'c2', 30)).toBeUndefined();
    expect(quota.bytesOf('c1')).toBe(0);
    expect(quota.bytesOf('c2')).toBe(30);
    expect(quota.bytes).toBe(30);
  });

  it('always allows a delete (empty payload), which frees the space', () => {
    const quota = new RetainedQuota(limits);
    quota.admit('a', 'c1', 60);
    quota.admit('b', 'c2', 39);
    expect(quota.admit('c', 'c3', 1)).toBeUndefined();
    expect(quota.admit('d', 'c3', 1)).toBeDefined();
    expect(quota.admit('a', 'someone-else', 0)).toBeUndefined();
    expect(quota.admit('never-stored', 'c9', 0)).toBeUndefined();
    expect(quota.bytesOf('c1')).toBe(0);
    expect(quota.admit('d', 'c3', 50)).toBeUndefined();
    expect(quota.messages).toBe(3);
  });

  it('bounds restored messages (owner unknown) by the count and total limits only', () => {
    const quota = new RetainedQuota(limits);
    expect(quota.admit('a', RESTORED_OWNER, 60)).toBeUndefined();
    expect(quota.admit('b', RESTORED_OWNER, 40)).toBeUndefined();
    expect(quota.admit('c', RESTORED_OWNER, 1)).toContain('broker.maxRetainedBytes = 100');
  });

  it('never exceeds any limit and keeps its totals consistent, whatever the sequence', () => {
    const op = fc.record({
      topic: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      owner: fc.constantFrom('x', 'y', 'z'),
      bytes: fc.integer({ min: 0, max: 70 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const quota = new RetainedQuota(limits);
        const held = new Map<string, { owner: string; bytes: number }>();
        for (const { topic, owner, bytes } of ops) {
          if (quota.admit(topic, owner, bytes) !== undefined) continue;
          if (bytes === 0) held.delete(topic);
          else held.set(topic, { owner, bytes });
        }
        const total = [...held.values()].reduce((sum, entry) => sum + entry.bytes, 0);
        expect(quota.messages).toBe(held.size);
        expect(quota.bytes).toBe(total);
        expect(held.size).toBeLessThanOrEqual(limits.maxMessages);
        expect(total).toBeLessThanOrEqual(limits.maxBytes);
        for (const owner of ['x', 'y', 'z']) {
          const own = [...held.values()].filter((entry) => entry.owner === owner).reduce((sum, entry) => sum + entry.bytes, 0);
          expect(quota.bytesOf(owner)).toBe(own);
          expect(own).toBeLessThanOrEqual(limits.maxBytesPerClient);
        }
      }),
    );
  });

  it('undoes an admitted message that was never stored, restoring what the topic held before', () => {
    const quota = new RetainedQuota(limits);
    quota.admit('t', 'c1', 10);
    const previous = quota.entry('t');
    quota.admit('t', 'c2', 30);
    quota.undo('t', quota.entry('t'), previous);
    expect([quota.messages, quota.bytes, quota.bytesOf('c1'), quota.bytesOf('c2')]).toEqual([1, 10, 10, 0]);
    quota.admit('u', 'c1', 5);
    quota.undo('u', quota.entry('u'), undefined);
    expect([quota.messages, quota.bytes]).toEqual([1, 10]);
  });

  it('leaves a topic replaced since the admit alone, and settle counts a stored message whatever happened before', () => {
    const quota = new RetainedQuota(limits);
    quota.admit('t', 'c1', 10);
    const admitted = quota.entry('t');
    quota.admit('t', 'c2', 20);
    quota.undo('t', admitted, undefined);
    expect([quota.messages, quota.bytes, quota.bytesOf('c2')]).toEqual([1, 20, 20]);
    quota.settle('t', 'c2', 20);
    expect(quota.bytes).toBe(20);
    quota.release('t');
    quota.settle('t', 'c1', 7);
    expect([quota.messages, quota.bytes, quota.bytesOf('c1')]).toEqual([1, 7, 7]);
  });
});
