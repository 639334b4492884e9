/**
 * The documented systemd unit, simulated as closely as a machine without systemd as PID 1 allows,
 * inside a directory standing in for `/` (paths under /opt, /etc, /usr/local, /var/lib and /run
 * are mapped into it): a dynamic-user-like uid, `UMask=`, `StateDirectory=` with its mode,
 * `Environment=`, `EnvironmentFile=` read as root, `LoadCredential=` copied into a credentials
 * directory only the service's uid can read, and `INVOCATION_ID`. The admin wrapper
 * (systemd/mowability) runs against stand-ins for `systemctl show` and `systemd-run` that answer
 * from the same unit (its credentials copied the same way for the run). Needs root (CI runs as root).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './wait.js';

/** In systemd's range for DynamicUser= (61184-65519). */
export const DYNAMIC_UID = 61234;

/** Maps the absolute paths the README and the unit use into the stand-in root. */
export function mapPaths(root: string, text: string): string {
  return text
    .replace(/(?<![\w.\-/])\/(opt|etc|usr\/local|var\/lib|run)\//g, `${root}/$1/`)
    .replace(/(?<![\w.\-/])\/usr\/bin\/node(?=\s|$)/g, process.execPath);
}

/** The unit's file and its drop-ins (in name order). */
function unitFiles(root: string, unit: string): string[] {
  const dir = join(root, 'etc', 'systemd', 'system');
  const dropInDir = join(dir, `${unit}.d`);
  return [
    join(dir, unit),
    ...(existsSync(dropInDir)
      ? readdirSync(dropInDir)
          .filter((name) => name.endsWith('.conf'))
          .sort()
          .map((name) => join(dropInDir, name))
      : []),
  ];
}

/** `[Service]` directives of the unit and its drop-ins (in name order), in order; comments dropped. */
export function serviceDirectives(root: string, unit = 'mowability.service'): Array<[string, string]> {
  const files = unitFiles(root, unit);
  const directives: Array<[string, string]> = [];
  for (const file of files) {
    let section = '';
    for (const raw of readFileSync(file, 'utf8').split('\n')) {
      const line = raw.trim();
      if (line.startsWith('[')) section = line;
      else if (section === '[Service]' && line !== '' && !line.startsWith('#')) {
        const at = line.indexOf('=');
        directives.push([line.slice(0, at), line.slice(at + 1)]);
      }
    }
  }
  return directives;
}

/** KEY=VALUE lines of an environment file, quotes removed, comments skipped (systemd.exec(5), EnvironmentFile=). */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match || line.startsWith('#')) continue;
    const value = match[2] as string;
    env[match[1] as string] = /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

export interface SimulatedService {
  child: ChildProcess;
  output(): string;
  /** The URL from the "HTTP server listening" line. */
  httpPort: number;
  stop(): Promise<void>;
}

function values(directives: Array<[string, string]>, name: string): string[] {
  return directives.filter(([key]) => key === name).map(([, value]) => value);
}

function chown(path: string): void {
  chownSync(path, DYNAMIC_UID, DYNAMIC_UID);
}

/** The environment systemd gives the service: Environment= lines, then EnvironmentFile= files (read as root). */
export function unitEnvironment(root: string, directives: Array<[string, string]>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values(directives, 'Environment')) {
    for (const assignment of value.split(/\s+/)) {
      const at = assignment.indexOf('=');
      env[assignment.slice(0, at)] = mapPaths(root, assignment.slice(at + 1));
    }
  }
  for (const value of values(directives, 'EnvironmentFile')) {
    const optional = value.startsWith('-');
    const file = mapPaths(root, optional ? value.slice(1) : value);
    if (!existsSync(file)) {
      if (optional) continue;
      throw new Error(`EnvironmentFile ${file} is missing: systemd would not start the unit`);
    }
    Object.assign(env, parseEnvironmentFile(readFileSync(file, 'utf8')));
  }
  return env;
}

/** What the systemctl and systemd-run stand-ins answer for the unit (see writeServiceStubs). */
export function writeUnitAnswers(root: string, stubs: string, directives: Array<[string, string]> = serviceDirectives(root)): void {
  const assignments = values(directives, 'Environment')
    .flatMap((value) => value.split(/\s+/))
    .map((assignment) => mapPaths(root, assignment));
  writeFileSync(join(stubs, 'environment'), `${assignments.join(' ')}\n`);
  const files = values(directives, 'EnvironmentFile').map(
    (value) => `${mapPaths(root, value.replace(/^-/, ''))} (ignore_errors=${value.startsWith('-') ? 'yes' : 'no'})`,
  );
  writeFileSync(join(stubs, 'envfiles'), `${files.join('\n')}\n`);
  // `systemctl cat`: each file under a comment naming it, paths mapped like the rest.
  writeFileSync(
    join(stubs, 'unit'),
    unitFiles(root, 'mowability.service')
      .map((file) => `# ${file}\n${mapPaths(root, readFileSync(file, 'utf8'))}\n`)
      .join(''),
  );
}

/** Starts the unit as systemd would (systemctl start) and waits for its HTTP server. */
export async function startSimulatedUnit(root: string, stubs: string): Promise<SimulatedService> {
  const directives = serviceDirectives(root);
  writeUnitAnswers(root, stubs, directives);
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    INVOCATION_ID: randomUUID().replaceAll('-', ''),
    ...unitEnvironment(root, directives),
  };
  for (const name of values(directives, 'StateDirectory')) {
    const dir = join(root, 'var', 'lib', name);
    mkdirSync(dir, { recursive: true });
    chown(dir);
    chmodSync(dir, Number.parseInt(values(directives, 'StateDirectoryMode')[0] ?? '0755', 8));
  }
  const credentials = values(directives, 'LoadCredential');
  if (credentials.length > 0) {
    const dir = join(root, 'run', 'credentials', 'mowability.service');
    mkdirSync(dir, { recursive: true });
    for (const credential of credentials) {
      const at = credential.indexOf(':');
      const source = mapPaths(root, credential.slice(at + 1));
      // systemd reads the source as root; a missing file fails the start.
      writeFileSync(join(dir, credential.slice(0, at)), readFileSync(source), { mode: 0o400 });
      chown(join(dir, credential.slice(0, at)));
    }
    chown(dir);
    chmodSync(dir, 0o500);
    env.CREDENTIALS_DIRECTORY = dir;
  }
  const exec = mapPaths(root, values(directives, 'ExecStart')[0] ?? '').split(/\s+/);
  const umask = values(directives, 'UMask')[0] ?? '0022';
  const child = spawn('sh', ['-c', `umask ${umask} && exec "$@"`, 'sh', ...exec], {
    uid: DYNAMIC_UID,
    gid: DYNAMIC_UID,
    cwd: mapPaths(root, values(directives, 'WorkingDirectory')[0] ?? '/'),
    env,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let port = 0;
  await waitUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
      port = Number(/"msg":"HTTP server listening on http:\/\/[^:]+:(\d+)"/.exec(output)?.[1] ?? 0);
      return port > 0;
    },
    'the service listening',
    20_000,
  );
  return {
    child,
    output: () => output,
    httpPort: port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `systemctl` and `systemd-run` stand-ins in `stubs` for the admin wrapper; startSimulatedUnit writes their answers. */
export function writeServiceStubs(stubs: string): void {
  mkdirSync(stubs, { recursive: true });
  writeFileSync(
    join(stubs, 'systemctl'),
    `#!/bin/sh
case "$*" in
  *--property=Environment\\ *) cat "${stubs}/environment" ;;
  *--property=EnvironmentFiles*) cat "${stubs}/envfiles" ;;
  cat\\ *) cat "${stubs}/unit" ;;
  *) echo "systemctl stand-in: unexpected $*" >&2; exit 1 ;;
esac
`,
    { mode: 0o755 },
  );
  // systemd-run --pipe --wait: the command as the dynamic user, with -E variables, -p EnvironmentFile= files
  // and -p LoadCredential= files (copied, read as root, into a directory only that user can read).
  writeFileSync(
    join(stubs, 'systemd-run'),
    `#!${process.execPath}
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const args = process.argv.slice(2);
const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };
const parse = ${parseEnvironmentFile.toString()};
const credentials = [];
let uid;
while (args.length > 0 && args[0].startsWith('-')) {
  const flag = args.shift();
  if (flag === '-E') { const a = args.shift(); env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1); }
  else if (flag === '-p') {
    const p = args.shift();
    if (p === 'DynamicUser=yes') uid = ${DYNAMIC_UID};
    else if (p.startsWith('EnvironmentFile=')) { const f = p.slice(16).replace(/^-/, ''); if (existsSync(f)) Object.assign(env, parse(readFileSync(f, 'utf8'))); }
    else if (p.startsWith('LoadCredential=')) credentials.push(p.slice(15));
  }
}
let dir;
if (credentials.length > 0) {
  dir = mkdtempSync(join(tmpdir(), 'mow-run-credentials-'));
  for (const credential of credentials) {
    const at = credential.indexOf(':');
    const file = join(dir, credential.slice(0, at));
    writeFileSync(file, readFileSync(credential.slice(at + 1)), { mode: 0o400 });
    if (uid) chownSync(file, uid, uid);
  }
  if (uid) chownSync(dir, uid, uid);
  chmodSync(dir, 0o500);
  env.CREDENTIALS_DIRECTORY = dir;
}
const result = spawnSync(args[0], args.slice(1), { stdio: 'inherit', env, ...(uid ? { uid, gid: uid } : {}) });
if (dir) rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
`,
    { mode: 0o755 },
  );
}
