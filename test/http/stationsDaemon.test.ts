/**
 * The composition root wires the status page: a reading published to the
 * embedded broker of a started daemon shows up on GET /v1/stations and in the
 * history, and GET / serves the page from the package's public/ directory.
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { publishOnce, waitUntil } from '../helpers/mqttHarness.js';

describe('daemon status page', () => {
  it('lists a station fed through the embedded broker, with its index and history', async ({ mqtt }) => {
    const station = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather', fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' } };
    const daemon = await mqtt.serve({ stations: [station] });
    const port = daemon.brokerPort!;
    const stations = async () => ((await (await fetch(`${daemon.httpAddress}/v1/stations`)).json()) as { stations: Array<Record<string, unknown>> }).stations;
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
