/** Forked helper processes (bench/servers/*) that report readiness over IPC. */
import { fork, type ChildProcess } from 'node:child_process';

export interface ForkedServer<Ready> {
  child: ChildProcess;
  ready: Ready;
  /** Bytes the helper has written to its stdout so far (drained and discarded). */
  stdoutBytes(): number;
  request<T>(message: string, timeoutMs?: number): Promise<T>;
  stop(timeoutMs?: number): Promise<void>;
}

/** How the helper's node runs: its flags and extra environment (e.g. the shipped start's, ./shippedStart.ts). */
export interface ForkOptions {
  execArgv?: readonly string[];
  env?: Record<string, string>;
}

export async function forkServer<Ready>(
  modulePath: string,
  args: readonly string[] = [],
  timeoutMs = 15_000,
  options: ForkOptions = {},
): Promise<ForkedServer<Ready>> {
  const child = fork(modulePath, [...args], {
    // stdout is a pipe, drained and discarded here: the daemon's log goes to a pipe or socket in production (journald,
    // Docker), where each write() costs more than on /dev/null, so the log's cost is measured as it is paid there.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    execArgv: [...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env },
  });
  let stdoutBytes = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${modulePath} not ready after ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${modulePath} exited with ${code} before it was ready:\n${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    child,
    ready,
    stdoutBytes: () => stdoutBytes,
    request<T>(message: string, requestTimeoutMs = 5000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${message}`)), requestTimeoutMs);
        child.once('message', (answer) => {
          clearTimeout(timer);
          resolve(answer as T);
        });
        child.send(message);
      });
    },
    async stop(stopTimeoutMs = 5000): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
