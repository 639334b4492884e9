/** Runs Debian's mosquitto on 127.0.0.1 with a temp config and persistence: the external broker of the benchmarks and of the external-broker tests (they import it from here). */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

export const MOSQUITTO_BINARY = process.env.MOSQUITTO_BINARY ?? '/usr/sbin/mosquitto';

export function mosquittoAvailable(): boolean {
  return existsSync(MOSQUITTO_BINARY);
}

/** A port that was free a moment ago; another process may take it before mosquitto binds (see onFreePort). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Mosquitto could not bind its port: someone took it after freePort() chose it. Retry on another one. */
export class MosquittoPortInUseError extends Error {}

/**
 * Runs `attempt` with a fresh free port, again with a new port (up to `attempts` times) when it
 * fails because mosquitto could not bind. `attempt` cleans up what it started before rethrowing.
 */
export async function onFreePort<T>(attempt: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let tried = 1; ; tried++) {
    const port = await freePort();
    try {
      return await attempt(port);
    } catch (err) {
      if (!(err instanceof MosquittoPortInUseError) || tried >= attempts) throw err;
    }
  }
}

/** Starts a mosquitto (or a subclass, via `create`) on a free port, retrying when the port was taken meanwhile. */
export function startMosquitto<T extends Mosquitto>(
  dir: string,
  create: (dir: string, port: number) => T = (d, p) => new Mosquitto(d, p) as T,
): Promise<T> {
  return onFreePort(async (port) => {
    const broker = create(dir, port);
    await broker.start();
    return broker;
  });
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Resolves with the time (epoch ms) at which a TCP connect to the port first succeeds; throws after `timeoutMs`. */
export async function waitUntilPortOpen(port: number, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!(await portOpen(port))) {
    if (Date.now() > deadline) throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now();
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export class Mosquitto {
  #child: ChildProcess | undefined;
  #output = '';
  readonly configPath: string;

  constructor(
    readonly dir: string,
    readonly port: number,
    readonly binary: string = MOSQUITTO_BINARY,
  ) {
    this.configPath = join(dir, 'mosquitto.conf');
    writeFileSync(
      this.configPath,
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        // Run as ourselves: as root, mosquitto would switch to user "mosquitto", who cannot write the temp dir.
        `user ${userInfo().username}`,
        'persistence true',
        `persistence_location ${dir}/`,
        'persistence_file mosquitto.db',
        'log_dest stderr',
        'log_type error',
        'log_type warning',
        // For "mosquitto version ... running": the listeners are bound (a port check alone could find another process).
        'log_type information',
        '',
      ].join('\n'),
    );
  }

  get output(): string {
    return this.#output;
  }

  /**
   * Starts mosquitto and resolves once it runs and accepts connections. Throws
   * MosquittoPortInUseError when the port is taken, and a clear error when
   * the binary is missing or mosquitto does not come up within `timeoutMs`.
   */
  async start(timeoutMs = 5000): Promise<void> {
    const from = this.#output.length;
    const child = spawn(this.binary, ['-c', this.configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let spawnError: Error | undefined;
    child.once('error', (err) => (spawnError = err));
    this.#child = child;
    child.stdout?.on('data', (chunk) => (this.#output += String(chunk)));
    child.stderr?.on('data', (chunk) => (this.#output += String(chunk)));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const output = this.#output.slice(from);
      if (spawnError) {
        this.#child = undefined;
        throw new Error(
          `cannot run mosquitto at ${this.binary} (${spawnError.message}); install the Debian package "mosquitto" or set MOSQUITTO_BINARY`,
        );
      }
      if (exited(child)) {
        this.#child = undefined;
        if (/address already in use/i.test(output)) throw new MosquittoPortInUseError(`port ${this.port} is already in use:\n${output}`);
        throw new Error(`mosquitto exited (${child.exitCode ?? child.signalCode}) instead of starting on port ${this.port}:\n${output}`);
      }
      if (/mosquitto version \S+ running/.test(output) && (await portOpen(this.port))) return;
      if (Date.now() > deadline) {
        await this.stop('SIGKILL');
        throw new Error(`mosquitto did not start on port ${this.port} within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }

  /** SIGTERM (mosquitto writes its persistence file) and wait for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || exited(child)) return;
    const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(timer);
  }
}

/** Saves its persistence file every second, so a SIGKILL loses at most a second of sessions and queued messages. */
export class AutosavingMosquitto extends Mosquitto {
  constructor(dir: string, port: number) {
    super(dir, port);
    appendFileSync(this.configPath, 'autosave_interval 1\n');
  }
}
