import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { mqttHealth } from '../../src/mqtt/health.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/mqttHarness.js';
import { freePort } from '../helpers/mqttMosquitto.js';

describe('mqttHealth', () => {
  const up = { running: true, embedded: true, brokerListening: true, connected: true };
  it.each([
    [up, 'ok', 'connected to the embedded broker'],
    [{ ...up, embedded: false, brokerListening: false }, 'ok', 'connected to the external broker (mqtt.url)'],
    [{ ...up, brokerListening: false, connected: false }, 'error', 'the embedded broker is not listening'],
    [{ ...up, running: false, connected: false }, 'error', 'the MQTT bridge is not running'],
    [{ ...up, embedded: false, connected: false }, 'error', 'not connected to the external broker (mqtt.url); retrying in the background (see the log)'],
  ])('%o → %s', (facts, status, message) => {
    expect(mqttHealth(facts)).toEqual({ status, message });
  });
});

interface HealthBody {
  status: string;
  mfi: { status: string; checks: Record<string, { status: string; message?: string }> };
}

describe('/health checks.mqtt (issue 8, item 14)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let daemon: RunningDaemon | undefined;
  const baseEnv = () => ({
    MOWABILITY_DB_PATH: temp.dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: '0',
    MOWABILITY_BROKER_PORT: '0',
    MOWABILITY_TIMEZONE: 'UTC',
  });
  const health = async (): Promise<{ code: number; body: HealthBody }> => {
    const response = await fetch(`${daemon!.httpAddress}/health`);
    return { code: response.status, body: (await response.json()) as HealthBody };
  };

  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  it('external broker down: checks.mqtt is an error without the address, and health stays 200 ok', async () => {
    const deadPort = await freePort(); // nothing listens there: the broker is down
    const config = loadConfig({ env: { ...baseEnv(), MOWABILITY_BROKER_ENABLED: 'false', MOWABILITY_MQTT_URL: `mqtt://user:secret@127.0.0.1:${deadPort}` } });
    daemon = await startDaemon({ config, logger: captureLogger('warn').logger });
    const { code, body } = await health();
    expect(code).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.mfi.status).toBe('ok');
    expect(body.mfi.checks.mqtt).toEqual({ status: 'error', message: 'not connected to the external broker (mqtt.url); retrying in the background (see the log)' });
    expect(JSON.stringify(body)).not.toMatch(new RegExp(`secret|${deadPort}`));
  });

  it('embedded broker: checks.mqtt is ok once the bridge is connected', async () => {
    daemon = await startDaemon({ config: loadConfig({ env: { ...baseEnv(), MOWABILITY_BROKER_ENABLED: 'true' } }), logger: captureLogger('warn').logger });
    await waitUntil(async () => (await health()).body.mfi.checks.mqtt?.status === 'ok', 'the bridge connected');
    expect((await health()).body.mfi.checks.mqtt).toEqual({ status: 'ok', message: 'connected to the embedded broker' });
  });

  it('MQTT off: no checks.mqtt at all', async () => {
    daemon = await startDaemon({ config: loadConfig({ env: { ...baseEnv(), MOWABILITY_BROKER_ENABLED: 'false' } }), logger: captureLogger('warn').logger });
    const { code, body } = await health();
    expect(code).toBe(200);
    expect(body.mfi.checks).not.toHaveProperty('mqtt');
  });
});
