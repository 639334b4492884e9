import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { eventLoopSeriesName, registerEventLoopDelay } from '../../src/metrics/eventLoopDelay.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';
import { waitUntil } from '../helpers/wait.js';

async function series(registry: Registry, statistic: Parameters<typeof eventLoopSeriesName>[0]): Promise<number> {
  return sampleValue(parsePrometheusText(await registry.metrics()), eventLoopSeriesName(statistic)) ?? Number.NaN;
}

function stallFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Busy-wait: the loop is blocked, as by a long synchronous walk over a table.
  }
}

describe('event-loop delay series', () => {
  it('reports the delay itself (not the sample period), near zero on an idle loop', async () => {
    const registry = new Registry();
    // A 400 ms period: a loaded machine runs a due timer tens of ms late, far below the period.
    registerEventLoopDelay(registry, 400);
    let p50 = Number.NaN;
    await waitUntil(
      async () => {
        p50 = await series(registry, 'p50');
        return p50 > 0;
      },
      'a first sample',
      3000,
      60,
    );
    // The raw histogram would read about 0.4 s (the sample period) here.
    expect(p50).toBeLessThan(0.2);
  });

  it('reports a stall in max, and each scrape covers only the time since the last', async () => {
    const registry = new Registry();
    registerEventLoopDelay(registry, 50);
    await waitUntil(async () => (await series(registry, 'p50')) > 0, 'a first sample', 3000, 60);
    // A stall far longer than a loaded machine delays one 50 ms tick, so the two are told apart.
    stallFor(1000);
    // The first scrape runs before the sampler's overdue tick: the stall must still reach a later one.
    let max = 0;
    await waitUntil(
      async () => {
        max = Math.max(max, await series(registry, 'max'));
        return max >= 0.9;
      },
      'the 1000 ms stall in the max series',
      3000,
      60,
    );
    expect(max).toBeLessThan(5);
    await waitUntil(async () => (await series(registry, 'max')) > 0, 'a later sample', 3000, 60);
    expect(await series(registry, 'max')).toBeLessThan(0.5);
  });

  it('replaces prom-client’s 10 ms monitor series in the daemon registry, one family each', async () => {
    const text = await createMetrics({ processMetrics: true }).registry.metrics();
    for (const statistic of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const) {
      const name = eventLoopSeriesName(statistic);
      expect(text.split('\n').filter((line) => line === `# TYPE ${name} gauge`)).toHaveLength(1);
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toMatch(new RegExp(`# HELP ${name} .*Sampled every 1000 ms`));
    }
    expect(parsePrometheusText(text).has('nodejs_eventloop_lag_seconds')).toBe(true);
  });
});
