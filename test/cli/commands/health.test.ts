/**
 * `mowability health`, the container's HEALTHCHECK: it follows the daemon's configured port and
 * fails when a required part is down, the MQTT side included, although /health answers 200 then.
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { healthVerdict } from '../../../src/cli/commands/health.js';
import { loadConfig } from '../../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../../src/daemon.js';
import { runCliInProcess } from '../../helpers/httpCli.js';
import { captureLogger } from '../../helpers/httpLogCapture.js';
import { makeTempDir } from '../../helpers/httpTempDir.js';
import { waitUntil } from '../../helpers/wait.js';
import { freePort } from '../../../bench/lib/mosquitto.js';

const report = (status: string, checks: Record<string, { status: string; message?: string }>) => ({ status, mfi: { status, checks } });

describe('healthVerdict', () => {
  it('is healthy when the daemon is ok and no check fails; informational states do not count', () => {
    expect(
      healthVerdict(
        200,
        report('ok', { database: { status: 'ok' }, maintenance: { status: 'inactive' }, clock: { status: 'unsynchronized' } }),
      ),
    ).toEqual({ healthy: true, problems: [] });
  });

  it('is unhealthy when the MQTT side is down, although /health answers 200', () => {
    const verdict = healthVerdict(
      200,
      report('ok', { database: { status: 'ok' }, mqtt: { status: 'error', message: 'not connected to the external broker (mqtt.url)' } }),
    );
    expect(verdict).toEqual({ healthy: false, problems: ['mqtt: error (not connected to the external broker (mqtt.url))'] });
  });

  it('is unhealthy while a part is still starting', () => {
    expect(healthVerdict(200, report('ok', { mqtt: { status: 'starting' } })).healthy).toBe(false);
  });

  it('counts maintenance mode (503) as healthy: an operator switched it on', () => {
    expect(healthVerdict(503, report('maintenance', { database: { status: 'ok' }, maintenance: { status: 'active' } })).healthy).toBe(true);
  });

  it("leaves a shared store's outage to /health's grace: unhealthy only once /health says error", () => {
    const outage = { status: 'error', message: 'PostgreSQL (store.url) unreachable for 12 s' };
    expect(healthVerdict(200, report('ok', { database: { status: 'ok' }, store: outage })).healthy).toBe(true);
    expect(healthVerdict(503, report('error', { database: { status: 'ok' }, store: outage }))).toEqual({
      healthy: false,
      problems: ['store: error (PostgreSQL (store.url) unreachable for 12 s)'],
    });
  });

  it('is unhealthy on an error status without a failing check, and on an answer that is no health report', () => {
    expect(healthVerdict(503, report('error', {}))).toEqual({ healthy: false, problems: ['status error (HTTP 503)'] });
    expect(healthVerdict(404, { error: 'not found' })).toEqual({ healthy: false, problems: ['HTTP 404 without a health report'] });
    expect(healthVerdict(200, null).healthy).toBe(false);
  });
});

describe('mowability health against a running daemon', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let env: Record<string, string>;
  let daemon: RunningDaemon | undefined;

  beforeEach(async () => {
    temp = makeTempDir();
    env = {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_HTTP_HOST: '0.0.0.0',
      MOWABILITY_HTTP_PORT: String(await freePort()),
    };
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  const serve = async (extra: Record<string, string>) => {
    daemon = await startDaemon({ config: loadConfig({ env: { ...env, ...extra } }), logger: captureLogger('warn').logger });
  };

  it('follows the configured port and says healthy once the embedded broker is connected', async () => {
    await serve({ MOWABILITY_BROKER_PORT: String(await freePort()) });
    await waitUntil(async () => (await runCliInProcess(['health'], env)).code === 0, 'health to pass');
    const result = await runCliInProcess(['health'], env);
    expect(result.stdout).toBe(`healthy: http://127.0.0.1:${env.MOWABILITY_HTTP_PORT}/health\n`);
  });

  it('fails while the external broker is down, naming the MQTT check', async () => {
    await serve({ MOWABILITY_BROKER_ENABLED: 'false', MOWABILITY_MQTT_URL: `mqtt://127.0.0.1:${await freePort()}` });
    const raw = await fetch(`http://127.0.0.1:${env.MOWABILITY_HTTP_PORT}/health`);
    expect(raw.status).toBe(200);
    const result = await runCliInProcess(['health'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^unhealthy: http:\/\/127\.0\.0\.1:\d+\/health: mqtt: (error|starting)/);
  });

  it('prints its help, and refuses arguments', async () => {
    expect(await runCliInProcess(['health', '--help'], env)).toMatchObject({ code: 0, stdout: expect.stringContaining('HEALTHCHECK') });
    expect((await runCliInProcess(['health', 'now'], env)).code).toBe(2);
  });

  it('fails when the daemon accepts but does not answer in time', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(Number(env.MOWABILITY_HTTP_PORT), '127.0.0.1', resolve));
    try {
      const result = await runCliInProcess(['health'], env);
      expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/: no answer \(\w+\)\n$/) });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('fails when nothing listens on the configured port', async () => {
    const result = await runCliInProcess(['health'], env);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing listens there') });
  });
});
