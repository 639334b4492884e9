/**
 * The Open-Meteo client against a fake server on loopback: the request it
 * sends, the recorded-shape fixtures it parses, and every failure it must
 * survive (HTTP errors, 429, timeouts, malformed JSON) without throwing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenMeteoClient } from '../../src/openmeteo/openMeteoClient.js';
import { OPEN_METEO_HOURLY, parseOpenMeteo } from '../../src/openmeteo/openMeteoResponse.js';
import { FakeOpenMeteo, fixtureText, type FixtureName } from '../forecast/fakeOpenMeteo.js';

const berlin = { latitude: 52.52, longitude: 13.41, elevation: 38 };

describe('OpenMeteoClient', () => {
  let fake: FakeOpenMeteo;
  const sleeps: number[] = [];
  const client = (overrides: Partial<ConstructorParameters<typeof OpenMeteoClient>[0]> = {}) =>
    new OpenMeteoClient({
      baseUrl: fake.baseUrl,
      timeoutMs: 2000,
      retries: 2,
      backoffMs: 10,
      userAgent: 'mowability/test',
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...overrides,
    });

  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
    sleeps.length = 0;
  });
  afterEach(async () => {
    await fake.close();
  });

  it("asks for the hourly variables at the station's location in metric units and Unix time", async () => {
    const outcome = await client().fetchForecast(berlin);
    expect(outcome.kind).toBe('ok');
    const url = fake.requests[0]!.url;
    expect(url.pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      latitude: '52.52',
      longitude: '13.41',
      elevation: '38',
      hourly: OPEN_METEO_HOURLY.join(','),
      timeformat: 'unixtime',
      wind_speed_unit: 'kmh',
      precipitation_unit: 'mm',
      temperature_unit: 'celsius',
    });
    expect(fake.requests[0]!.headers['user-agent']).toBe('mowability/test');
  });

  it.each<[FixtureName, (hours: ReturnType<typeof parseHours>) => void]>([
    ['dryDay', (hours) => expect(hours.every((hour) => hour.precipitationMm === 0)).toBe(true)],
    ['afternoonThunderstorm', (hours) => expect(Math.max(...hours.map((hour) => hour.precipitationMm ?? 0))).toBe(11.8)],
    [
      'frostyMorning',
      (hours) => {
        expect(Math.min(...hours.map((hour) => hour.values.temperature ?? 99))).toBeLessThan(0);
        // A null from the provider is a missing value, not 0.
        expect(hours.at(-1)!.values.soil_moisture).toBeUndefined();
      },
    ],
    ['wetSpell', (hours) => expect(hours.filter((hour) => (hour.precipitationMm ?? 0) > 0).length).toBeGreaterThan(60)],
  ])('parses the %s fixture', async (name, check) => {
    fake.fallback = { kind: 'fixture', name };
    const outcome = await client().fetchForecast(berlin);
    if (outcome.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
    expect(outcome.hours).toHaveLength(74);
    expect(outcome.hours[0]!.values.soil_moisture).toBeGreaterThan(1);
    check(outcome.hours);
  });

  it('sends If-None-Match with the last ETag and reports 304 as not modified', async () => {
    fake.fallback = { kind: 'fixture', name: 'dryDay', etag: '"v1"' };
    const first = await client().fetchForecast(berlin);
    expect(first).toMatchObject({ kind: 'ok', validators: { etag: '"v1"' } });
    const second = await client().fetchForecast(berlin, first.kind === 'ok' ? first.validators : {});
    expect(second).toEqual({ kind: 'not_modified' });
    expect(fake.requests[1]!.headers['if-none-match']).toBe('"v1"');
  });

  it('retries a 500 and a 429 with back-off, honouring Retry-After', async () => {
    fake.script.push({ kind: 'status', status: 500 }, { kind: 'status', status: 429, retryAfter: '3' });
    const outcome = await client().fetchForecast(berlin);
    expect(outcome.kind).toBe('ok');
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toEqual([10, 3000]);
  });

  it('gives up after the retries with the last reason', async () => {
    fake.fallback = { kind: 'status', status: 429 };
    expect(await client().fetchForecast(berlin)).toEqual({ kind: 'error', reason: 'HTTP 429 (rate limited)' });
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 400 (the request itself is wrong)', async () => {
    fake.fallback = { kind: 'status', status: 400 };
    expect(await client().fetchForecast(berlin)).toEqual({ kind: 'error', reason: 'HTTP 400' });
    expect(fake.requests).toHaveLength(1);
  });

  it('abandons a request that gets no answer within the timeout', async () => {
    fake.script.push({ kind: 'hang' });
    const outcome = await client({ timeoutMs: 200, retries: 1 }).fetchForecast(berlin);
    expect(outcome.kind).toBe('ok');
    expect(fake.requests).toHaveLength(2);
    fake.fallback = { kind: 'hang' };
    expect(await client({ timeoutMs: 200, retries: 0 }).fetchForecast(berlin)).toEqual({
      kind: 'error',
      reason: 'no answer within 200 ms',
    });
  });

  it.each([
    ['not JSON', '{"hourly": {"time": [1, 2', 'the response is not valid JSON'],
    ['no hourly object', '{"error": false}', 'the response has no "hourly" object'],
    ['no times', '{"hourly": {"time": []}}', 'the response has no "hourly.time" list'],
    ['a time that is not a number', '{"hourly": {"time": ["2026-06-15T10:00"]}}', 'hourly.time[0] is not a Unix time'],
  ])('refuses a body with %s', async (_what, text, reason) => {
    fake.fallback = { kind: 'body', text };
    expect(await client().fetchForecast(berlin)).toEqual({ kind: 'error', reason });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a refused connection as an error, never a throw', async () => {
    const closed = client({ retries: 1 });
    await fake.close();
    const outcome = await closed.fetchForecast(berlin);
    expect(outcome).toMatchObject({ kind: 'error', reason: expect.stringMatching(/^request failed/) });
    fake = await FakeOpenMeteo.start();
  });

  it("keeps a base URL's path prefix (a self-hosted instance behind a proxy)", async () => {
    await client({ baseUrl: `${fake.baseUrl}/meteo/` }).fetchForecast(berlin);
    expect(fake.requests[0]!.url.pathname).toBe('/meteo/v1/forecast');
  });
});

function parseHours(name: FixtureName) {
  const parsed = parseOpenMeteo(JSON.parse(fixtureText(name)));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.hours;
}
