/**
 * The real daemon as a child process: `node dist/cli/main.js serve` with a
 * temp database, loopback-only ephemeral ports and settings passed through
 * the environment variables declared in src/config/*Schema.ts.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Child } from './child.js';
import { freePort, getJson } from './net.js';
import { shippedStart } from './shippedStart.js';
import { makeTempDir, removeDir } from './tempDir.js';
import { FatalWaitError, waitFor } from './time.js';

export interface DaemonOptions {
  repoRoot: string;
  /** Extra environment (MOWABILITY_*), on top of the bench defaults. */
  env?: Record<string, string>;
  /** Written to a JSON file passed as MOWABILITY_CONFIG (e.g. stations). */
  configFile?: Record<string, unknown>;
  straceOutput?: string;
  /** Reuse a directory (and its database) instead of a fresh temp dir. */
  dir?: string;
  nodeArgs?: readonly string[];
}

export interface RunningDaemon {
  child: Child;
  dir: string;
  dbPath: string;
  httpPort: number;
  brokerPort: number;
  /** Removes the temp dir (only when this daemon created it). */
  cleanup(): void;
}

export function cliPath(repoRoot: string): string {
  return join(repoRoot, 'dist', 'cli', 'main.js');
}

export function cliAvailable(repoRoot: string): boolean {
  return existsSync(cliPath(repoRoot));
}

/** `NAME=value NAME2=value2` as an environment (empty when unset); a word that is not NAME=value is refused. */
export function daemonEnvToTry(words: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of (words ?? '').split(/\s+/).filter(Boolean)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
    if (!match) throw new Error(`BENCH_DAEMON_ENV: "${word}" is not NAME=value`);
    env[match[1] as string] = match[2] as string;
  }
  return env;
}

export async function spawnDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? makeTempDir();
  const dbPath = join(dir, 'mowability.db');
  const [httpPort, brokerPort] = [await freePort(), await freePort()];
  // The shipped start path's environment and node flags (package.json's start script); extra flags come later and win.
  // BENCH_PLAIN_START=1 starts a bare `node dist/cli/main.js serve` instead, for before/after comparisons.
  const shipped = process.env.BENCH_PLAIN_START === '1' ? { env: {}, nodeArgs: [] } : shippedStart(options.repoRoot);
  // BENCH_DROP_NODE_ARGS='--single-threaded-gc' starts the shipped path without those flags (one shipped flag against none).
  const dropped = new Set((process.env.BENCH_DROP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean));
  shipped.nodeArgs = shipped.nodeArgs.filter((arg) => !dropped.has(arg));
  const env: NodeJS.ProcessEnv = {
    ...shipped.env,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // Another allocator for the daemon (e.g. LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 npm run bench -- memory).
    ...(process.env.LD_PRELOAD ? { LD_PRELOAD: process.env.LD_PRELOAD } : {}),
    // Variables to try on the daemon (e.g. BENCH_DAEMON_ENV='MALLOC_TRIM_THRESHOLD_=131072 MALLOC_MMAP_THRESHOLD_=65536').
    ...daemonEnvToTry(process.env.BENCH_DAEMON_ENV),
    MOWABILITY_DB_PATH: dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: String(httpPort),
    MOWABILITY_BROKER_HOST: '127.0.0.1',
    MOWABILITY_BROKER_PORT: String(brokerPort),
    MOWABILITY_RATE_LIMIT_MAX: '0',
    MOWABILITY_LOG_LEVEL: 'warn',
    MOWABILITY_TIMEZONE: 'Europe/Berlin',
    ...options.env,
  };
  if (options.configFile) {
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify(options.configFile, null, 2));
    env.MOWABILITY_CONFIG = configPath;
  }
  const spawnOptions: Parameters<typeof Child.spawnNode>[0] = {
    args: [...shipped.nodeArgs, ...(options.nodeArgs ?? []), cliPath(options.repoRoot), 'serve'],
    env,
    cwd: dir,
  };
  if (options.straceOutput !== undefined) spawnOptions.straceOutput = options.straceOutput;
  const child = await Child.spawnNode(spawnOptions);
  return {
    child,
    dir,
    dbPath,
    httpPort,
    brokerPort,
    cleanup: () => {
      if (ownDir) removeDir(dir);
    },
  };
}

/** Waits until GET /health answers 200; returns the milliseconds since the child was spawned. */
export async function waitHealthy(daemon: RunningDaemon, timeoutMs = 10_000): Promise<number> {
  await waitFor(
    async () => {
      if (daemon.child.exited) throw new FatalWaitError(`daemon exited during start-up:\n${daemon.child.tail()}`);
      const { status } = await getJson(daemon.httpPort, '/health', 500);
      return status === 200;
    },
    { timeoutMs, intervalMs: 5, what: `/health 200 on port ${daemon.httpPort}` },
  );
  return performance.now() - daemon.child.startedAtMs;
}
