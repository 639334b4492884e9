/**
 * The one guard for code that runs from a timer or an event emitter. Such a
 * callback has no caller to hand an error to: a synchronous throw becomes an
 * uncaught exception and a rejected promise an unhandled rejection, either
 * of which ends the daemon. Every timer callback and event handler of ours
 * goes through here, so a stray error is logged with its context and the
 * daemon keeps running.
 */
import type { Logger } from 'pino';

/** Receives an error that a guarded callback threw or rejected with. */
export type ErrorReport = (err: unknown) => void;

/**
 * Runs `fn` now. The returned promise settles when `fn` (and the promise it
 * returns, if any) is done, and never rejects: errors go to `report`.
 */
export function runGuarded(fn: () => unknown, report: ErrorReport): Promise<void> {
  let result: unknown;
  try {
    result = fn();
  } catch (err) {
    safeReport(report, err);
    return Promise.resolve();
  }
  if (!isThenable(result)) return Promise.resolve();
  return Promise.resolve(result).then(
    () => undefined,
    (err: unknown) => safeReport(report, err),
  );
}

/** `fn` as a callback for setTimeout/setInterval or an emitter's `on()`, guarded by runGuarded. */
export function guarded<A extends unknown[]>(fn: (...args: A) => unknown, report: ErrorReport): (...args: A) => void {
  return (...args: A) => void runGuarded(() => fn(...args), report);
}

/** A report that logs at error level: `<task> failed`, with the error and the context fields. */
export function logFailure(log: Pick<Logger, 'error'>, task: string, context: Record<string, unknown> = {}): ErrorReport {
  return (err) => log.error({ err, task, ...context }, `${task} failed`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function safeReport(report: ErrorReport, err: unknown): void {
  try {
    report(err);
  } catch {
    // The reporter itself failed (e.g. a broken log stream); there is nobody left to tell.
  }
}
