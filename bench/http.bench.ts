/**
 * HTTP: the real POST /v1/calculate (valid key) against two baseline routes
 * in the same server process (a schema'd bare GET and a raw JSON POST), plus
 * the 401 path (wrong key). autocannon, loopback, warm-up then 3 interleaved
 * rounds; every figure is a median of per-round ratios.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { interleavedRounds, type HttpRound, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY } from './lib/inputs.js';
import { forkServer } from './lib/ipc.js';
import { LOOPBACK } from './lib/net.js';
import { atLeast, atMost, measured, type Figure } from './lib/report.js';
import { median, medianRatio } from './lib/stats.js';

interface ServerReady {
  port: number;
  key: string;
}

/** A syntactically valid key nobody was given: same prefix and length as a real one. */
function wrongKeyLike(key: string): string {
  const [prefix] = key.split('_');
  return `${prefix}_${'x'.repeat(key.length - (prefix?.length ?? 0) - 1)}`;
}

async function sanityCheck(port: number, target: HttpTarget, expectedStatus: number): Promise<void> {
  const init: RequestInit = { method: target.method, headers: target.headers ?? {} };
  if (target.body !== undefined) init.body = target.body;
  const response = await fetch(`http://${LOOPBACK}:${port}${target.path}`, init);
  const text = await response.text();
  if (response.status !== expectedStatus) throw new Error(`${target.name}: expected HTTP ${expectedStatus}, got ${response.status}: ${text.slice(0, 300)}`);
}

export const httpBenchmark: Benchmark = {
  name: 'http',
  title: 'HTTP: POST /v1/calculate vs baseline routes (autocannon)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const server = await forkServer<ServerReady>(join(context.repoRoot, 'dist-bench', 'bench', 'servers', 'httpServer.js'));
    try {
      const { port, key } = server.ready;
      const json = { 'content-type': 'application/json' };
      const targets: HttpTarget[] = [
        { name: 'bareGet', method: 'GET', path: '/bench/bare' },
        { name: 'rawPost', method: 'POST', path: '/bench/raw', headers: json, body: HTTP_BENCH_BODY },
        { name: 'calculate', method: 'POST', path: '/v1/calculate', headers: { ...json, authorization: `Bearer ${key}` }, body: HTTP_BENCH_BODY },
        {
          name: 'unauthorized',
          method: 'POST',
          path: '/v1/calculate',
          headers: { ...json, authorization: `Bearer ${wrongKeyLike(key)}` },
          body: HTTP_BENCH_BODY,
        },
      ];
      const expected: Record<string, number> = { bareGet: 200, rawPost: 200, calculate: 200, unauthorized: 401 };
      for (const target of targets) await sanityCheck(port, target, expected[target.name] ?? 200);

      const shape = { durationS: context.quick ? 2 : 5, connections: 100, pipelining: 10 };
      const rounds = await interleavedRounds(port, targets, { rounds: 3, shape, warmupS: context.quick ? 1 : 2, log: context.log });
      const of = (name: string): HttpRound[] => rounds.get(name) ?? [];
      const rps = (name: string): number[] => of(name).map((r) => r.rps);
      const p99 = (name: string): number[] => of(name).map((r) => r.latencyP99Ms);
      const rpsNote = (name: string): string => `rounds ${rps(name).map(Math.round).join('/')}; p99 ${median(p99(name))} ms`;

      // Latency below saturation: both POST routes at the same fixed rate, well under calculate's capacity.
      const fixedRate = 2000;
      const fixedShape = { durationS: context.quick ? 2 : 4, connections: 20, pipelining: 1, overallRate: fixedRate };
      const fixedTargets = targets.filter((t) => t.name === 'rawPost' || t.name === 'calculate');
      const fixedRounds = await interleavedRounds(port, fixedTargets, { rounds: 3, shape: fixedShape, warmupS: 1, log: context.log });
      const fixedP99 = (name: string): number[] => (fixedRounds.get(name) ?? []).map((r) => r.latencyP99Ms);

      const calculate = [...of('calculate'), ...(fixedRounds.get('calculate') ?? [])];
      const invalid = calculate.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
      const unauthorizedWrongStatus = of('unauthorized').reduce((sum, r) => sum + (r.total - (r.statusCounts['401'] ?? 0)) + r.errors, 0);
      const figures: Figure[] = [
        measured('http.bareGet.rps', 'bare GET req/s', median(rps('bareGet')), 'req/s', undefined, rpsNote('bareGet')),
        measured('http.rawPost.rps', 'raw POST req/s', median(rps('rawPost')), 'req/s', undefined, rpsNote('rawPost')),
        measured('http.calculate.rps', 'POST /v1/calculate req/s', median(rps('calculate')), 'req/s', undefined, rpsNote('calculate')),
        measured('http.unauthorized.rps', '401 path req/s', median(rps('unauthorized')), 'req/s', undefined, rpsNote('unauthorized')),
        measured('http.calculate.vsRawPost', 'calculate / raw POST req/s', medianRatio(rps('calculate'), rps('rawPost')), 'x', atLeast(0.8)),
        measured('http.calculate.vsBareGet', 'calculate / bare GET req/s', medianRatio(rps('calculate'), rps('bareGet')), 'x'),
        measured('http.unauthorized.vsCalculate', '401 path / calculate req/s', medianRatio(rps('unauthorized'), rps('calculate')), 'x', atLeast(0.9)),
        measured('http.calculate.p99VsRawPost', 'calculate p99 / raw POST p99', medianRatio(p99('calculate'), p99('rawPost')), 'x', atMost(2)),
        measured(
          'http.fixedRate.p99VsRawPost',
          `calculate p99 / raw POST p99 at ${fixedRate} req/s each`,
          medianRatio(fixedP99('calculate'), fixedP99('rawPost')),
          'x',
          undefined,
          `p99 ${median(fixedP99('calculate'))} ms vs ${median(fixedP99('rawPost'))} ms`,
        ),
        measured('http.calculate.non2xx', 'calculate non-2xx + errors + timeouts', invalid, 'responses', atMost(0), `${calculate.reduce((s, r) => s + r.total, 0)} requests`),
        measured('http.unauthorized.not401', '401 path answers other than 401', unauthorizedWrongStatus, 'responses', atMost(0)),
      ];
      return { figures, details: { shape, rounds: Object.fromEntries(rounds), fixedShape, fixedRounds: Object.fromEntries(fixedRounds) } };
    } finally {
      await server.stop();
    }
  },
};
