/** The per-key daily quota on the calculation path (keys.dailyQuota, `keys quota`). */
import type { ApiKeyCredential } from '../store/serviceStore.js';
import type { Admission } from '../store/keyUsage.js';
import { HttpError, MESSAGES } from './errors.js';

/** Counts requests per key and day; refuses once the quota is used up. */
export interface UsageGate {
  admit(credential: ApiKeyCredential, nowMs: number): Admission;
}

/** Counts the request, or throws the 429 with Retry-After (seconds until midnight in the configured zone). */
export function admitOrThrow(usage: UsageGate | undefined, credential: ApiKeyCredential, nowMs: number): void {
  const admission = usage?.admit(credential, nowMs);
  if (admission && !admission.ok) {
    throw new HttpError(429, MESSAGES.quotaExceeded(admission.quota), { 'retry-after': String(admission.retryAfterSeconds) });
  }
}
