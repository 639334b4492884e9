/**
 * The HTTP side of several instances, without the servers: a usage gate that
 * answers later (keys.quotaMode exact), the shared store unreachable (503 with
 * Retry-After, never 500), and /health's shared-store checks with their grace.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Admission } from '../../src/http/auth.js';
import { StoreUnavailableError } from '../../src/store/sqlDatabase.js';
import { sharedStatus } from '../../src/store/sharedHealth.js';
import { MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from './harness.js';

const unreachable = () => Promise.reject(new StoreUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432')));

describe('the HTTP side of a shared store', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const calculateWith = async (harness: HttpHarness, form: boolean) => {
    const { key } = await harness.store.addKey('exact', { allowGet: true });
    await harness.access.reload();
    return form
      ? harness.app.inject({
          method: 'POST',
          url: '/v1/calculate',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `api_key=${key}&temperature=18&precipitation_rate=0`,
        })
      : harness.app.inject({ method: 'POST', url: '/v1/calculate', headers: { authorization: `Bearer ${key}` }, payload: MINIMAL_INPUT });
  };

  it('waits for an exact-mode admission, in the header and in the form body', async () => {
    const answers: Array<Promise<Admission>> = [
      Promise.resolve({ ok: true }),
      Promise.resolve({ ok: false, quota: 3, retryAfterSeconds: 60 }),
    ];
    h = await startHttpHarness({ overrides: { usage: { admit: () => answers.shift() ?? unreachable() } } });
    const ok = await calculateWith(h, false);
    expect(ok.statusCode).toBe(200);
    const refused = await calculateWith(h, true);
    expect([refused.statusCode, refused.headers['retry-after'], refused.json().message]).toEqual([
      429,
      '60',
      expect.stringContaining('Daily quota of 3 requests'),
    ]);
    const down = await calculateWith(h, false);
    expect([down.statusCode, down.headers['retry-after'], down.json()]).toEqual([
      503,
      '5',
      { status: 'error', mfi: null, message: expect.stringContaining('briefly unavailable') },
    ]);
  });

  it('answers 503 with Retry-After, not 500, when a registration cannot reach the store', async () => {
    h = await startHttpHarness({
      env: { MOWABILITY_REGISTRATION_ENABLED: 'true' },
      extend: publicServiceParts({ registrations: { createWithinLimits: unreachable, claim: unreachable } }),
    });
    const claim = await h.app.inject({ method: 'GET', url: `/v1/registrations/mowclaim_${'a'.repeat(43)}` });
    expect([claim.statusCode, claim.headers['retry-after']]).toEqual([503, '5']);
  });

  it('reports the shared servers in health; an outage fails it only after the grace', async () => {
    let since: number | undefined;
    const graceMs = 60_000;
    const status = () =>
      sharedStatus(
        [
          { name: 'store', label: 'PostgreSQL (store.url)', unreachableSinceMs: since },
          { name: 'rate_limit_store', label: 'Redis', unreachableSinceMs: undefined },
        ],
        1_000_000,
        graceMs,
      );
    // Health answers from one run of its checks per http.healthCacheMs: each call here comes a cache interval later.
    let monotonicMs = 0;
    h = await startHttpHarness({
      env: { MOWABILITY_HTTP_HEALTH_CACHE_MS: '1000' },
      overrides: { sharedStores: async () => status(), healthClock: { now: () => monotonicMs } },
    });
    const health = async () => {
      monotonicMs += h!.config.http.healthCacheMs;
      const response = await h!.app.inject({ method: 'GET', url: '/health' });
      return { code: response.statusCode, checks: response.json().mfi.checks };
    };
    expect(await health()).toMatchObject({ code: 200, checks: { store: { status: 'ok' }, rate_limit_store: { status: 'ok' } } });
    since = 1_000_000 - 12_000;
    expect(await health()).toMatchObject({
      code: 200,
      checks: {
        store: { status: 'degraded', message: 'PostgreSQL (store.url) unreachable for 12 s; tolerated for 60 s (retrying with backoff)' },
      },
    });
    since = 1_000_000 - graceMs - 1;
    expect(await health()).toMatchObject({
      code: 503,
      checks: { store: { status: 'error', message: expect.stringContaining('longer than store.outageGraceSeconds') } },
    });
  });
});
