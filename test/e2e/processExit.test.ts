/**
 * The built daemon as systemd runs it: it must end by itself after SIGTERM
 * (no open handle left behind, no process.exit to hide one), and an error
 * that escapes every handler must be logged and stop it gracefully.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../helpers/httpCli.js';
import { useDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

/** Preloaded into the daemon: on SIGUSR2 it throws or rejects where nothing catches it, as a stray bug would. */
const FAULT_INJECTOR = `data:text/javascript,${encodeURIComponent(`
process.on('SIGUSR2', () => {
  if (process.env.MOW_TEST_FAULT === 'exception') setImmediate(() => { throw new Error('injected uncaught exception'); });
  else Promise.reject(new Error('injected unhandled rejection'));
});`)}`;

/** Well below the 5 s forced-exit and linger limits: the daemon ends by itself. */
const EXIT_BUDGET_MS = 3000;

/**
 * When the graceful stop's last line ("daemon stopped", written synchronously) reached us. How long the
 * stop takes is up to a loaded disk and CPU (and bounded by the forced exit, whose message the tests
 * refuse); from this line on only a handle left open keeps the process alive.
 */
function stoppedLineSeen(daemon: DaemonProcess): Promise<number> {
  return new Promise((resolve) => {
    const seen = (): void => {
      if (!daemon.output().includes('"msg":"daemon stopped"')) return;
      daemon.child.stdout.off('data', seen);
      resolve(Date.now());
    };
    daemon.child.stdout.on('data', seen);
  });
}

// Built daemons started and stopped (the start alone may take seconds on a loaded machine).
describe('process lifecycle of the built daemon', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  const fixture = useDaemonProcess();
  const env = fixture.env;

  it.each([
    ['HTTP only', { MOWABILITY_BROKER_ENABLED: 'false' }],
    ['HTTP + embedded broker + bridge', { MOWABILITY_BROKER_ENABLED: 'true' }],
  ])('%s: exits 0 on its own soon after SIGTERM, nothing left running', async (_name, extra) => {
    const daemon = await fixture.start(extra);
    expect((await fetch(`${daemon.baseUrl}/health`)).status).toBe(200);
    const stopped = stoppedLineSeen(daemon);
    const code = await daemon.stop('SIGTERM');
    const exitedAt = Date.now();
    expect(code).toBe(0);
    expect(daemon.output()).not.toMatch(/still running|graceful stop took too long/);
    expect(daemon.logLines().some((line) => line.msg === 'daemon stopped')).toBe(true);
    expect(exitedAt - (await stopped)).toBeLessThan(EXIT_BUDGET_MS);
  });

  it('a client holding a connection open (silent, or half a request) does not hold up the stop', async () => {
    const daemon = await fixture.start({ MOWABILITY_BROKER_ENABLED: 'false' });
    const { hostname, port } = new URL(daemon.baseUrl);
    const open = (data?: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          if (data) socket.write(data);
          resolve(socket);
        }).on('error', reject);
      });
    const sockets = [await open(), await open('GET /health HTTP/1.1\r\nHost: x\r\n')];
    try {
      const stopped = stoppedLineSeen(daemon);
      const code = await daemon.stop('SIGTERM');
      const exitedAt = Date.now();
      expect(code).toBe(0);
      expect(daemon.output()).not.toMatch(/graceful stop took too long|still running/);
      expect(exitedAt - (await stopped)).toBeLessThan(EXIT_BUDGET_MS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it.each([
    ['unhandledRejection', 'rejection', 'injected unhandled rejection'],
    ['uncaughtException', 'exception', 'injected uncaught exception'],
  ])('%s: logged, then a graceful stop and exit 1', async (origin, fault, message) => {
    const daemon = await fixture.start({ MOWABILITY_BROKER_ENABLED: 'true', MOW_TEST_FAULT: fault }, [], {
      nodeArgs: [`--import=${FAULT_INJECTOR}`],
    });
    const exited = new Promise<number | null>((resolve) => daemon.child.on('exit', (code) => resolve(code)));
    daemon.child.kill('SIGUSR2');
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), EXIT_BUDGET_MS + 5000))]);
    expect(code).toBe(1);
    const lines = daemon.logLines();
    const fatal = lines.find((line) => line.level === 60);
    expect(fatal).toMatchObject({ origin, err: expect.objectContaining({ message }) });
    // Stopped in order: the history and the database were closed, not cut off.
    const after = lines.slice(lines.indexOf(fatal!));
    expect(after.some((line) => line.msg === 'daemon stopped')).toBe(true);
    expect(daemon.output()).not.toMatch(/graceful stop took too long|still running/);
    await waitFor(() => daemon.child.exitCode !== null);
  });

  it('a taken broker port: exits 1 at once with the reason, nothing left running', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const child = spawn(process.execPath, [BUILT_CLI, 'serve'], {
        env: {
          PATH: process.env.PATH ?? '',
          ...env({
            MOWABILITY_HTTP_HOST: '127.0.0.1',
            MOWABILITY_HTTP_PORT: '0',
            MOWABILITY_BROKER_ENABLED: 'true',
            MOWABILITY_BROKER_PORT: String((blocker.address() as AddressInfo).port),
          }),
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain('the port is already in use');
      // The broker's own timers used to outlive the failed start: the process lingered 5 s, then said so.
      expect(stderr).not.toMatch(/still running/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
