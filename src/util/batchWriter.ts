/**
 * Writes at most once per interval and only when something changed, so an SD
 * card sees one commit per few seconds under load and none when idle.
 */
import type { Logger } from 'pino';
import { guarded, logFailure } from './guarded.js';

export class BatchWriter {
  readonly #write: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #stopped = false;
  #failures = 0;

  constructor(write: () => Promise<void>, intervalMs: number, logger: Logger) {
    this.#write = write;
    this.#intervalMs = intervalMs;
    this.#log = logger;
  }

  /** Something changed: schedule a write unless one is already scheduled. */
  markDirty(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(
      guarded(
        () => {
          this.#timer = undefined;
          return this.flush();
        },
        logFailure(this.#log, 'scheduled history write'),
      ),
      this.#intervalMs,
    );
    this.#timer.unref();
  }

  /** Writes now (serialised with any running write). Failures are logged and retried on the next change. */
  flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#writing = this.#writing.then(async () => {
      try {
        await this.#write();
        this.#failures = 0;
      } catch (err) {
        this.#failures++;
        this.#log.error({ err, failures: this.#failures }, 'batch write failed; keeping the changes for the next attempt');
        if (!this.#stopped) this.markDirty();
      }
    });
    return this.#writing;
  }

  /** Final flush; no more scheduled writes afterwards. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.flush();
  }
}
