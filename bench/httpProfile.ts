/**
 * Where one HTTP route's CPU goes: `node dist-bench/bench/httpProfile.js [route] [seconds]` starts the HTTP
 * benchmark's server (bench/servers/httpServer.ts, the shipped start's flags) under `--cpu-prof`, loads one
 * route alone (calculate, unauthorized, disabled or sameCalculate; autocannon -c 20 after a 2 s warm-up), and
 * prints each part's share of the server's busy main thread. A sample is charged to the innermost part of its
 * stack (pino frames are charged to what called them); the start-up's module loading is left out.
 * BENCH_HTTP_PROFILE=public: under docs/deployment.md's public profile (`--max-semi-space-size=16`, one
 * access line in 100) instead of the home start; BENCH_PROFILE_KEEP=<file> keeps the raw profile. Not part of
 * `npm run bench`; bench/NOTES.md "Request path" Part 6 has its table.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fire, type HttpTarget } from './lib/httpLoad.js';
import { HTTP_BENCH_BODY, wrongKeyLike } from './lib/inputs.js';
import { forkServer } from './lib/ipc.js';
import { readCpuMicros } from './lib/proc.js';
import { shippedStart } from './lib/shippedStart.js';

interface ServerReady {
  port: number;
  barePort: number;
  key: string;
  disabledKey: string;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** Parts, first match wins while walking from the sampled frame towards the root. */
export const PARTS: readonly (readonly [string, RegExp])[] = [
  ['calculate()', /src\/core\//],
  ['JSON.stringify of the answer', /orderedSerializer/],
  ['key lookup (SHA-256)', /accessCache|apiKeyCodec/],
  ['rate limiter', /rate-limit|toad-cache/],
  ['access line', /src\/http\/accessLog\.js|src\/util\/logger\.js/],
  ['request metrics', /metricsRoute|prom-client|src\/metrics\//],
  ["request's logger", /createChildLogger|requestLogger/],
  ['client address', /clientAddress/],
  ['body JSON parse', /secure-json-parse|defaultJsonParser/],
  ['our hooks (server, shutdown, auth, handler)', /src\/http\/(server|shutdown|auth|calculateRoute|errors)\.js/],
  ['UTF-8 length and bytes', /node:buffer/],
  ['socket write', /^writev |^writeUtf8String |^writeBuffer |stream_base_commons|^Socket\._write/],
  ['fastify', /node_modules\/(fastify|avvio|find-my-way|light-my-request|fast-json-stringify|@fastify)/],
  ['Node HTTP and streams', /_http_|node:net|internal\/streams/],
  ['start-up', /loader|realm|modules\/esm|wrapSafe|compileSourceTextModule/],
];

/** Samples per part; V8's own entries ((garbage collector), (program), (idle)) under their names. */
export function partsOf(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const parts = new Map<string, number>();
  for (const [id, count] of counts) {
    const name = byId.get(id)?.callFrame.functionName ?? '';
    let part = name.startsWith('(') ? name : 'other';
    for (let at: number | undefined = id; at !== undefined && !name.startsWith('('); at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      const label = `${frame?.functionName ?? ''} ${frame?.url ?? ''}`;
      if (/node_modules\/(pino|sonic-boom|fast-redact)\//.test(label)) continue;
      const hit = PARTS.find(([, pattern]) => pattern.test(label));
      if (hit) {
        part = hit[0];
        break;
      }
    }
    parts.set(part, (parts.get(part) ?? 0) + count);
  }
  return parts;
}

function targetOf(ready: ServerReady, route: string): HttpTarget {
  const headers = { 'content-type': 'application/json' };
  const post = (path: string, authorization?: string, port = ready.port): HttpTarget => ({
    name: route,
    method: 'POST',
    path,
    port,
    headers: authorization === undefined ? headers : { ...headers, authorization },
    body: HTTP_BENCH_BODY,
  });
  if (route === 'calculate') return post('/v1/calculate', `Bearer ${ready.key}`);
  if (route === 'unauthorized') return post('/v1/calculate', `Bearer ${wrongKeyLike(ready.key)}`);
  if (route === 'disabled') return post('/v1/calculate', `Bearer ${ready.disabledKey}`);
  if (route === 'sameCalculate') return post('/same/calculate', undefined, ready.barePort);
  throw new Error(`unknown route ${route}; one of calculate, unauthorized, disabled, sameCalculate`);
}

async function main(): Promise<void> {
  const [route = 'calculate', secondsArg = '8'] = process.argv.slice(2);
  const root = join(import.meta.dirname, '..', '..');
  const shipped = shippedStart(root);
  const isPublic = process.env.BENCH_HTTP_PROFILE === 'public';
  const nodeArgs = isPublic
    ? [...shipped.nodeArgs.filter((arg) => !arg.startsWith('--max-semi-space-size')), '--max-semi-space-size=16']
    : shipped.nodeArgs;
  const dir = mkdtempSync(join(tmpdir(), 'mow-http-profile-'));
  const server = await forkServer<ServerReady>(join(root, 'dist-bench', 'bench', 'servers', 'httpServer.js'), [], 30_000, {
    execArgv: [...nodeArgs, '--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'],
    env: { ...shipped.env, ...(isPublic ? { MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: '100' } : {}) },
  });
  try {
    const target = targetOf(server.ready, route);
    const shape = { connections: 20, pipelining: 1 };
    await fire(0, target, { ...shape, durationS: 2 });
    const before = readCpuMicros(server.child.pid ?? 0);
    const round = await fire(0, target, { ...shape, durationS: Number(secondsArg) });
    const cpu = (readCpuMicros(server.child.pid ?? 0) - before) / Math.max(1, round.total);
    await server.stop();
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`no profile written to ${dir}`);
    // The raw profile, for Chrome DevTools or a function-by-function look.
    if (process.env.BENCH_PROFILE_KEEP) copyFileSync(join(dir, file), process.env.BENCH_PROFILE_KEEP);
    const parts = partsOf(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile);
    parts.delete('(idle)');
    parts.delete('start-up');
    const busy = [...parts.values()].reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `${route}: ${round.total} requests, ${Math.round(round.rps)} req/s, ${cpu.toFixed(0)} µs CPU per request (profiler on)\n`,
    );
    for (const [part, count] of [...parts].sort((a, b) => b[1] - a[1]))
      process.stdout.write(`${((100 * count) / busy).toFixed(1).padStart(5)} %  ${part}\n`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('httpProfile.js')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
