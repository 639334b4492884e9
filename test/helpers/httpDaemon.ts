/** Starts the built daemon (`node dist/cli/main.js serve`) as a child process and reads its JSON log. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, beforeEach } from 'vitest';
import { BUILT_CLI, assertBuilt } from './httpCli.js';
import { makeTempDir, waitFor } from './httpTempDir.js';

export interface DaemonProcess {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  logLines(): Array<Record<string, unknown>>;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process has exited on its own (null: killed by a signal). */
  exited: Promise<number | null>;
}

export interface DaemonProcessOptions {
  /** A command that runs node, e.g. a sandbox helper: [helper, arg, '--']; node and its arguments follow. */
  launcher?: readonly string[];
  /** The Node.js binary to run it with (the compatibility tests pass another version's). */
  node?: string;
  /** Arguments for node before the script (e.g. `--import` a fault injector). */
  nodeArgs?: readonly string[];
}

/** Bounds a daemon that never listens: a start takes about a second, over 15 s on a loaded 2-core machine. */
const START_DEADLINE_MS = 30_000;

export async function startDaemonProcess(
  env: Record<string, string>,
  args: string[] = [],
  options: DaemonProcessOptions = {},
): Promise<DaemonProcess> {
  assertBuilt();
  const [command, ...prefix] = [...(options.launcher ?? []), options.node ?? process.execPath, ...(options.nodeArgs ?? [])];
  const child = spawn(command as string, [...prefix, BUILT_CLI, 'serve', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_ENABLED: 'false',
      MOWABILITY_BROKER_PORT: '0',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));

  const logLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const listening = () => logLines().find((line) => typeof line.url === 'string' && String(line.msg).startsWith('HTTP server listening'));

  try {
    await waitFor(() => {
      if (exitedEarly) throw new Error(`daemon exited during start:\n${stdout}\n${stderr}`);
      return listening() !== undefined;
    }, START_DEADLINE_MS);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    child,
    baseUrl: String(listening()?.url),
    logLines,
    output: () => `${stdout}\n${stderr}`,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (!exitedEarly) child.kill(signal);
      return exited;
    },
  };
}

/** The built daemon per test: a fresh temp dir and database, the daemon killed and the dir removed after each test. */
export interface DaemonProcessFixture {
  /** This test's temp dir (its database is `dbPath`). */
  readonly temp: ReturnType<typeof makeTempDir>;
  /** The daemon's environment: this test's database, time zone UTC, then `extra`. */
  env: (extra?: Record<string, string>) => Record<string, string>;
  /** Starts the daemon with `env(extra)`; it is killed after the test if still running. */
  start(extra?: Record<string, string>, args?: string[], options?: DaemonProcessOptions): Promise<DaemonProcess>;
}

export function useDaemonProcess(): DaemonProcessFixture {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  let daemon: DaemonProcess | undefined;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    if (daemon && daemon.child.exitCode === null) await daemon.stop('SIGKILL');
    daemon = undefined;
    temp?.cleanup();
  });
  const fixture: DaemonProcessFixture = {
    get temp() {
      if (!temp) throw new Error('useDaemonProcess: the temp dir exists only inside a test');
      return temp;
    },
    env: (extra = {}) => ({ MOWABILITY_DB_PATH: fixture.temp.dbPath, MOWABILITY_TIMEZONE: 'UTC', ...extra }),
    async start(extra = {}, args = [], options = {}) {
      daemon = await startDaemonProcess(fixture.env(extra), args, options);
      return daemon;
    },
  };
  return fixture;
}
