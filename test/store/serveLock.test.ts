import { spawn } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseInUseError, ServeLock } from '../../src/store/serveLock.js';
import { EXIT_CONFIG } from '../../src/config/load.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

// Three built daemons and a CLI run, one after the other: 5 s on a quiet machine, 20 s on a loaded one.
describe('one serve per database', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  let temp: ReturnType<typeof makeTempDir>;
  const daemons: DaemonProcess[] = [];
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    for (const daemon of daemons.splice(0)) await daemon.stop('SIGKILL');
    temp.cleanup();
  });

  it('refuses a second lock on the same database in one process, and gives it up on release', async () => {
    const first = await ServeLock.acquire(temp.dbPath);
    const second = ServeLock.acquire(temp.dbPath);
    await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(second).rejects.toThrow(temp.dbPath);
    await first?.release();
    const third = await ServeLock.acquire(temp.dbPath);
    expect(third).not.toBeNull();
    await third?.release();
    expect(await ServeLock.acquire(':memory:')).toBeNull();
  });

  it('regression: a symlink to the same database (file or directory) finds the same lock', async () => {
    const first = await ServeLock.acquire(temp.dbPath);
    try {
      // Before the database exists (first start): a symlink to the file it will be.
      const early = join(temp.dir, 'early.db');
      symlinkSync(temp.dbPath, early);
      await expect(ServeLock.acquire(early)).rejects.toBeInstanceOf(DatabaseInUseError);
      writeFileSync(temp.dbPath, '');
      const fileLink = join(temp.dir, 'link.db');
      symlinkSync(temp.dbPath, fileLink);
      await expect(ServeLock.acquire(fileLink)).rejects.toBeInstanceOf(DatabaseInUseError);
      const directoryLink = join(temp.dir, 'data-link');
      symlinkSync(dirname(temp.dbPath), directoryLink);
      await expect(ServeLock.acquire(join(directoryLink, basename(temp.dbPath)))).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(ServeLock.acquire(join(directoryLink, '.', basename(temp.dbPath)))).rejects.toBeInstanceOf(DatabaseInUseError);
    } finally {
      await first?.release();
    }
  });

  it('regression: a second real `serve` exits 78 naming the path and the PID; the admin CLI works meanwhile; after SIGKILL a new serve starts', async () => {
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_LOG_LEVEL: 'info' };
    const first = await startDaemonProcess(env);
    daemons.push(first);

    const second = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [BUILT_CLI, 'serve'], {
        env: {
          PATH: process.env.PATH ?? '',
          MOWABILITY_HTTP_HOST: '127.0.0.1',
          MOWABILITY_HTTP_PORT: '0',
          MOWABILITY_BROKER_ENABLED: 'false',
          ...env,
        },
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      child.stderr.on('data', (chunk) => (output += String(chunk)));
      child.on('exit', (code) => resolve({ code, output }));
    });
    expect(second.code).toBe(EXIT_CONFIG);
    expect(second.output).toContain(
      `mowability serve: database ${temp.dbPath} is already in use by mowability serve (PID ${first.child.pid}`,
    );
    expect(second.output).toContain('MOWABILITY_DB_PATH');

    const admin = await runBuiltCli(['maintenance', 'status'], env);
    expect(admin).toMatchObject({ code: 0, stdout: 'Maintenance mode is off.\n' });

    expect(await first.stop('SIGKILL')).toBeNull();
    const third = await startDaemonProcess(env);
    daemons.push(third);
    const health = await fetch(`${third.baseUrl}/health`);
    expect(health.status).toBe(200);
  });
});
