import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bridgeConnectionOptions, openBridgeConnection, readTlsFile } from '../../src/mqtt/bridgeConnection.js';
import { MqttConnection } from '../../src/mqtt/client.js';
import { InProcessConnection } from '../../src/mqtt/inProcessConnection.js';
import { silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';
import { testBroker } from '../helpers/testBroker.js';

describe('the bridge connection options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mow-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the embedded broker in process, and mqtt.js only for an external broker', () => {
    const config = testMqttConfig({ mqtt: { username: 'ignored', password: 'ignored' } });
    expect(openBridgeConnection(config, testBroker(), silentLogger)).toBeInstanceOf(InProcessConnection);
    const external = testMqttConfig({ broker: { enabled: false }, mqtt: { url: 'mqtt://broker.lan:1883' } });
    expect(openBridgeConnection(external, undefined, silentLogger)).toBeInstanceOf(MqttConnection);
  });

  it('uses mqtt.url, its credentials and TLS files for an external broker', () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, 'CA');
    const config = testMqttConfig({
      broker: { enabled: false },
      mqtt: { url: 'mqtts://broker.lan:8883', username: 'mow', password: 'pw', ca },
    });
    const options = bridgeConnectionOptions(config);
    expect(options).toMatchObject({
      url: 'mqtts://broker.lan:8883',
      username: 'mow',
      password: 'pw',
      persistentSession: true,
      willTopic: 'bridge/state',
      willPayload: 'offline',
    });
    expect(options.ca?.toString()).toBe('CA');
    expect(options).not.toHaveProperty('cert');
  });

  it('names the key and the path when a TLS file cannot be read', () => {
    const missing = join(dir, 'nope.pem');
    expect(readTlsFile(testMqttConfig({ mqtt: { key: '' } }), 'key')).toBeUndefined();
    expect(() => readTlsFile(testMqttConfig({ mqtt: { cert: missing } }), 'cert')).toThrow(`"mqtt.cert": cannot read "${missing}"`);
  });
});
