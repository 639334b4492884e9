import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CALCULATE_PATH } from '../../src/http/paths.js';
import { createMetrics, METRIC_PREFIX, UNMATCHED_ROUTE } from '../../src/metrics/registry.js';
import { seededRandom as random } from '../helpers/seededRandom.js';

/**
 * The request counter is kept in plain maps and copied into prom-client at scrape time
 * (src/metrics/registry.ts, RequestCounts). The exposition must be the one prom-client wrote when
 * the request path incremented the counter directly: the same samples, values and order, scrape
 * after scrape. The reference here is that old way, fed the same random requests.
 */
function oldWay() {
  const registry = new Registry();
  const requests = new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: `HTTP requests by route (path pattern; "${UNMATCHED_ROUTE}" for unknown paths), method and status code.`,
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const calculate = new Histogram({
    name: `${METRIC_PREFIX}calculate_duration_seconds`,
    help: 'Time from request to response of /v1/calculate, by status code.',
    labelNames: ['status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    observe(route: string | undefined, method: string, statusCode: number, seconds: number) {
      const status = String(statusCode);
      requests.inc({ route: route ?? UNMATCHED_ROUTE, method, status });
      if (route === CALCULATE_PATH) calculate.observe({ status }, seconds);
    },
    text: () => registry.metrics(),
  };
}

const ROUTES = [CALCULATE_PATH, '/health', '/v1/stations/:id', '/metrics', undefined, 'with "quote" and \\ back\nslash'];
const METHODS = ['GET', 'POST', 'HEAD', 'PUT'];
const STATUSES = [200, 201, 400, 401, 403, 404, 405, 429, 500, 503];

/** The lines of the two families the request path feeds, in the order they are written. */
function requestFamilies(text: string): string[] {
  return text.split('\n').filter((line) => /^(# (HELP|TYPE) )?mowability_(http_requests_total|calculate_duration_seconds)/.test(line));
}

describe('request counts kept in plain maps', () => {
  for (const seed of [1, 2, 3, 42, 2026]) {
    it(`write the exposition of prom-client counting each request (seed ${seed})`, async () => {
      const next = random(seed);
      const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
      const metrics = createMetrics();
      const reference = oldWay();
      // Before any request: the family's HELP and TYPE and no sample, as before.
      expect(requestFamilies((await metrics.render()).body)).toEqual(requestFamilies(await reference.text()));
      for (let scrape = 0; scrape < 6; scrape++) {
        const requests = Math.floor(next() * 300);
        for (let i = 0; i < requests; i++) {
          const route = pick(ROUTES);
          const method = pick(METHODS);
          const status = pick(STATUSES);
          const seconds = next() * next() * 3;
          metrics.observeRequest({ route, method, statusCode: status, seconds });
          reference.observe(route, method, status, seconds);
        }
        const lines = requestFamilies((await metrics.render()).body);
        expect(lines.length).toBeGreaterThan(2);
        expect(lines).toEqual(requestFamilies(await reference.text()));
      }
    });
  }
});
