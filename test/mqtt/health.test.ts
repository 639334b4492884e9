import { describe, expect, it } from 'vitest';
import { mqttHealth } from '../../src/mqtt/health.js';
import { mqttTest, type ServedDaemon } from '../helpers/mqttFixture.js';
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
  const env = { MOWABILITY_TIMEZONE: 'UTC' };
  const health = async (daemon: ServedDaemon): Promise<{ code: number; body: HealthBody }> => {
    const response = await fetch(`${daemon.httpAddress}/health`);
    return { code: response.status, body: (await response.json()) as HealthBody };
  };

  mqttTest('external broker down: checks.mqtt is an error without the address, and health stays 200 ok', async ({ mqtt }) => {
    const deadPort = await freePort(); // nothing listens there: the broker is down
    const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env: { ...env, MOWABILITY_BROKER_ENABLED: 'false', MOWABILITY_MQTT_URL: `mqtt://user:secret@127.0.0.1:${deadPort}` } });
    const { code, body } = await health(daemon);
    expect(code).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.mfi.status).toBe('ok');
    expect(body.mfi.checks.mqtt).toEqual({ status: 'error', message: 'not connected to the external broker (mqtt.url); retrying in the background (see the log)' });
    expect(JSON.stringify(body)).not.toMatch(new RegExp(`secret|${deadPort}`));
  });

  mqttTest('embedded broker: checks.mqtt is ok once the bridge is connected', async ({ mqtt }) => {
    const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env: { ...env, MOWABILITY_BROKER_ENABLED: 'true' } });
    await waitUntil(async () => (await health(daemon)).body.mfi.checks.mqtt?.status === 'ok', 'the bridge connected');
    expect((await health(daemon)).body.mfi.checks.mqtt).toEqual({ status: 'ok', message: 'connected to the embedded broker' });
  });

  mqttTest('MQTT off: no checks.mqtt at all', async ({ mqtt }) => {
    const daemon = await mqtt.serve(undefined, { logLevel: 'warn', env: { ...env, MOWABILITY_BROKER_ENABLED: 'false' } });
    const { code, body } = await health(daemon);
    expect(code).toBe(200);
    expect(body.mfi.checks).not.toHaveProperty('mqtt');
  });
});
