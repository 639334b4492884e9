/** Runs the admin CLI in-process with captured output, or the built executable as a child process. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { CliIo } from '../../src/cli/io.js';
import { makeTempDir } from './httpTempDir.js';

export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run "npm run build" first (npm test does).`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliInProcess(argv: string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    shutdownSignal: () => new Promise(() => undefined),
    forceExit: () => {
      throw new Error('forceExit called');
    },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** The built CLI in a child process; `stdin`, when given, is its standard input. */
export function runBuiltCli(argv: string[], env: Record<string, string>, node = process.execPath, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [BUILT_CLI, ...argv], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    // Without input the CLI sees end-of-file at once, as with stdin ignored.
    child.stdin.end(stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The admin CLI per test against a fresh temp dir and database (removed after each test). */
export interface CliFixture {
  /** This test's temp dir (its database is `dbPath`). */
  readonly temp: ReturnType<typeof makeTempDir>;
  /** The CLI's environment: this test's database, time zone UTC, then what `extraEnv` added. */
  readonly env: Record<string, string>;
  /** Runs the CLI in-process with `env`. */
  cli: (...argv: string[]) => Promise<CliResult>;
}

/** `extraEnv` runs in each test's beforeEach with its temp dir (e.g. to write a config file there). */
export function useCliTempDir(extraEnv: (temp: ReturnType<typeof makeTempDir>) => Record<string, string> = () => ({})): CliFixture {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  let env: Record<string, string> | undefined;
  beforeEach(() => {
    const dir = makeTempDir();
    temp = dir;
    env = { MOWABILITY_DB_PATH: dir.dbPath, MOWABILITY_TIMEZONE: 'UTC', ...extraEnv(dir) };
  });
  afterEach(() => temp?.cleanup());
  const inTest = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useCliTempDir: the temp dir exists only inside a test');
    return value;
  };
  return {
    get temp() {
      return inTest(temp);
    },
    get env() {
      return inTest(env);
    },
    cli: (...argv) => runCliInProcess(argv, inTest(env)),
  };
}
