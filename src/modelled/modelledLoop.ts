/**
 * The timer of one modelled station: a first fetch at once, then one every interval (±10 %
 * jitter, so many daemons do not hit the provider on the same second). After a failed round it
 * tries again sooner, backing off (30 s, 1 min, 2 min, ... up to the interval), so a provider that
 * was down at the first start is caught as soon as it answers. Nothing here throws.
 */
const JITTER = 0.1;
/** The pipeline was not running yet (it starts the units first): try again after this. */
const NOT_RUNNING_RETRY_MS = 1000;

/** What a round achieved. */
export type RoundResult = 'ok' | 'failed' | 'not_running';

export interface ModelledLoopOptions {
  intervalMs: number;
  /** First wait after a failed round; doubles per failed round, at most `intervalMs`. */
  backoffMs: number;
  random: () => number;
  round: (signal: AbortSignal) => Promise<RoundResult>;
}

export class ModelledLoop {
  readonly #options: ModelledLoopOptions;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #failures = 0;

  constructor(options: ModelledLoopOptions) {
    this.#options = options;
  }

  start(): void {
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** The wait before the next round after `result`. */
  nextDelayMs(result: RoundResult): number {
    const { intervalMs, backoffMs, random } = this.#options;
    if (result === 'not_running') return NOT_RUNNING_RETRY_MS;
    const jitter = 1 - JITTER + 2 * JITTER * random();
    if (result === 'ok') return intervalMs * jitter;
    return Math.min(intervalMs, backoffMs * 2 ** (this.#failures - 1)) * jitter;
  }

  #schedule(delayMs: number): void {
    if (this.#abort.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#round().then((result) => {
        this.#running = undefined;
        this.#schedule(this.nextDelayMs(result));
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #round(): Promise<RoundResult> {
    let result: RoundResult;
    try {
      result = await this.#options.round(this.#abort.signal);
    } catch {
      result = 'failed';
    }
    if (result === 'failed') this.#failures++;
    else if (result === 'ok') this.#failures = 0;
    return result;
  }
}
