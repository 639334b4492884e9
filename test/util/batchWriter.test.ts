/**
 * The batch writer behind the history and retained-message commits: a failed write is logged,
 * keeps its changes and is retried on the next interval, so a locked or full disk for a moment
 * loses nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchWriter } from '../../src/util/batchWriter.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

/** A store that takes the pending changes only when its write succeeds. */
class FlakyStore {
  pending: string[] = [];
  stored: string[] = [];
  failuresLeft = 0;
  attempts = 0;

  async write(): Promise<void> {
    this.attempts++;
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('SQLITE_BUSY: database is locked');
    }
    this.stored.push(...this.pending.splice(0));
  }
}

describe('BatchWriter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes once per interval after a change, and not at all when nothing changed', async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const writer = new BatchWriter(() => store.write(), 1000, captureLogger('info').logger);
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.attempts).toBe(0);
    store.pending.push('a');
    writer.markDirty();
    store.pending.push('b');
    writer.markDirty();
    await vi.advanceTimersByTimeAsync(999);
    expect(store.attempts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.attempts).toBe(1);
    expect(store.stored).toEqual(['a', 'b']);
  });

  it('logs a failed write, retries it on the next interval without a new change, and loses nothing', async () => {
    vi.useFakeTimers();
    const capture = captureLogger('info');
    const store = new FlakyStore();
    store.failuresLeft = 2;
    const writer = new BatchWriter(() => store.write(), 1000, capture.logger);
    store.pending.push('reading 1');
    writer.markDirty();
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.attempts).toBe(1);
    expect(store.stored).toEqual([]);
    expect(capture.lines()).toEqual([
      expect.objectContaining({ level: 50, failures: 1, msg: 'batch write failed; keeping the changes for the next attempt' }),
    ]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(store.attempts).toBe(2);
    expect(capture.lines().at(-1)).toMatchObject({
      failures: 2,
      err: expect.objectContaining({ message: 'SQLITE_BUSY: database is locked' }),
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.attempts).toBe(3);
    expect(store.stored).toEqual(['reading 1']);
    // Back to normal: no more writes until the next change.
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.attempts).toBe(3);
  });

  it('stop() makes a final write and schedules no retry after it, even when that write fails', async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const writer = new BatchWriter(() => store.write(), 1000, captureLogger('info').logger);
    store.pending.push('last');
    writer.markDirty();
    await writer.stop();
    expect(store.stored).toEqual(['last']);

    store.failuresLeft = 1;
    store.pending.push('after stop');
    writer.markDirty();
    await writer.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(store.attempts).toBe(2);
  });

  it('serialises flushes: a second flush waits for the running write', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const writer = new BatchWriter(
      async () => {
        const call = ++calls;
        order.push(`start ${call}`);
        if (call === 1) await gate;
        order.push(`end ${call}`);
      },
      1000,
      captureLogger('info').logger,
    );
    const first = writer.flush();
    const second = writer.flush();
    setImmediate(release);
    await Promise.all([first, second]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
