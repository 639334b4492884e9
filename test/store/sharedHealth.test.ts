/**
 * /health's words for the shared servers: ok, degraded while an outage is within the grace
 * (unreachable, or connected but not answering in time: a stall), error once it outlasts it.
 */
import { describe, expect, it } from 'vitest';
import { sharedStatus } from '../../src/store/sharedHealth.js';

const NOW = 1_000_000;
const GRACE_MS = 120_000;

describe('sharedStatus', () => {
  it('says ok while every server answers', () => {
    expect(sharedStatus([{ name: 'store', label: 'PostgreSQL (store.url)', unreachableSinceMs: undefined }], NOW, GRACE_MS)).toEqual({
      checks: { store: { status: 'ok' } },
      failing: false,
    });
  });

  it('says degraded for a stall within the grace, with the timeout and what the instance does meanwhile', () => {
    const status = sharedStatus(
      [
        {
          name: 'rate_limit_store',
          label: 'Redis (http.rateLimitStore)',
          unreachableSinceMs: NOW - 7_000,
          notAnsweringWithinMs: 250,
          meanwhile: 'requests pass without the shared rate limit',
        },
      ],
      NOW,
      GRACE_MS,
    );
    expect(status).toEqual({
      checks: {
        rate_limit_store: {
          status: 'degraded',
          message:
            'Redis (http.rateLimitStore) not answering within 250 ms for 7 s; requests pass without the shared rate limit; tolerated for 120 s (retrying with backoff)',
        },
      },
      failing: false,
    });
  });

  it('says error and fails health once an outage outlasts the grace', () => {
    const status = sharedStatus(
      [{ name: 'store', label: 'PostgreSQL (store.url)', unreachableSinceMs: NOW - GRACE_MS - 1_000 }],
      NOW,
      GRACE_MS,
    );
    expect(status).toEqual({
      checks: { store: { status: 'error', message: 'PostgreSQL (store.url) unreachable for 121 s; longer than store.outageGraceSeconds' } },
      failing: true,
    });
  });
});
