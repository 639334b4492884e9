/**
 * The timer of one modelled station: a first fetch at once, then one every interval (±10 %
 * jitter, so many daemons do not hit the provider on the same second). After a failed round it
 * tries again sooner, backing off (30 s, 1 min, 2 min, ... up to the interval), so a provider that
 * was down at the first start is caught as soon as it answers. Nothing here throws.
 */
import { jittered, RepeatingTask } from '../util/repeatingTask.js';

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
  readonly #task = new RepeatingTask(async (signal) => this.nextDelayMs(await this.#round(signal)));
  #failures = 0;

  constructor(options: ModelledLoopOptions) {
    this.#options = options;
  }

  start(): void {
    this.#task.start(0);
  }

  async stop(): Promise<void> {
    await this.#task.stop();
  }

  /** The wait before the next round after `result`. */
  nextDelayMs(result: RoundResult): number {
    const { intervalMs, backoffMs, random } = this.#options;
    if (result === 'not_running') return NOT_RUNNING_RETRY_MS;
    if (result === 'ok') return jittered(intervalMs, random);
    return jittered(Math.min(intervalMs, backoffMs * 2 ** (this.#failures - 1)), random);
  }

  async #round(signal: AbortSignal): Promise<RoundResult> {
    let result: RoundResult;
    try {
      result = await this.#options.round(signal);
    } catch {
      result = 'failed';
    }
    if (result === 'failed') this.#failures++;
    else if (result === 'ok') this.#failures = 0;
    return result;
  }
}
