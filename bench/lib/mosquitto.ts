/** Debian's mosquitto on 127.0.0.1 with persistence in a temp dir, for the broker-restart benchmark. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { LOOPBACK } from './net.js';
import { sleep } from './time.js';

export const MOSQUITTO_BINARY = process.env.MOSQUITTO_BINARY ?? '/usr/sbin/mosquitto';

export function mosquittoAvailable(): boolean {
  return existsSync(MOSQUITTO_BINARY);
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: LOOPBACK, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export class MosquittoProcess {
  #child: ChildProcess | undefined;
  readonly #configPath: string;

  constructor(
    dir: string,
    readonly port: number,
  ) {
    this.#configPath = join(dir, 'mosquitto.conf');
    writeFileSync(
      this.#configPath,
      [`listener ${port} ${LOOPBACK}`, 'allow_anonymous true', `user ${userInfo().username}`, 'persistence true', `persistence_location ${dir}/`, 'autosave_interval 1', 'log_dest none', ''].join('\n'),
    );
  }

  /** Starts and resolves (with the epoch ms) once the port accepts connections. */
  async start(timeoutMs = 5000): Promise<number> {
    const child = spawn(MOSQUITTO_BINARY, ['-c', this.#configPath], { stdio: 'ignore' });
    this.#child = child;
    const deadline = Date.now() + timeoutMs;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`mosquitto did not start on port ${this.port}`);
      await sleep(5);
    }
    return Date.now();
  }

  async stop(signal: NodeJS.Signals): Promise<void> {
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
