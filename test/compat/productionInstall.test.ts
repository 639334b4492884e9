/**
 * A production install from a release tarball, as README.md's "Install on a Raspberry Pi" does it:
 * `npm pack`, unpack, `npm install --omit=dev` (no TypeScript, so prepare must keep the shipped
 * dist/), then the CLI runs. The sqlite3 addon is not compiled again here (minutes on a Pi-sized
 * machine, and `npm ci` in CI already builds it): the install skips scripts, the project's build
 * of the same sqlite3 version is copied in, and prepare is run as npm would run it.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SQLITE_ADDON = join('node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
/** npm talks to the registry (or its cache) here; bounded so a hung install fails instead of stalling CI. */
const INSTALL_TIMEOUT_MS = 180_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function version(dir: string, name: string): string {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

describe('production install from the release tarball', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let app: string;
  let packedFiles: string[];

  beforeAll(async () => {
    assertBuilt();
    temp = makeTempDir();
    // dist/ is already built (npm test builds first); --ignore-scripts keeps pack from rebuilding it.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp.dir], ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const [manifest] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packedFiles = manifest!.files.map((file) => file.path);
    app = join(temp.dir, 'mowability');
    mkdirSync(app);
    const unpacked = await run('tar', ['-xzf', join(temp.dir, manifest!.filename), '-C', app, '--strip-components=1'], temp.dir);
    expect(unpacked.code, unpacked.stderr).toBe(0);
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => temp?.cleanup());

  it('ships the build, the unit and the docs, but no sources or tests', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/cli/main.js',
        'public/index.html',
        'public/assets/app.js',
        'scripts/prepare.mjs',
        'systemd/mowability.service',
        'README.md',
        'package.json',
      ]),
    );
    expect(packedFiles.filter((path) => /^(src|test|bench)\//.test(path) || path.endsWith('.ts'))).toEqual([]);
  });

  it(
    'installs without dev dependencies, keeps the shipped dist/ and runs the CLI',
    async () => {
      const installed = await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--prefer-offline'], app);
      expect(installed.code, installed.stderr).toBe(0);
      expect(existsSync(join(app, 'node_modules', 'typescript'))).toBe(false);
      expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);

      // The step that failed with "tsc: not found" before.
      const prepared = await run('npm', ['run', 'prepare'], app);
      expect(prepared.code, prepared.stderr).toBe(0);
      expect(prepared.stdout).toContain('using the shipped dist/');

      expect(version(app, 'sqlite3')).toBe(version(ROOT, 'sqlite3'));
      mkdirSync(dirname(join(app, SQLITE_ADDON)), { recursive: true });
      copyFileSync(join(ROOT, SQLITE_ADDON), join(app, SQLITE_ADDON));

      const help = await run(process.execPath, [join(app, 'dist', 'cli', 'main.js'), '--help'], app);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain('Usage: mowability <command>');
      const shown = await run(process.execPath, [join(app, 'dist', 'cli', 'main.js'), '--version'], app);
      expect(shown.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
      // A command that creates and writes a database: the production dependencies alone carry the daemon's store.
      const keys = await run(
        process.execPath,
        [join(app, 'dist', 'cli', 'main.js'), 'keys', 'add', 'tarball-check', '--db-path', join(temp.dir, 'prod.db')],
        app,
      );
      expect(keys.code, keys.stderr).toBe(0);
      expect(keys.stdout).toMatch(/mow_/);
    },
    INSTALL_TIMEOUT_MS,
  );
});
