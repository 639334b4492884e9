/**
 * Same answers from two builds: `node dist-bench/bench/httpSameAnswers.js <other-build-dir> [count]` starts
 * the HTTP benchmark's server (bench/servers/httpServer.ts: the real app, rate limit, metrics and access log
 * on) of this build and of another one (built the same way: `npm run build && npx tsc -p tsconfig.bench.json`
 * there), sends both the same generated requests and compares status, headers and body bytes. The requests:
 * realistic inputs (bench/lib/inputs.ts) with values made wrong, as JSON, as form fields and as a GET
 * query; malformed JSON, a JSON array, an empty body, a body that is not an object; no key, an unknown key,
 * a disabled key, a key in a form body. Each build's own key is used (keys are random per server).
 * Masked before comparing: `Date`, the `x-ratelimit-remaining` and `-reset` counts and the answer's `calculated_at`
 * (each server stamps its own clock). Exits 1 on the first difference, printing both answers.
 */
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { realisticInputs, seededRandom, wrongKeyLike } from './lib/inputs.js';
import { forkServer, type ForkedServer } from './lib/ipc.js';
import { shippedStart } from './lib/shippedStart.js';

interface ServerReady {
  port: number;
  key: string;
  disabledKey: string;
}

type KeyChoice = 'valid' | 'none' | 'unknown' | 'disabled' | 'formValid';

interface Probe {
  method: 'GET' | 'POST';
  contentType?: string;
  body?: string;
  query?: string;
  key: KeyChoice;
}

interface Answer {
  status: number;
  headers: string;
  body: string;
}

const WRONG_VALUES: readonly unknown[] = [null, 'warm', -999, 1e9, true, [], {}, '', '18.4', Number.MAX_VALUE];

function probes(count: number): Probe[] {
  const random = seededRandom(20261202);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const inputs = realisticInputs(count, 4242);
  return inputs.map((input, index): Probe => {
    const fields: Record<string, unknown> = { ...input };
    if (random() < 0.3) fields[pick(Object.keys(fields))] = pick(WRONG_VALUES);
    if (random() < 0.1) delete fields.temperature;
    if (random() < 0.05) fields.season = pick(['spring', 'summer', 'autumn', 'winter', 'monsoon']);
    const key: KeyChoice = random() < 0.85 ? 'valid' : pick(['none', 'unknown', 'disabled'] as const);
    const form = new URLSearchParams(Object.entries(fields).map(([name, value]): [string, string] => [name, String(value)])).toString();
    switch (index % 10) {
      case 7:
        return { method: 'POST', contentType: 'application/x-www-form-urlencoded', body: form, key: key === 'valid' ? 'formValid' : key };
      case 8:
        return { method: 'GET', query: form, key };
      case 9:
        return {
          method: 'POST',
          contentType: 'application/json',
          body: pick(['{"temperature": 18', '[1,2]', '', '"text"', 'null', '{"__proto__":{"x":1}}']),
          key,
        };
      default:
        return { method: 'POST', contentType: 'application/json', body: JSON.stringify(fields), key };
    }
  });
}

function send(server: ServerReady, probe: Probe): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (probe.contentType) headers['content-type'] = probe.contentType;
  const keyOf: Record<KeyChoice, string | undefined> = {
    valid: server.key,
    none: undefined,
    unknown: wrongKeyLike(server.key),
    disabled: server.disabledKey,
    formValid: undefined,
  };
  const key = keyOf[probe.key];
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const body = probe.key === 'formValid' ? `${probe.body ?? ''}&api_key=${server.key}` : probe.body;
  const path = `/v1/calculate${probe.query === undefined ? '' : `?${probe.query}`}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method: probe.method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const masked = Object.entries(res.headers)
          .filter(([name]) => name !== 'date')
          .map(([name, value]) => `${name}: ${name === 'x-ratelimit-remaining' || name === 'x-ratelimit-reset' ? '*' : String(value)}`)
          .join('\n');
        const text = Buffer.concat(chunks)
          .toString('latin1')
          .replace(/"calculated_at":"[^"]*"/, '"calculated_at":"*"');
        resolve({ status: res.statusCode ?? 0, headers: masked, body: text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const [other, countArg] = process.argv.slice(2);
  if (other === undefined) throw new Error('usage: node dist-bench/bench/httpSameAnswers.js <other-build-dir> [count]');
  const count = Number(countArg ?? 2000);
  const thisBuild = join(import.meta.dirname, '..', '..');
  const shipped = shippedStart(thisBuild);
  const start = (root: string): Promise<ForkedServer<ServerReady>> =>
    forkServer<ServerReady>(join(root, 'dist-bench', 'bench', 'servers', 'httpServer.js'), [], 30_000, {
      execArgv: shipped.nodeArgs,
      env: shipped.env,
    });
  const servers = [await start(thisBuild), await start(other)] as const;
  try {
    const byStatus = new Map<number, number>();
    for (const [index, probe] of probes(count).entries()) {
      const [mine, theirs] = [await send(servers[0].ready, probe), await send(servers[1].ready, probe)];
      if (mine.status !== theirs.status || mine.headers !== theirs.headers || mine.body !== theirs.body) {
        process.stdout.write(
          `request ${index} differs: ${JSON.stringify(probe)}\nthis build:\n${JSON.stringify(mine)}\nother:\n${JSON.stringify(theirs)}\n`,
        );
        process.exitCode = 1;
        return;
      }
      byStatus.set(mine.status, (byStatus.get(mine.status) ?? 0) + 1);
    }
    const statuses = [...byStatus].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${status}: ${n}`);
    process.stdout.write(`${count} requests, every answer the same (status, headers, body bytes); ${statuses.join(', ')}\n`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
