/**
 * HTTP request path: the real POST /v1/calculate (valid key), the 401 path
 * (unknown key) and the 403 path (disabled key), each against a bare fastify
 * route in the same server process that returns the same bytes (the same-run
 * baseline). autocannon, loopback, warm-up then 5 interleaved rounds; every
 * figure is a median of per-round ratios. Server CPU per request comes from
 * /proc/<pid>/stat (the load generator runs in this process, not the server's).
 *
 * The HTTP goals (bench/NOTES.md, "Request path") are judged on CPU per request: bare route CPU / route
 * CPU is what the throughput ratio is when the server is CPU-bound, and it
 * stays steady on a machine other people load, where req/s ratios swing by
 * half from round to round. The req/s ratios are printed next to them.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchContext, BenchOutcome } from './lib/benchmark.js';
import { interleavedRounds, type HttpRound, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY, wrongKeyLike } from './lib/inputs.js';
import { forkServer } from './lib/ipc.js';
import { LOOPBACK } from './lib/net.js';
import { shippedStart } from './lib/shippedStart.js';
import { atLeast, atMost, measured, type Figure } from './lib/report.js';
import { median, medianRatio, ratio } from './lib/stats.js';

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
  if (response.status !== expectedStatus)
    throw new Error(`${target.name}: expected HTTP ${expectedStatus}, got ${response.status}: ${text.slice(0, 300)}`);
}

/** The HTTP goals: against a bare route returning the same bytes, with the rate limit on. */
const GOALS = { calculateVsSame: 0.6, calculateCpuMicros: 100, refusedVsSame: 0.75, p99VsSame: 2 } as const;

/** The three measured paths and the bare route each is compared with. */
const PAIRS = [
  { name: 'calculate', same: 'sameCalculate', label: 'POST /v1/calculate', goal: GOALS.calculateVsSame },
  { name: 'unauthorized', same: 'same401', label: '401 path (unknown key)', goal: GOALS.refusedVsSame },
  { name: 'disabled', same: 'same403', label: '403 path (disabled key)', goal: GOALS.refusedVsSame },
] as const;

const fixed = (values: readonly number[], digits = 0): string => values.map((v) => v.toFixed(digits)).join('/');

/** V8's young-generation collector on the main thread only: the flag whose p99 effect the fixed-rate part also measures. */
const SINGLE_THREADED_GC = '--single-threaded-gc';

/** The server's flags with `--single-threaded-gc` toggled: added when the shipped start lacks it, removed when it has it. */
export function otherGcFlags(nodeArgs: readonly string[]): { nodeArgs: string[]; label: string } {
  return nodeArgs.includes(SINGLE_THREADED_GC)
    ? { nodeArgs: nodeArgs.filter((arg) => arg !== SINGLE_THREADED_GC), label: `without ${SINGLE_THREADED_GC}` }
    : { nodeArgs: [...nodeArgs, SINGLE_THREADED_GC], label: `with ${SINGLE_THREADED_GC}` };
}

/** Calculate and its bare route at a fixed rate on both servers, interleaved; the p99 ratio of each server. */
async function fixedRateP99(servers: { label: string; ready: ServerReady }[], context: BenchContext, fixedRate: number) {
  const fixedShape = { durationS: context.quick ? 2 : 4, connections: 20, pipelining: 1, overallRate: fixedRate };
  const targets = servers.flatMap(({ label, ready }) => {
    const { targets: all } = targetsFor(ready);
    const port = (target: HttpTarget): number => target.port ?? ready.port;
    return all
      .filter((t) => t.name === 'sameCalculate' || t.name === 'calculate')
      .map((t) => ({ ...t, name: `${label}:${t.name}`, port: port(t) }));
  });
  const rounds = await interleavedRounds(0, targets, { rounds: 3, shape: fixedShape, warmupS: 1, log: context.log });
  const p99 = (name: string): number[] => (rounds.get(name) ?? []).map((r) => r.latencyP99Ms);
  return { fixedShape, rounds, p99 };
}

/** Per path: the judged CPU ratio, the req/s ratio, and both sides' CPU and req/s, each with its rounds. */
function pairFigures(rounds: ReadonlyMap<string, HttpRound[]>): Figure[] {
  const of = (name: string): HttpRound[] => rounds.get(name) ?? [];
  const cpu = (name: string): number[] => of(name).map((r) => r.cpuMicrosPerRequest ?? Number.NaN);
  const rps = (name: string): number[] => of(name).map((r) => r.rps);
  return PAIRS.flatMap(({ name, same, label, goal }) => {
    const cpuRatios = cpu(name).map((value, i) => ratio(cpu(same)[i] ?? Number.NaN, value));
    const rpsRatios = rps(name).map((value, i) => ratio(value, rps(same)[i] ?? Number.NaN));
    return [
      measured(
        `http.${name}.cpuVsSame`,
        `${label}: bare-route CPU / route CPU per request (= req/s ratio when CPU-bound)`,
        median(cpuRatios),
        'x',
        atLeast(goal),
        `rounds ${fixed(cpuRatios, 2)}`,
      ),
      measured(
        `http.${name}.vsSame`,
        `${label}: req/s / bare-route req/s (noisy on a shared machine)`,
        medianRatio(rps(name), rps(same)),
        'x',
        undefined,
        `rounds ${fixed(rpsRatios, 2)}`,
      ),
      measured(
        `http.${name}.cpu`,
        `${label}: server CPU per request`,
        median(cpu(name)),
        'µs',
        name === 'calculate' ? atMost(GOALS.calculateCpuMicros) : undefined,
        `rounds ${fixed(cpu(name))} µs`,
      ),
      measured(
        `http.${same}.cpu`,
        `bare route, same bytes as the ${label}: server CPU per request`,
        median(cpu(same)),
        'µs',
        undefined,
        `rounds ${fixed(cpu(same))} µs`,
      ),
      measured(
        `http.${name}.rps`,
        `${label}: req/s`,
        median(rps(name)),
        'req/s',
        undefined,
        `rounds ${fixed(rps(name))}; bare ${fixed(rps(same))}`,
      ),
    ];
  });
}

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
  title: 'HTTP request path: POST /v1/calculate, 401 and 403 vs a bare route returning the same bytes (autocannon, CPU per request)',
  async run(context: BenchContext): Promise<BenchOutcome> {
    const loadBefore = loadavg()[0] ?? Number.NaN;
    // With the shipped start's node flags and environment (the small young generation, the malloc arenas): the
    // route and its bare baseline share the process, so both run as the daemon does.
    const shipped = shippedStart(context.repoRoot);
    const serverPath = join(context.repoRoot, 'dist-bench', 'bench', 'servers', 'httpServer.js');
    const server = await forkServer<ServerReady>(serverPath, [], 15_000, {
      execArgv: [...shipped.nodeArgs, ...context.daemonNodeArgs],
      env: shipped.env,
    });
    try {
      const { port } = server.ready;
      const serverPid = server.child.pid;
      const { targets, expected } = targetsFor(server.ready);
      for (const target of targets) await sanityCheck(port, target, expected[target.name] ?? 200);

      // 20 connections without pipelining saturate 2 cores without queueing thousands of requests (on a loaded machine those time out).
      const shape = { durationS: context.quick ? 2 : 5, connections: 20, pipelining: 1 };
      const rounds = await interleavedRounds(port, targets, {
        rounds: context.quick ? 3 : 5,
        shape,
        warmupS: context.quick ? 1 : 2,
        log: context.log,
        serverPid,
      });
      const of = (name: string): HttpRound[] => rounds.get(name) ?? [];

      // Latency below saturation: calculate and its baseline at the same fixed rate, well under calculate's capacity, on
      // this server and on one started with --single-threaded-gc toggled (shorter young-generation pauses; its
      // shipping is decided on memory and soak figures), interleaved.
      const fixedRate = 2000;
      const other = otherGcFlags([...shipped.nodeArgs, ...context.daemonNodeArgs]);
      const otherServer = await forkServer<ServerReady>(serverPath, [], 15_000, { execArgv: other.nodeArgs, env: shipped.env });
      const fixedRun = await fixedRateP99(
        [
          { label: 'shipped', ready: server.ready },
          { label: 'otherGc', ready: otherServer.ready },
        ],
        context,
        fixedRate,
      ).finally(() => otherServer.stop());
      const { fixedShape, p99: fixedP99 } = fixedRun;
      const fixedRounds = new Map([...fixedRun.rounds].map(([name, value]) => [name.replace(/^shipped:/, ''), value]));
      const loadAfter = loadavg()[0] ?? Number.NaN;
      const serverStart = [
        ...Object.entries(shipped.env).map(([k, v]) => `${k}=${v}`),
        'node',
        ...shipped.nodeArgs,
        ...context.daemonNodeArgs,
        `(${process.version})`,
      ].join(' ');

      const calculate = [...of('calculate'), ...(fixedRounds.get('calculate') ?? [])];
      const invalid = calculate.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
      const wrongStatus = (name: string, status: string): number =>
        of(name).reduce((sum, r) => sum + (r.total - (r.statusCounts[status] ?? 0)) + r.errors, 0);
      const figures: Figure[] = [
        ...pairFigures(rounds),
        measured(
          'http.fixedRate.p99VsSame',
          `calculate p99 / bare route p99 at ${fixedRate} req/s each`,
          medianRatio(fixedP99('shipped:calculate'), fixedP99('shipped:sameCalculate')),
          'x',
          atMost(GOALS.p99VsSame),
          `p99 ${median(fixedP99('shipped:calculate'))} ms vs ${median(fixedP99('shipped:sameCalculate'))} ms; rounds ${fixed(fixedP99('shipped:calculate'))} vs ${fixed(fixedP99('shipped:sameCalculate'))} ms`,
        ),
        measured(
          'http.fixedRate.otherGc.p99VsSame',
          `the same, server ${other.label}`,
          medianRatio(fixedP99('otherGc:calculate'), fixedP99('otherGc:sameCalculate')),
          'x',
          undefined,
          `p99 ${median(fixedP99('otherGc:calculate'))} ms vs ${median(fixedP99('otherGc:sameCalculate'))} ms; rounds ${fixed(fixedP99('otherGc:calculate'))} vs ${fixed(fixedP99('otherGc:sameCalculate'))} ms`,
        ),
        measured(
          'http.calculate.non2xx',
          'calculate non-2xx + errors + timeouts',
          invalid,
          'responses',
          atMost(0),
          `${calculate.reduce((s, r) => s + r.total, 0)} requests`,
        ),
        measured('http.unauthorized.not401', '401 path answers other than 401', wrongStatus('unauthorized', '401'), 'responses', atMost(0)),
        measured('http.disabled.not403', '403 path answers other than 403', wrongStatus('disabled', '403'), 'responses', atMost(0)),
        measured(
          'http.loadAverage',
          'machine load average (1 min) before / after the run',
          loadAfter,
          '',
          undefined,
          `before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)}; server: ${serverStart}`,
        ),
      ];
      return {
        figures,
        details: {
          shape,
          rounds: Object.fromEntries(rounds),
          fixedShape,
          fixedRounds: Object.fromEntries(fixedRounds),
          loadBefore,
          loadAfter,
        },
      };
    } finally {
      await server.stop();
    }
  },
};
