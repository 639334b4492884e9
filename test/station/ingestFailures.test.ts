/**
 * The two ways a station message is lost on purpose, each counted and logged so the user can
 * see it: a payload larger than station.maxPayloadBytes (an external broker does not enforce
 * our limit), and a bug while handling one message (it costs that message, not the loop).
 */
import { describe, expect, vi } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { mosquittoAvailable } from '../../bench/lib/mosquitto.js';

// A bug stand-in: the parser throws for one payload (every other payload is parsed for real).
vi.mock('../../src/ingest/parse.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/ingest/parse.js')>();
  return {
    ...original,
    parseStationMessage: (...args: Parameters<typeof original.parseStationMessage>) => {
      if (args[2] === 'TRIGGER-BUG') throw new TypeError('a parser bug');
      return original.parseStationMessage(...args);
    },
  };
});

const plain: StationConfig = { id: 'plain', name: 'Plain', format: 'fields', topic: 'plain/+' };

describe('station messages the daemon drops', () => {
  it('a bug handling one message: counted as rejected, logged with the station, and the next message is handled', async ({ mqtt }) => {
    const log = captureLogger('info');
    const daemon = await mqtt.start(testMqttConfig({ stations: [plain] }), { logger: log.logger });
    const station = (await mqtt.connect(daemon.port)).client;
    await station.publishAsync('plain/temperature', 'TRIGGER-BUG', { qos: 1 });
    await waitUntil(() => daemon.service.stats().rejected === 1, 'the message counted as rejected');
    expect(log.lines().find((line) => line.msg === 'station message could not be handled')).toMatchObject({
      level: 40,
      station: 'plain',
      topic: 'plain/temperature',
      err: expect.objectContaining({ message: 'a parser bug' }),
    });
    await station.publishAsync('plain/temperature', '21.5', { qos: 1 });
    await waitUntil(() => daemon.service.stationState('plain')?.input.temperature === 21.5, 'the next reading in the state');
    expect(daemon.service.stationCounts().get('plain')).toMatchObject({ received: 2, accepted: 1, rejected: 1 });
  });

  it.skipIf(!mosquittoAvailable() && !process.env.CI)(
    'a payload over station.maxPayloadBytes from an external broker: counted as rejected and logged',
    async ({ mqtt }) => {
      const broker = await mqtt.mosquitto();
      const log = captureLogger('info');
      const config = testMqttConfig({
        stations: [plain],
        mqtt: { url: `mqtt://127.0.0.1:${broker.port}` },
        broker: { enabled: false },
        station: { maxPayloadBytes: 1024 },
      });
      const daemon = await mqtt.start(config, { logger: log.logger });
      await waitUntil(() => daemon.service.stats().connected, 'connected to mosquitto');
      const station = (await mqtt.connect(broker.port)).client;
      // Retained: it reaches the daemon exactly once, live or when its subscription starts.
      await station.publishAsync('plain/temperature', '2'.repeat(2000), { qos: 1, retain: true });
      await waitUntil(() => daemon.service.stats().received === 1, 'the oversized payload handled');
      expect(daemon.service.stats()).toMatchObject({ rejected: 1, accepted: 0 });
      expect(log.lines().find((line) => line.msg === 'station payload too large; dropped')).toMatchObject({
        station: 'plain',
        topic: 'plain/temperature',
        bytes: 2000,
      });
    },
  );
});
