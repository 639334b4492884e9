import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/httpCli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/httpDaemon.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

/** The daemon polls for CLI changes this often here (default 1000 ms), which also exercises the setting. */
const CHANGE_POLL_INTERVAL_MS = '50';
/** Generous: the waits return as soon as the change shows, this only bounds a broken daemon. */
const CHANGE_DEADLINE_MS = 10_000;
const POLL_STEP_MS = 50;

// A built daemon and CLI processes in each test (the start alone may take seconds on a loaded machine).
describe('end to end: the built daemon over real HTTP, administered by the built CLI', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  let temp: ReturnType<typeof makeTempDir>;
  let env: Record<string, string>;
  let daemon: DaemonProcess | undefined;

  beforeEach(() => {
    temp = makeTempDir();
    env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_DB_CHANGE_POLL_INTERVAL_MS: CHANGE_POLL_INTERVAL_MS };
  });
  afterEach(async () => {
    if (daemon && daemon.child.exitCode === null) await daemon.stop('SIGKILL');
    daemon = undefined;
    temp.cleanup();
  });

  it('serves health and calculations, picks up CLI changes without a restart, and exits 0 on SIGTERM', async () => {
    daemon = await startDaemonProcess(env);
    const { baseUrl } = daemon;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const hint = daemon.logLines().find((line) => String(line.msg).startsWith('No API key exists yet'));
    expect(String(hint?.msg)).toContain('npx mowability keys add <owner>');

    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { mfi: { checks: { database: { status: string } } } }).mfi.checks.database.status).toBe('ok');

    const noKey = await fetch(`${baseUrl}/v1/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ temperature: 18, precipitation_rate: 0 }),
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ status: 'error', mfi: null, message: 'No API key provided.' });

    const added = await runBuiltCli(['keys', 'add', 'e2e', '--json'], env);
    expect(added.code).toBe(0);
    const { key, id } = JSON.parse(added.stdout) as { key: string; id: number };
    const calculate = () =>
      fetch(`${baseUrl}/v1/calculate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ temperature: 18, precipitation_rate: 0, humidity: 55 }),
      });
    await waitFor(async () => (await calculate()).status === 200, CHANGE_DEADLINE_MS, POLL_STEP_MS);
    const ok = (await (await calculate()).json()) as { status: string; mfi: { available_fields: string[] } };
    expect(ok.status).toBe('ok');
    expect(ok.mfi.available_fields).toEqual(['temperature', 'precipitation_rate', 'humidity']);

    const form = await fetch(`${baseUrl}/v1/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `temperature=18&precipitation_rate=0&api_key=${encodeURIComponent(key)}`,
    });
    expect(form.status).toBe(200);

    const getRefused = await fetch(`${baseUrl}/v1/calculate?temperature=18&precipitation_rate=0&api_key=${encodeURIComponent(key)}`);
    expect(getRefused.status).toBe(405);
    expect((await runBuiltCli(['keys', 'allow-get', String(id)], env)).code).toBe(0);
    await waitFor(
      async () =>
        (await fetch(`${baseUrl}/v1/calculate?temperature=18&precipitation_rate=0&api_key=${encodeURIComponent(key)}`)).status === 200,
      CHANGE_DEADLINE_MS,
      POLL_STEP_MS,
    );

    expect((await runBuiltCli(['maintenance', 'on'], env)).code).toBe(0);
    await waitFor(async () => (await fetch(`${baseUrl}/v1/health`)).status === 503, CHANGE_DEADLINE_MS, POLL_STEP_MS);
    await waitFor(async () => (await calculate()).status === 503, CHANGE_DEADLINE_MS, POLL_STEP_MS);
    const maintenance = await calculate();
    expect(await maintenance.json()).toEqual({ status: 'error', mfi: null, message: 'The API is in maintenance mode.' });
    expect((await runBuiltCli(['maintenance', 'off'], env)).code).toBe(0);
    await waitFor(async () => (await calculate()).status === 200, CHANGE_DEADLINE_MS, POLL_STEP_MS);

    expect((await runBuiltCli(['keys', 'disable', String(id)], env)).code).toBe(0);
    await waitFor(async () => (await calculate()).status === 403, CHANGE_DEADLINE_MS, POLL_STEP_MS);

    expect((await runBuiltCli(['ip', 'block', '127.0.0.1'], env)).code).toBe(0);
    await waitFor(async () => (await fetch(`${baseUrl}/health`)).status === 403, CHANGE_DEADLINE_MS, POLL_STEP_MS);

    const code = await daemon.stop('SIGTERM');
    expect(code).toBe(0);
    expect(daemon.output()).not.toContain(key);
    const stopped = daemon.logLines().some((line) => line.msg === 'daemon stopped');
    expect(stopped).toBe(true);
    // The access lines are written in blocks (src/util/logger.ts); the exit writes what was still waiting.
    const requestLines = daemon.logLines().filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => `${String(line.statusCode)} ${String(line.method)} ${String(line.path)}`)).toEqual(
      expect.arrayContaining([
        '200 GET /health',
        '401 POST /v1/calculate',
        '405 GET /v1/calculate',
        '503 POST /v1/calculate',
        '403 GET /health',
      ]),
    );
    // Six CLI processes and a daemon: on a busy 2-core machine this takes 10-15 s.
  }, 60_000);

  it('finishes an in-flight request on SIGTERM and exits 0', async () => {
    daemon = await startDaemonProcess(env);
    const added = JSON.parse((await runBuiltCli(['keys', 'add', 'drain', '--json'], env)).stdout) as { key: string };
    const { baseUrl } = daemon;
    await waitFor(
      async () =>
        (
          await fetch(`${baseUrl}/v1/calculate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${added.key}`, 'content-type': 'application/json' },
            body: '{"temperature":18,"precipitation_rate":0}',
          })
        ).status === 200,
      CHANGE_DEADLINE_MS,
      POLL_STEP_MS,
    );
    // A request whose headers the daemon has read, but whose body arrives only once the daemon is stopping.
    const { request } = await import('node:http');
    const url = new URL(`${baseUrl}/v1/calculate`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${added.key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    await new Promise<void>((resolve, reject) => req.write('{"temperature":18,', (err) => (err ? reject(err) : resolve())));
    // Barrier: a complete request sent after those bytes has been answered, so the daemon has
    // read the in-flight request's headers (it answers requests on its one thread, in arrival order).
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);

    daemon.child.kill('SIGTERM');
    await waitFor(() => daemon?.logLines().some((line) => line.msg === 'stopping') ?? false, CHANGE_DEADLINE_MS, 10);
    // The listener closes while the request is still open: new connections are refused (or told 503).
    await waitFor(
      async () => {
        try {
          return (await fetch(`${baseUrl}/health`, { headers: { connection: 'close' } })).status === 503;
        } catch {
          return true;
        }
      },
      CHANGE_DEADLINE_MS,
      10,
    );
    expect(daemon.child.exitCode).toBeNull();
    req.end('"precipitation_rate":0}');

    const result = await response;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).status).toBe('ok');
    // It already has its SIGTERM: a second one could land while Node tears down and count as a kill.
    expect(await daemon.exited).toBe(0);
  });

  it('exits 78 with a readable message when the configuration file has an unknown key', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = `${temp.dir}/config.json`;
    writeFileSync(file, JSON.stringify({ http: { port: 0 }, colour: 'green' }));
    const result = await runBuiltCli(['serve', '--config', file], env);
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('unknown key "colour"');
  });

  it('prints a key command that reaches the database named by MOWABILITY_DB_PATH, from any directory', async () => {
    daemon = await startDaemonProcess(env);
    const hint = String(daemon.logLines().find((line) => String(line.msg).startsWith('No API key exists yet'))?.msg);
    expect(hint).toContain(`npx mowability keys add <owner> --db-path=${temp.dbPath}`);
    // Run the printed command as a user would, without the daemon's environment.
    const args = hint
      .slice(hint.indexOf('keys add'))
      .split(' ')
      .map((word) => (word === '<owner>' ? 'hinted' : word));
    const added = await runBuiltCli([...args, '--json'], {});
    expect(added.code, added.stderr).toBe(0);
    const { key } = JSON.parse(added.stdout) as { key: string };
    await waitFor(
      async () =>
        (
          await fetch(`${daemon!.baseUrl}/v1/calculate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ temperature: 18, precipitation_rate: 0 }),
          })
        ).status === 200,
      CHANGE_DEADLINE_MS,
      POLL_STEP_MS,
    );
    expect(await daemon.stop()).toBe(0);
  });

  it('under systemd names the service wrapper in the key hint', async () => {
    daemon = await startDaemonProcess({ ...env, INVOCATION_ID: '0123456789abcdef' });
    const hint = daemon.logLines().find((line) => String(line.msg).startsWith('No API key exists yet'));
    expect(String(hint?.msg)).toContain('Create one with: sudo mowability keys add <owner>');
    expect(await daemon.stop()).toBe(0);
  });

  it('names the --config file in the key hint when one was used', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = `${temp.dir}/mow.json`;
    writeFileSync(file, JSON.stringify({ db: { path: temp.dbPath } }));
    daemon = await startDaemonProcess({ MOWABILITY_TIMEZONE: 'UTC' }, ['--config', file]);
    const hint = daemon.logLines().find((line) => String(line.msg).startsWith('No API key exists yet'));
    expect(String(hint?.msg)).toContain(`npx mowability keys add <owner> --config ${file}`);
    expect(await daemon.stop()).toBe(0);
  });

  it('keeps secrets of other flags out of the key hint and the log', async () => {
    daemon = await startDaemonProcess({ MOWABILITY_TIMEZONE: 'UTC' }, [
      '--db-path',
      temp.dbPath,
      '--mqtt-url',
      'mqtt://bob:hunter2@127.0.0.1:9',
    ]);
    const hint = daemon.logLines().find((line) => String(line.msg).startsWith('No API key exists yet'));
    expect(String(hint?.msg)).toContain(`npx mowability keys add <owner> --db-path=${temp.dbPath}`);
    expect(JSON.stringify(daemon.logLines())).not.toContain('hunter2');
    expect(await daemon.stop()).toBe(0);
  });
});
