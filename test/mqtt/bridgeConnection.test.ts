import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bridgeConnectionOptions, embeddedUrl, readTlsFile } from '../../src/mqtt/bridgeConnection.js';
import { testMqttConfig } from '../helpers/mqttHarness.js';

describe('the bridge connection options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mow-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reaches a wildcard-bound embedded broker on loopback, and brackets IPv6 hosts', () => {
    expect(embeddedUrl('0.0.0.0', 1883)).toBe('mqtt://127.0.0.1:1883');
    expect(embeddedUrl('::', 1883)).toBe('mqtt://127.0.0.1:1883');
    expect(embeddedUrl('::1', 1884)).toBe('mqtt://[::1]:1884');
    expect(embeddedUrl('192.168.1.5', 1883)).toBe('mqtt://192.168.1.5:1883');
  });

  it('logs in to the embedded broker with its internal account, without a persistent session', () => {
    const broker = { port: 4242, internalUser: { username: 'internal', password: 'secret' }, internalClientId: 'mowability-abc' };
    const options = bridgeConnectionOptions(testMqttConfig({ mqtt: { username: 'ignored', password: 'ignored' } }), broker);
    expect(options).toMatchObject({ url: 'mqtt://127.0.0.1:4242', clientId: 'mowability-abc', username: 'internal', password: 'secret', persistentSession: false, willTopic: 'bridge/state', willPayload: 'offline' });
  });

  it('uses mqtt.url, its credentials and TLS files for an external broker', () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, 'CA');
    const config = testMqttConfig({ broker: { enabled: false }, mqtt: { url: 'mqtts://broker.lan:8883', username: 'mow', password: 'pw', ca } });
    const options = bridgeConnectionOptions(config, undefined);
    expect(options).toMatchObject({ url: 'mqtts://broker.lan:8883', username: 'mow', password: 'pw', persistentSession: true });
    expect(options.ca?.toString()).toBe('CA');
    expect(options).not.toHaveProperty('cert');
  });

  it('names the key and the path when a TLS file cannot be read', () => {
    const missing = join(dir, 'nope.pem');
    expect(readTlsFile(testMqttConfig({ mqtt: { key: '' } }), 'key')).toBeUndefined();
    expect(() => readTlsFile(testMqttConfig({ mqtt: { cert: missing } }), 'cert')).toThrow(`"mqtt.cert": cannot read "${missing}"`);
  });
});
