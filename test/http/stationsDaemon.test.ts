/**
 * The composition root wires the status page: a reading published to the
 * embedded broker of a started daemon shows up on GET /v1/stations and in the
 * history, and GET / serves the page from the package's public/ directory.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { createLogger } from '../../src/util/logger.js';
import { mqttTempDir, publishOnce, waitUntil } from '../helpers/mqttHarness.js';

describe('daemon status page', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  it('lists a station fed through the embedded broker, with its index and history', async () => {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ stations: [{ id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' } }] }));
    const env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_HTTP_HOST: '127.0.0.1', MOWABILITY_HTTP_PORT: '0', MOWABILITY_BROKER_PORT: '0', MOWABILITY_LOG_LEVEL: 'info' };
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    daemon = await startDaemon({ config: loadConfig({ argv: ['--config', file], env }), logger: createLogger({ level: 'info', destination: sink }) });
    const port = lines.find((line) => line.msg === 'embedded MQTT broker listening')?.port as number;
    const stations = async () => ((await (await fetch(`${daemon!.httpAddress}/v1/stations`)).json()) as { stations: Array<Record<string, unknown>> }).stations;
    expect(await stations()).toEqual([expect.objectContaining({ id: 'garden', name: 'Garden', index: null, availability: 'offline', last_reading_at: null })]);

    expect(await publishOnce(port, 'garden/weather', JSON.stringify({ temp: 19, rate: 0, hum: 55 }), { qos: 1 })).toBe('handled');
    await waitUntil(async () => typeof (await stations())[0]?.index === 'number', 'the index on /v1/stations', 10_000);
    expect((await stations())[0]).toMatchObject({ availability: 'online', mowable: expect.any(Boolean) });
    const history = (await (await fetch(`${daemon.httpAddress}/v1/stations/garden/history?hours=1&step=5m`)).json()) as { history: { temperature: Array<number | null>; index: Array<number | null> } };
    expect(history.history.temperature.filter((value) => value !== null)).toEqual([19]);
    expect(history.history.index.filter((value) => value !== null)).toHaveLength(1);

    const page = await fetch(`${daemon.httpAddress}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/assets/app.js?v=');
  });
});
