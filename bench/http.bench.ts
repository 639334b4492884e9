/**
 * HTTP request path: the real POST /v1/calculate (valid key), the 401 path
 * (unknown key) and the 403 path (disabled key), each against a bare fastify
 * route in the same server process that returns the same bytes (the same-run
 * baseline). autocannon, loopback, warm-up then 3 interleaved rounds; every
 * figure is a median of per-round ratios. Server CPU per request comes from
 * /proc/<pid>/stat (the load generator runs in this process, not the server's).
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { interleavedRounds, type HttpRound, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY, wrongKeyLike } from './lib/inputs.js';
import { forkServer } from './lib/ipc.js';
import { LOOPBACK } from './lib/net.js';
import { atLeast, atMost, measured, type Figure } from './lib/report.js';
import { median, medianRatio } from './lib/stats.js';

interface ServerReady {
  port: number;
  barePort: number;
  key: string;
  disabledKey: string;
}

async function sanityCheck(port: number, target: HttpTarget, expectedStatus: number): Promise<void> {
  const init: RequestInit = { method: target.method, headers: target.headers ?? {} };
  if (target.body !== undefined) init.body = target.body;
  const response = await fetch(`http://${LOOPBACK}:${target.port ?? port}${target.path}`, init);
  const text = await response.text();
  if (response.status !== expectedStatus) throw new Error(`${target.name}: expected HTTP ${expectedStatus}, got ${response.status}: ${text.slice(0, 300)}`);
}

/** Goals of issue 15: against a bare route returning the same bytes, with the rate limit on. */
const GOALS = { calculateVsSame: 0.6, calculateCpuMicros: 100, refusedVsSame: 0.75, p99VsSame: 2 } as const;

function targetsFor(ready: ServerReady): { targets: HttpTarget[]; expected: Record<string, number> } {
  const json = { 'content-type': 'application/json' };
  const post = (name: string, path: string, authorization: string | undefined, port?: number): HttpTarget => ({
    name,
    method: 'POST',
    path,
    headers: authorization === undefined ? json : { ...json, authorization },
    body: HTTP_BENCH_BODY,
    ...(port === undefined ? {} : { port }),
  });
  const targets = [
    post('sameCalculate', '/same/calculate', undefined, ready.barePort),
    post('calculate', '/v1/calculate', `Bearer ${ready.key}`),
    post('same401', '/same/401', undefined, ready.barePort),
    post('unauthorized', '/v1/calculate', `Bearer ${wrongKeyLike(ready.key)}`),
    post('same403', '/same/403', undefined, ready.barePort),
    post('disabled', '/v1/calculate', `Bearer ${ready.disabledKey}`),
  ];
  const expected = { sameCalculate: 200, calculate: 200, same401: 401, unauthorized: 401, same403: 403, disabled: 403 };
  return { targets, expected };
}

export const httpBenchmark: Benchmark = {
  name: 'http',
  title: 'HTTP request path: POST /v1/calculate, 401 and 403 vs a bare route returning the same bytes (autocannon)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const server = await forkServer<ServerReady>(join(context.repoRoot, 'dist-bench', 'bench', 'servers', 'httpServer.js'));
    try {
      const { port } = server.ready;
      const serverPid = server.child.pid;
      const { targets, expected } = targetsFor(server.ready);
      for (const target of targets) await sanityCheck(port, target, expected[target.name] ?? 200);

      // 20 connections without pipelining saturate 2 cores without queueing thousands of requests (on a loaded machine those time out).
      const shape = { durationS: context.quick ? 2 : 5, connections: 20, pipelining: 1 };
      const rounds = await interleavedRounds(port, targets, { rounds: 3, shape, warmupS: context.quick ? 1 : 2, log: context.log, serverPid });
      const of = (name: string): HttpRound[] => rounds.get(name) ?? [];
      const rps = (name: string): number[] => of(name).map((r) => r.rps);
      const p99 = (name: string): number[] => of(name).map((r) => r.latencyP99Ms);
      const cpu = (name: string): number[] => of(name).map((r) => r.cpuMicrosPerRequest ?? Number.NaN);
      const rpsNote = (name: string): string => `rounds ${rps(name).map(Math.round).join('/')}; p99 ${median(p99(name))} ms`;
      const cpuNote = (name: string): string => `rounds ${cpu(name).map((v) => v.toFixed(0)).join('/')} µs`;

      // Latency below saturation: calculate and its baseline at the same fixed rate, well under calculate's capacity.
      const fixedRate = 2000;
      const fixedShape = { durationS: context.quick ? 2 : 4, connections: 20, pipelining: 1, overallRate: fixedRate };
      const fixedTargets = targets.filter((t) => t.name === 'sameCalculate' || t.name === 'calculate');
      const fixedRounds = await interleavedRounds(port, fixedTargets, { rounds: 3, shape: fixedShape, warmupS: 1, log: context.log });
      const fixedP99 = (name: string): number[] => (fixedRounds.get(name) ?? []).map((r) => r.latencyP99Ms);

      const calculate = [...of('calculate'), ...(fixedRounds.get('calculate') ?? [])];
      const invalid = calculate.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
      const wrongStatus = (name: string, status: string): number => of(name).reduce((sum, r) => sum + (r.total - (r.statusCounts[status] ?? 0)) + r.errors, 0);
      const figures: Figure[] = [
        measured('http.sameCalculate.rps', 'bare route, same bytes as calculate: req/s', median(rps('sameCalculate')), 'req/s', undefined, rpsNote('sameCalculate')),
        measured('http.calculate.rps', 'POST /v1/calculate req/s', median(rps('calculate')), 'req/s', undefined, rpsNote('calculate')),
        measured('http.calculate.vsSame', 'calculate / same-bytes bare route req/s', medianRatio(rps('calculate'), rps('sameCalculate')), 'x', atLeast(GOALS.calculateVsSame)),
        measured(
          'http.calculate.cpuVsSame',
          'same-bytes bare route CPU / calculate CPU per request (throughput ratio if CPU-bound; steadier on a shared machine)',
          medianRatio(cpu('sameCalculate'), cpu('calculate')),
          'x',
        ),
        measured('http.calculate.cpu', 'calculate: server CPU per request', median(cpu('calculate')), 'µs', atMost(GOALS.calculateCpuMicros), cpuNote('calculate')),
        measured('http.sameCalculate.cpu', 'bare route (calculate bytes): server CPU per request', median(cpu('sameCalculate')), 'µs', undefined, cpuNote('sameCalculate')),
        measured('http.unauthorized.rps', '401 path (unknown key) req/s', median(rps('unauthorized')), 'req/s', undefined, rpsNote('unauthorized')),
        measured('http.unauthorized.vsSame', '401 path / same-bytes bare route req/s', medianRatio(rps('unauthorized'), rps('same401')), 'x', atLeast(GOALS.refusedVsSame)),
        measured('http.unauthorized.cpuVsSame', 'same-bytes bare route CPU / 401 path CPU per request', medianRatio(cpu('same401'), cpu('unauthorized')), 'x'),
        measured('http.unauthorized.cpu', '401 path: server CPU per request', median(cpu('unauthorized')), 'µs', undefined, `${cpuNote('unauthorized')}; bare ${median(cpu('same401')).toFixed(0)} µs`),
        measured('http.disabled.rps', '403 path (disabled key) req/s', median(rps('disabled')), 'req/s', undefined, rpsNote('disabled')),
        measured('http.disabled.vsSame', '403 path / same-bytes bare route req/s', medianRatio(rps('disabled'), rps('same403')), 'x', atLeast(GOALS.refusedVsSame)),
        measured('http.disabled.cpuVsSame', 'same-bytes bare route CPU / 403 path CPU per request', medianRatio(cpu('same403'), cpu('disabled')), 'x'),
        measured('http.disabled.cpu', '403 path: server CPU per request', median(cpu('disabled')), 'µs', undefined, `${cpuNote('disabled')}; bare ${median(cpu('same403')).toFixed(0)} µs`),
        measured('http.calculate.p99VsSame', 'calculate p99 / bare route p99 (saturated)', medianRatio(p99('calculate'), p99('sameCalculate')), 'x'),
        measured(
          'http.fixedRate.p99VsSame',
          `calculate p99 / bare route p99 at ${fixedRate} req/s each`,
          medianRatio(fixedP99('calculate'), fixedP99('sameCalculate')),
          'x',
          atMost(GOALS.p99VsSame),
          `p99 ${median(fixedP99('calculate'))} ms vs ${median(fixedP99('sameCalculate'))} ms`,
        ),
        measured('http.calculate.non2xx', 'calculate non-2xx + errors + timeouts', invalid, 'responses', atMost(0), `${calculate.reduce((s, r) => s + r.total, 0)} requests`),
        measured('http.unauthorized.not401', '401 path answers other than 401', wrongStatus('unauthorized', '401'), 'responses', atMost(0)),
        measured('http.disabled.not403', '403 path answers other than 403', wrongStatus('disabled', '403'), 'responses', atMost(0)),
      ];
      return { figures, details: { shape, rounds: Object.fromEntries(rounds), fixedShape, fixedRounds: Object.fromEntries(fixedRounds) } };
    } finally {
      await server.stop();
    }
  },
};
