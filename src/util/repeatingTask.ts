/**
 * A task on its own timer: each run says how long to wait before the next one. The timer does not
 * keep the process alive (unref), stop() cancels the next run and waits for a running one, and the
 * run's signal is aborted by stop() (a fetch in flight ends). The forecast's fetch loop and a
 * modelled station's or gap filling's rounds run on it (src/forecast/fetchLoop.ts, src/modelled/modelledLoop.ts).
 */
/** ±10 %: many daemons started together do not hit a provider on the same second. */
const JITTER = 0.1;

/** `ms` with ±10 % jitter (`random` in [0, 1)). */
export function jittered(ms: number, random: () => number): number {
  return ms * (1 - JITTER + 2 * JITTER * random());
}

export class RepeatingTask {
  readonly #run: (signal: AbortSignal) => Promise<number>;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  /** `run` returns the wait before the next run in ms; it must not throw (a thrown run ends the task). */
  constructor(run: (signal: AbortSignal) => Promise<number>) {
    this.#run = run;
  }

  /** Aborted once stop() was called. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The first run after `delayMs`. */
  start(delayMs: number): void {
    this.#schedule(delayMs);
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#abort.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#run(this.#abort.signal).then((nextMs) => {
        this.#running = undefined;
        this.#schedule(nextMs);
      });
    }, delayMs);
    this.#timer.unref();
  }
}
