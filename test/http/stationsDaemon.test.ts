/**
 * The composition root wires the status page: a reading published to the
 * embedded broker of a started daemon shows up on GET /v1/stations and in the
 * history, and GET / serves the page from the package's public/ directory.
 */
import { describe, expect } from 'vitest';
import { mqttTest as it } from '../helpers/mqttFixture.js';
import { publishOnce, waitUntil } from '../helpers/mqttHarness.js';

const MINUTE_MS = 60_000;
type Series = Record<'time' | 'temperature' | 'humidity' | 'dew_point' | 'index', Array<number | null>>;

describe('daemon status page', () => {
  it('lists a station fed through the embedded broker, with its index and history', async ({ mqtt }) => {
    const station = {
      id: 'garden',
      name: 'Garden',
      format: 'json',
      topic: 'garden/weather',
      fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' },
    };
    const daemon = await mqtt.serve({ stations: [station] });
    const port = daemon.brokerPort!;
    const stations = async () =>
      ((await (await fetch(`${daemon.httpAddress}/v1/stations`)).json()) as { stations: Array<Record<string, unknown>> }).stations;
    expect(await stations()).toEqual([
      expect.objectContaining({ id: 'garden', name: 'Garden', index: null, availability: 'offline', last_reading_at: null }),
    ]);

    expect(await publishOnce(port, 'garden/weather', JSON.stringify({ temp: 19, rate: 0, hum: 55 }), { qos: 1 })).toBe('handled');
    await waitUntil(async () => typeof (await stations())[0]?.index === 'number', 'the index on /v1/stations', 10_000);
    expect((await stations())[0]).toMatchObject({ availability: 'online', mowable: expect.any(Boolean) });
    const history = (await (await fetch(`${daemon.httpAddress}/v1/stations/garden/history?hours=1&step=5m`)).json()) as {
      history: { temperature: Array<number | null>; index: Array<number | null> };
    };
    expect(history.history.temperature.filter((value) => value !== null)).toEqual([19]);
    expect(history.history.index.filter((value) => value !== null)).toHaveLength(1);

    const page = await fetch(`${daemon.httpAddress}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/assets/app.js?v=');
  });

  it("keeps the index, humidity and dew-point series across a restart (SQLite, written with the history's flush)", async ({ mqtt }) => {
    const station = {
      id: 'garden',
      name: 'Garden',
      format: 'json',
      topic: 'garden/weather',
      fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum' },
    };
    const history = async (address: string): Promise<Series> =>
      ((await (await fetch(`${address}/v1/stations/garden/history?hours=1&step=10m`)).json()) as { history: Series }).history;
    // Every reading recomputes at once: its index is in the state before the clock moves on.
    const config = { stations: [station], station: { recomputeDebounceMs: 0 } };
    const first = await mqtt.serve(config, { fakeClock: true });
    // Readings every 5 min for 30 min: three completed 10-minute slots, and one in progress at the stop.
    for (let i = 0; i < 7; i++) {
      if (i > 0) mqtt.clock.advance(5 * MINUTE_MS);
      expect(
        await publishOnce(first.brokerPort!, 'garden/weather', JSON.stringify({ temp: 15 + i, rate: 0, hum: 50 + i }), { qos: 1 }),
      ).toBe('handled');
      const at = new Date(mqtt.clock.now()).toISOString();
      await waitUntil(
        async () =>
          (
            (await (await fetch(`${first.httpAddress}/v1/stations/garden`)).json()) as {
              station: { last_reading_at: string | null; index: number | null };
            }
          ).station.last_reading_at === at,
        'the reading on /v1/stations',
        10_000,
      );
      await waitUntil(
        async () =>
          typeof ((await (await fetch(`${first.httpAddress}/v1/stations/garden`)).json()) as { station: { index: number | null } }).station
            .index === 'number',
        'its index',
        10_000,
      );
    }
    const before = await history(first.httpAddress);
    expect(before.humidity.filter((value) => value !== null).length).toBeGreaterThanOrEqual(3);
    await first.daemon.stop();

    const second = await mqtt.serve(config, { fakeClock: true });
    const after = await history(second.httpAddress);
    expect(after.time).toEqual(before.time);
    // Stored per 10-minute slot: the same steps as before the restart, the same means.
    expect(after.humidity).toEqual(before.humidity);
    expect(after.dew_point).toEqual(before.dew_point);
    expect(after.temperature).toEqual(before.temperature);
    // The index series: every step that had one before has one after (the last slot's index is the state's).
    const stepsWithIndex = (series: Series) => series.index.flatMap((value, step) => (value === null ? [] : [step]));
    expect(stepsWithIndex(before).length).toBeGreaterThanOrEqual(3);
    expect(stepsWithIndex(after)).toEqual(stepsWithIndex(before));
    expect(after.index.slice(0, -1)).toEqual(before.index.slice(0, -1));
  });
});
