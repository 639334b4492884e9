/** The one polling wait of the test suite: tests wait on conditions, never on fixed sleeps. */

/** Polls `check` every `stepMs` until it returns true; throws naming `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** Rejects with a message naming what was awaited when `promise` takes longer than `timeoutMs`. */
export async function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The timeout of a test whose own work takes seconds on a quiet machine (a CPU-bound property, built
 * processes started and stopped): a loaded 2-core machine runs it five to ten times slower, past
 * vitest's default (vitest.config.ts), while its own waits still name what was late.
 */
export const SLOW_TEST_TIMEOUT_MS = 60_000;
