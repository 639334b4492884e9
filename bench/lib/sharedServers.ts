/**
 * Real PostgreSQL and Redis servers from the Debian packages (`postgresql`,
 * `redis-server`; .ci/run installs them) for the multi-instance tests and a
 * future two-instance benchmark (test/helpers/sharedServers.ts re-exports
 * them): each on 127.0.0.1, a free port and a temp directory. PostgreSQL
 * refuses to run as root, so as root its binaries run as the `postgres` user
 * (runuser) on a directory chowned to it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitUntilPortOpen } from './mosquitto.js';

const run = promisify(execFile);
export const REDIS_BINARY = '/usr/bin/redis-server';

/** The newest installed PostgreSQL's bin directory, or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root; a failure says what the binary printed. */
async function pgRun(bin: string, args: string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    await run(file, argv, { timeout: 60_000 });
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`${(err as Error).message.trim()}\n${stderr ?? ''}${stdout ?? ''}`.trim(), { cause: err });
  }
}

export class PostgresServer {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  /** initdb on a temp directory, then start on a free port (trust auth on loopback; no fsync: test data). */
  static async start(): Promise<PostgresServer> {
    const bin = postgresBin();
    if (!bin) throw new Error('PostgreSQL is not installed');
    const dir = mkdtempSync(join(tmpdir(), 'mow-pg-'));
    if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout), Number((await run('id', ['-g', 'postgres'])).stdout));
    await pgRun(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    const server = new PostgresServer(dir, await freePort(), bin);
    await server.resume();
    return server;
  }

  /** A URL for a fresh database of this server (one per test file keeps files independent). */
  async createDatabase(name: string): Promise<string> {
    const createdb = (): Promise<void> =>
      pgRun(join(this.bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', name]);
    try {
      await createdb();
    } catch (first) {
      // On a loaded machine (CI) the first connection over TCP has failed right after `pg_ctl -w start`
      // said ready: wait until the server accepts connections on that address, then once more, and
      // fail with both messages and the server's log.
      try {
        await pgRun(join(this.bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-t', '60']);
        await createdb();
      } catch (second) {
        throw new Error(
          `createdb ${name} failed twice:\n${(first as Error).message}\n${(second as Error).message}\nserver log:\n${this.logTail()}`,
          { cause: second },
        );
      }
    }
    return `postgres://postgres@127.0.0.1:${this.port}/${name}`;
  }

  /** The end of the server's log, for a failure's message. */
  private logTail(): string {
    try {
      return readFileSync(join(this.dir, 'server.log'), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no server log)';
    }
  }

  /**
   * The cluster's processes: the postmaster (first line of postmaster.pid) and its children (one backend
   * per connection, the checkpointer, ...). Stopping all of them (SIGSTOP) is what a black-holed network
   * looks like to a client: connections stay up, nothing answers, new connections are accepted by the
   * kernel and never greeted.
   */
  pids(): number[] {
    const postmaster = Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          // Field 4 of /proc/PID/stat is the parent's pid; the command (field 2) is in parentheses and may hold spaces.
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  async halt(): Promise<void> {
    await pgRun(join(this.bin, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  /** Starts it (again) on the same port and data. */
  async resume(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
    await pgRun(join(this.bin, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-l', join(this.dir, 'server.log'), '-o', options, '-w', 'start']);
  }

  async stop(): Promise<void> {
    await this.halt().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export class RedisServer {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The redis-server process, e.g. to stop it with SIGSTOP (a stalled server whose connections stay up). */
  get pid(): number {
    if (this.child.pid === undefined) throw new Error('redis-server did not start');
    return this.child.pid;
  }

  static async start(): Promise<RedisServer> {
    const port = await freePort();
    const child = spawn(REDIS_BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitUntilPortOpen(port);
    return new RedisServer(port, child);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
