import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon } from '../../src/daemon.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { mqttHealth } from '../../src/mqtt/health.js';
import { mqttTest, type ServedDaemon } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { freePort } from '../../bench/lib/mosquitto.js';

describe('mqttHealth', () => {
  const up = { running: true, embedded: true, brokerListening: true, connected: true };
  it.each([
    [up, 'ok', 'connected to the embedded broker'],
    [{ ...up, embedded: false, brokerListening: false }, 'ok', 'connected to the external broker (mqtt.url)'],
    [{ ...up, brokerListening: false, connected: false }, 'error', 'the embedded broker is not listening'],
    [{ ...up, running: false, connected: false }, 'error', 'the MQTT bridge is not running'],
    [{ ...up, connected: false, connectedOnce: false }, 'starting', 'connecting to the embedded broker'],
    [
      { ...up, connected: false, connectedOnce: true },
      'error',
      'not connected to the embedded broker; retrying in the background (see the log)',
    ],
    [
      { ...up, embedded: false, brokerListening: false, connected: false, connectedOnce: false },
      'error',
      'not connected to the external broker (mqtt.url); retrying in the background (see the log)',
    ],
    [
      { ...up, embedded: false, connected: false },
      'error',
      'not connected to the external broker (mqtt.url); retrying in the background (see the log)',
    ],
    [
      { ...up, embedded: false, connected: false, problem: 'the broker refused the login ("not authorized"): check mqtt.username' },
      'error',
      'not connected to the external broker (mqtt.url): the broker refused the login ("not authorized"): check mqtt.username; retrying in the background',
    ],
    [
      { ...up, embedded: false, access: ['the broker does not let X publish Y'], accessDenied: true },
      'error',
      'connected to the external broker (mqtt.url), but the broker does not let X publish Y',
    ],
    [
      { ...up, embedded: false, access: ['nothing arrived on w/l'], accessDenied: false },
      'ok',
      'connected to the external broker (mqtt.url), but nothing arrived on w/l',
    ],
  ])('%o → %s', (facts, status, message) => {
    expect(mqttHealth(facts)).toMatchObject({ status, message });
  });

  it('names what is the matter by a code the status page says in its own language', () => {
    expect(mqttHealth(up).code).toBe('connected');
    expect(mqttHealth({ ...up, brokerListening: false, connected: false }).code).toBe('broker_not_listening');
    expect(mqttHealth({ ...up, running: false, connected: false }).code).toBe('bridge_not_running');
    expect(mqttHealth({ ...up, connected: false, connectedOnce: false }).code).toBe('starting');
    expect(mqttHealth({ ...up, connected: false, problem: 'refused' }).code).toBe('not_connected');
    expect(mqttHealth({ ...up, access: ['nothing arrived on w/l'], accessDenied: false }).code).toBe('access_limited');
  });
});

interface HealthBody {
  status: string;
  mfi: { status: string; checks: Record<string, { status: string; message?: string }> };
}

describe('/health checks.mqtt', () => {
  const env = { MOWABILITY_TIMEZONE: 'UTC' };
  const health = async (daemon: ServedDaemon): Promise<{ code: number; body: HealthBody }> => {
    const response = await fetch(`${daemon.httpAddress}/health`);
    return { code: response.status, body: (await response.json()) as HealthBody };
  };

  mqttTest('external broker down: checks.mqtt is an error without the address, and health stays 200 ok', async ({ mqtt }) => {
    const deadPort = await freePort(); // nothing listens there: the broker is down
    const daemon = await mqtt.serve(undefined, {
      logLevel: 'warn',
      env: { ...env, MOWABILITY_BROKER_ENABLED: 'false', MOWABILITY_MQTT_URL: `mqtt://user:secret@127.0.0.1:${deadPort}` },
    });
    const { code, body } = await health(daemon);
    expect(code).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.mfi.status).toBe('ok');
    await waitUntil(
      async () => (await health(daemon)).body.mfi.checks.mqtt?.message?.includes('ECONNREFUSED') === true,
      'the first attempt failed',
    );
    expect((await health(daemon)).body.mfi.checks.mqtt).toEqual({
      status: 'error',
      code: 'not_connected',
      message:
        'not connected to the external broker (mqtt.url): broker unreachable (ECONNREFUSED): check the host and port in mqtt.url and that the broker runs; retrying in the background',
    });
    expect(JSON.stringify(body)).not.toMatch(new RegExp(`secret|${deadPort}`));
  });

  mqttTest('embedded broker: checks.mqtt is ok once the bridge is connected', async ({ mqtt }) => {
    const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env: { ...env, MOWABILITY_BROKER_ENABLED: 'true' } });
    await waitUntil(async () => (await health(daemon)).body.mfi.checks.mqtt?.status === 'ok', 'the bridge connected');
    expect((await health(daemon)).body.mfi.checks.mqtt).toEqual({
      status: 'ok',
      code: 'connected',
      message: 'connected to the embedded broker',
    });
  });

  mqttTest('MQTT off: no checks.mqtt at all', async ({ mqtt }) => {
    const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env: { ...env, MOWABILITY_BROKER_ENABLED: 'false' } });
    const { code, body } = await health(daemon);
    expect(code).toBe(200);
    expect(body.mfi.checks).not.toHaveProperty('mqtt');
  });
});

describe("the daemon's start order", () => {
  it('starts storage, the station side, the MQTT side, then HTTP, and stops them in reverse', async () => {
    const temp = makeTempDir();
    const config = loadConfig({
      env: {
        MOWABILITY_DB_PATH: temp.dbPath,
        MOWABILITY_TIMEZONE: 'UTC',
        MOWABILITY_HTTP_HOST: '127.0.0.1',
        MOWABILITY_HTTP_PORT: '0',
        MOWABILITY_BROKER_ENABLED: 'true',
        MOWABILITY_BROKER_PORT: '0',
      },
    });
    const log = captureLogger('debug');
    const daemon = await startDaemon({ config, logger: log.logger, keyCommandHint: 'x' });
    const named = (msg: string) =>
      log
        .lines()
        .filter((line) => line.msg === msg)
        .map((line) => line.component);
    try {
      // HTTP answers only once the station side and the MQTT side run: health never sees them missing.
      const body = (await (await fetch(`${daemon.httpAddress}/health`)).json()) as HealthBody;
      expect(['ok', 'starting']).toContain(body.mfi.checks.mqtt?.status);
      await waitUntil(
        async () => ((await (await fetch(`${daemon.httpAddress}/health`)).json()) as HealthBody).mfi.checks.mqtt?.status === 'ok',
        'the bridge connected',
      );
    } finally {
      await daemon.stop();
      temp.cleanup();
    }
    const order = [
      'clock-watch',
      'serve-lock',
      'database',
      'access-cache',
      'key-usage',
      'station-pipeline',
      'scheduled-jobs',
      'mqtt-broker',
      'mqtt-bridge',
      'http',
    ];
    expect(named('component started').filter((name) => name !== 'clock-watch')).toEqual(order.slice(1));
    expect(named('component stopped').filter((name) => name !== 'clock-watch')).toEqual(order.slice(1).reverse());
  });
});
