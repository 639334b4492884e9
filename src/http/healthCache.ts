/**
 * /health's checks that do I/O (the database query, the configuration check, the shared servers),
 * kept for a short time and run at most once at a time. A monitor asking every few seconds sees a
 * fresh result as before; a burst (many monitors, or one connection pipelining thousands of
 * requests) shares one run of the checks instead of one database query per request. Each check is
 * bounded in time: a dependency that stops answering shows as a failed check after the bound
 * instead of holding every health request, and a check still running is never started a second
 * time (a stalled database would otherwise collect one hung query per refresh).
 *
 * The refresh runs when a request finds the result older than the interval, not on an idle timer:
 * an idle daemon does no health work. A state change the daemon already knows in memory (the
 * maintenance flag) makes the next request refresh at once (`isOutdated`).
 */

/** A check function of the health route that never rejects. */
export type Check<T> = () => Promise<T>;

/**
 * Runs `run` with a time bound: after `timeoutMs` without an answer, `late(waitedMs)` is the result.
 * While a run is still pending, later calls wait for that same run (again at most `timeoutMs`)
 * rather than starting another.
 */
export function boundedCheck<T>(run: Check<T>, timeoutMs: number, late: (waitedMs: number) => T, now: () => number): Check<T> {
  let pending: { promise: Promise<T>; startedMs: number } | undefined;
  return async () => {
    if (pending === undefined) {
      const started = { promise: run(), startedMs: now() };
      pending = started;
      const clear = () => {
        if (pending === started) pending = undefined;
      };
      started.promise.then(clear, clear);
    }
    const { promise, startedMs } = pending;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(late(now() - startedMs)), timeoutMs);
    });
    try {
      return await Promise.race([promise, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

export interface HealthCacheOptions<T> {
  /** Runs every check once (bounded: it resolves within the checks' time bound). */
  refresh: Check<T>;
  /** How long a result is answered from the cache (http.healthCacheMs); 0: every request refreshes (runs still shared). */
  maxAgeMs: number;
  /** Monotonic milliseconds (a wall-clock step must not keep a result forever). */
  now: () => number;
  /** True when the daemon knows the result no longer holds (e.g. maintenance switched since). */
  isOutdated?: (result: T) => boolean;
}

/** The last result of the checks and the run in flight. */
export class HealthCache<T> {
  readonly #options: HealthCacheOptions<T>;
  #result: { value: T; takenMs: number } | undefined;
  #running: Promise<T> | undefined;
  #refreshes = 0;

  constructor(options: HealthCacheOptions<T>) {
    this.#options = options;
  }

  /** A result at most maxAgeMs old: the cached one, or the one of the run in flight (started if none). */
  current(): Promise<T> {
    if (this.#running) return this.#running;
    const cached = this.#result;
    const { now, maxAgeMs, isOutdated } = this.#options;
    if (cached && now() - cached.takenMs < maxAgeMs && !isOutdated?.(cached.value)) return Promise.resolve(cached.value);
    return this.#refresh();
  }

  /** How many times the checks ran (for tests and the documentation's claim of one run per interval). */
  get refreshes(): number {
    return this.#refreshes;
  }

  #refresh(): Promise<T> {
    const takenMs = this.#options.now();
    this.#refreshes++;
    const running = this.#options.refresh().then((value) => {
      this.#result = { value, takenMs };
      return value;
    });
    this.#running = running;
    const clear = () => {
      if (this.#running === running) this.#running = undefined;
    };
    running.then(clear, clear);
    return running;
  }
}
