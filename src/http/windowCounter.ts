/**
 * Fixed-window counts per client address (registration attempts per hour).
 * Bounded: when more than MAX_ADDRESSES are tracked, windows that have ended
 * are dropped first, then the oldest, so a flood of addresses cannot grow memory.
 */
const MAX_ADDRESSES = 10_000;

export class WindowCounter {
  readonly #windowMs: number;
  readonly #windows = new Map<string, { startMs: number; count: number }>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** Counts one hit; returns the count in the current window and the seconds until it ends. */
  hit(key: string, nowMs: number): { count: number; retryAfterSeconds: number } {
    let window = this.#windows.get(key);
    if (!window || nowMs - window.startMs >= this.#windowMs) {
      if (!window && this.#windows.size >= MAX_ADDRESSES) this.#evict(nowMs);
      window = { startMs: nowMs, count: 0 };
      this.#windows.delete(key);
      this.#windows.set(key, window);
    }
    window.count++;
    return { count: window.count, retryAfterSeconds: Math.max(1, Math.ceil((window.startMs + this.#windowMs - nowMs) / 1000)) };
  }

  get size(): number {
    return this.#windows.size;
  }

  #evict(nowMs: number): void {
    // A window is (re-)inserted when it starts, so the Map runs from the oldest start to the newest: ended
    // windows are all at the front, and the scan stops at the first live one (not a walk over every address).
    for (const [key, window] of this.#windows) {
      if (nowMs - window.startMs < this.#windowMs) break;
      this.#windows.delete(key);
    }
    // Still full: drop the oldest windows (Map keeps insertion order, and a new window is re-inserted).
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MAX_ADDRESSES) break;
      this.#windows.delete(key);
    }
  }
}
