/**
 * The fetch loop: at once when nothing fresh is cached, not at all before the cached
 * forecast is one interval old; an outage is logged once when it begins and once
 * when it ends, and the last good forecast is kept throughout.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FetchLoop } from '../../src/forecast/fetchLoop.js';
import type { CachedForecast } from '../../src/store/forecastStore.js';
import type { FetchOutcome } from '../../src/openmeteo/openMeteoClient.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { waitUntil } from '../helpers/mqttHarness.js';

const good: FetchOutcome = { kind: 'ok', hours: [{ timeMs: 3_600_000, values: { temperature: 20 } }], validators: { etag: '"a"' } };

function loop(outcomes: FetchOutcome[], options: { cached?: CachedForecast; intervalMs?: number; now?: number; hang?: boolean } = {}) {
  const log = captureLogger('info');
  let held = options.cached;
  const accepted: CachedForecast[] = [];
  const calls: unknown[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const fetchLoop = new FetchLoop({
    stationId: 'garden',
    location: { latitude: 1, longitude: 2 },
    client: {
      fetchForecast: async (_location, validators, signal) => {
        calls.push(validators);
        signals.push(signal);
        // A request that answers only when aborted, as a hung provider would.
        if (options.hang) await new Promise((resolve) => signal?.addEventListener('abort', resolve));
        return outcomes.shift() ?? good;
      },
    },
    intervalMs: options.intervalMs ?? 10,
    now: () => options.now ?? 1_000_000,
    random: () => 0.5,
    log: log.logger,
    current: () => held,
    accept: async (forecast) => {
      held = forecast;
      accepted.push(forecast);
    },
  });
  return { fetchLoop, log, accepted, calls, signals, held: () => held };
}

describe('FetchLoop', () => {
  let running: FetchLoop | undefined;
  afterEach(async () => {
    await running?.stop();
  });

  it('logs an outage once, keeps the last good forecast, and logs the recovery', async () => {
    const errors: FetchOutcome[] = Array.from({ length: 5 }, () => ({ kind: 'error', reason: 'HTTP 503' }));
    const { fetchLoop, log, accepted, calls, held } = loop([good, ...errors, good]);
    running = fetchLoop;
    fetchLoop.start();
    await waitUntil(() => accepted.length >= 2, 'the fetch after the outage');
    const warnings = log.lines().filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/^forecast fetch for station garden failed \(HTTP 503\); the last good forecast is kept/);
    expect(log.text()).toContain('forecast for station garden available again after 5 failed fetch(es)');
    expect(held()?.hours).toEqual(good.kind === 'ok' ? good.hours : []);
    // The ETag of the last good response goes with every later request.
    expect(calls[1]).toEqual({ etag: '"a"' });
  });

  it('waits for a cached forecast younger than one interval to age, and renews it on 304', async () => {
    const cached: CachedForecast = { source: 'open-meteo', fetchedAtMs: 1_000_000 - 50, hours: [], validators: {} };
    const { fetchLoop, accepted, calls } = loop([{ kind: 'not_modified' }], { cached, intervalMs: 200 });
    running = fetchLoop;
    const started = Date.now();
    fetchLoop.start();
    await waitUntil(() => accepted.length === 1, 'the first fetch');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(accepted[0]).toEqual({ ...cached, fetchedAtMs: 1_000_000 });
    expect(calls).toHaveLength(1);
  });

  it('stops cleanly while a fetch is waiting: the request is aborted, nothing is accepted, no timer is left and nothing more is fetched', async () => {
    vi.useFakeTimers();
    try {
      const { fetchLoop, accepted, calls, signals } = loop([], { hang: true, intervalMs: 60_000 });
      fetchLoop.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(1);
      await fetchLoop.stop();
      expect(signals[0]?.aborted).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
      // Ten intervals later the loop has still fetched only the aborted request.
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(accepted).toHaveLength(0);
      expect(calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['stopped', true, 0],
    ['running', false, 1],
  ])('fetches a cached forecast again when it turns one interval old, unless stopped (%s)', async (_name, stopFirst, expectedCalls) => {
    vi.useFakeTimers();
    try {
      const cached: CachedForecast = { source: 'open-meteo', fetchedAtMs: 1_000_000 - 30_000, hours: [], validators: {} };
      const { fetchLoop, calls } = loop([], { intervalMs: 60_000, cached });
      running = fetchLoop;
      fetchLoop.start();
      if (stopFirst) {
        await fetchLoop.stop();
        expect(vi.getTimerCount()).toBe(0);
      }
      await vi.advanceTimersByTimeAsync(30_001);
      expect(calls).toHaveLength(expectedCalls);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fetches at once when the cached forecast is stamped in the future (the clock stepped back since): its age is unknown', async () => {
    vi.useFakeTimers();
    try {
      // Fetched "a day from now": before, this waited a day and an interval for the next fetch.
      const cached: CachedForecast = { source: 'open-meteo', fetchedAtMs: 1_000_000 + 86_400_000, hours: [], validators: {} };
      const { fetchLoop, calls } = loop([], { intervalMs: 60_000, cached });
      running = fetchLoop;
      fetchLoop.start();
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
