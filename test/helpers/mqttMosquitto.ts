/** Runs Debian's mosquitto on 127.0.0.1 with a temp config and persistence, for external-broker tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

export const MOSQUITTO_BINARY = process.env.MOSQUITTO_BINARY ?? '/usr/sbin/mosquitto';

export function mosquittoAvailable(): boolean {
  return existsSync(MOSQUITTO_BINARY);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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

export class Mosquitto {
  #child: ChildProcess | undefined;
  #output = '';
  readonly configPath: string;

  constructor(
    readonly dir: string,
    readonly port: number,
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
        '',
      ].join('\n'),
    );
  }

  get output(): string {
    return this.#output;
  }

  async start(timeoutMs = 5000): Promise<void> {
    const child = spawn(MOSQUITTO_BINARY, ['-c', this.configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    child.stdout?.on('data', (chunk) => (this.#output += String(chunk)));
    child.stderr?.on('data', (chunk) => (this.#output += String(chunk)));
    const deadline = Date.now() + timeoutMs;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`mosquitto did not start on port ${this.port}:\n${this.#output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }

  /** SIGTERM (mosquitto writes its persistence file) and wait for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
