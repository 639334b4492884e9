/**
 * Child processes for benchmarks: spawn, keep the last output lines for
 * diagnostics, signal, and wait for exit with a bound. Optionally under
 * strace, in which case `pid` is the traced node process, not strace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readlinkSync, realpathSync } from 'node:fs';
import { childPids } from './proc.js';
import { straceArgs } from './strace.js';
import { waitFor } from './time.js';

export interface SpawnOptions {
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Trace fsync/fdatasync into this file. */
  straceOutput?: string;
  /** Fork-style IPC channel (node children only, ignored under strace). */
  ipc?: boolean;
}

/** Whether process `pid` has exec'd `binary` (false once it is gone). */
function runs(pid: number, binary: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`) === binary;
  } catch {
    return false;
  }
}

export class Child {
  readonly process: ChildProcess;
  /** Pid of the node process (the tracee when running under strace). */
  pid = 0;
  readonly startedAtMs: number;
  readonly output: string[] = [];
  readonly #exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited = false;
  #lineListeners: ((line: string) => void)[] = [];

  private constructor(child: ChildProcess, startedAtMs: number) {
    this.process = child;
    this.startedAtMs = startedAtMs;
    this.#exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        resolve({ code, signal });
      });
    });
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        pending += chunk;
        let newline = pending.indexOf('\n');
        while (newline >= 0) {
          this.#pushLine(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          newline = pending.indexOf('\n');
        }
      });
    }
  }

  #pushLine(line: string): void {
    // BENCH_DAEMON_OUTPUT=/tmp/x.txt keeps every line the daemon prints (V8's --trace-* flags write to stdout), not only the last 200.
    if (process.env.BENCH_DAEMON_OUTPUT) appendFileSync(process.env.BENCH_DAEMON_OUTPUT, `${this.pid} ${line}\n`);
    this.output.push(line);
    if (this.output.length > 200) this.output.shift();
    for (const listener of this.#lineListeners) listener(line);
  }

  onLine(listener: (line: string) => void): void {
    this.#lineListeners.push(listener);
  }

  static async spawnNode(options: SpawnOptions): Promise<Child> {
    const nodeArgs = [...options.args];
    const traced = options.straceOutput !== undefined;
    const command = traced ? 'strace' : process.execPath;
    const args = traced ? straceArgs(options.straceOutput as string, process.execPath, nodeArgs) : nodeArgs;
    const stdio: ('pipe' | 'ipc')[] = ['pipe', 'pipe', 'pipe'];
    if (options.ipc && !traced) stdio.push('ipc');
    const startedAtMs = performance.now();
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio });
    const wrapper = new Child(child, startedAtMs);
    if (!traced) {
      wrapper.pid = child.pid ?? 0;
    } else {
      const outerPid = child.pid ?? 0;
      // strace forks short-lived test children of its own (its seccomp-filter probe) before the tracee; take the child that runs node.
      const nodeBinary = realpathSync(process.execPath);
      wrapper.pid = await waitFor(() => childPids(outerPid).find((pid) => runs(pid, nodeBinary)), {
        timeoutMs: 5000,
        intervalMs: 5,
        what: 'the traced process',
      });
    }
    return wrapper;
  }

  /** Sends a signal to the node process (under strace, to the tracee; strace exits with it). */
  kill(signal: NodeJS.Signals): void {
    if (this.exited) return;
    try {
      process.kill(this.pid, signal);
    } catch {
      // already gone
    }
  }

  waitExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.#exit;
  }

  /** Resolves with the exit status, or null if the process did not exit within `timeoutMs`. */
  async waitExitWithin(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const result = await Promise.race([this.#exit, timeout]);
    clearTimeout(timer);
    return result;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; always leaves no process behind. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.exited) return;
    this.kill('SIGTERM');
    if ((await this.waitExitWithin(graceMs)) === null) {
      this.kill('SIGKILL');
      this.process.kill('SIGKILL');
      await this.#exit;
    }
  }

  /** The last lines of output, for error messages. */
  tail(lines = 20): string {
    return this.output.slice(-lines).join('\n');
  }
}
