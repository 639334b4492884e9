/** Waiting helpers for benchmarks: poll a condition instead of sleeping a fixed time wherever possible. */

export function sleep(durationMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, durationMs));
}

/** Thrown from a probe to stop waiting at once (e.g. the process under test exited). */
export class FatalWaitError extends Error {}

/** Resolves with the first truthy value of `probe`, polling every `intervalMs`; rejects after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<NonNullable<T>> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      if (err instanceof FatalWaitError) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${cause}`);
    }
    await sleep(options.intervalMs ?? 20);
  }
}

/** Monotonic milliseconds. */
export function nowMs(): number {
  return performance.now();
}
