/** The per-key daily quota on the calculation path (keys.dailyQuota, `keys quota`). */
import type { ApiKeyCredential } from '../store/serviceStore.js';
import type { Admission } from '../store/keyUsage.js';
import { HttpError, MESSAGES } from './errors.js';

/**
 * Counts requests per key and day; refuses once the quota is used up. In memory (keys.quotaMode
 * shared) the answer is immediate; exact mode asks the database and answers with a promise.
 */
export interface UsageGate {
  admit(credential: ApiKeyCredential, nowMs: number): Admission | Promise<Admission>;
}

function refusal(admission: Admission | undefined): HttpError | undefined {
  if (!admission || admission.ok) return undefined;
  return new HttpError(429, MESSAGES.quotaExceeded(admission.quota), { 'retry-after': String(admission.retryAfterSeconds) });
}

/**
 * Counts the request, then calls `next` (with the 429, Retry-After: seconds until midnight in the
 * configured zone, when the quota is used up). An immediate answer throws its 429 synchronously
 * and calls `next` before returning: the request path stays free of promises.
 */
export function admitThen(usage: UsageGate | undefined, credential: ApiKeyCredential, nowMs: number, next: (err?: Error) => void): void {
  const admission = usage?.admit(credential, nowMs);
  if (admission instanceof Promise) {
    admission.then((answer) => next(refusal(answer)), (err: unknown) => next(err instanceof Error ? err : new Error(String(err))));
    return;
  }
  const refused = refusal(admission);
  if (refused) throw refused;
  next();
}
