/**
 * GET /v1/stations/{id}/forecast on its own: the calculation's key rules and
 * envelope, every refusal, an OpenAPI document that stays valid with the route,
 * and a real answer that validates against the documented schema.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildForecastDetail } from '../../src/forecast/forecastReport.js';
import { buildApp } from '../../src/http/app.js';
import type { ForecastSource } from '../../src/forecast/forecastReport.js';
import { FORECAST_MESSAGES, FORECAST_RETRY_AFTER_SECONDS, forecastRoutes } from '../../src/forecast/forecastRoute.js';
import { MESSAGES } from '../../src/http/errors.js';
import { addKey, FIXED_NOW_MS, setMaintenance, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

const HOUR_MS = 3_600_000;
const detail = buildForecastDetail({
  source: 'open-meteo',
  cached: {
    source: 'open-meteo',
    fetchedAtMs: FIXED_NOW_MS - 10 * 60_000,
    validators: {},
    hours: Array.from({ length: 48 }, (_, i) => ({
      timeMs: FIXED_NOW_MS + (i + 1) * HOUR_MS,
      values: { temperature: 21, humidity: 50, wind_speed: 8 },
      precipitationMm: i === 5 ? 3 : 0,
    })),
  },
  nowMs: FIXED_NOW_MS,
  staleAfterMs: 3 * HOUR_MS,
  minJobMinutes: 90,
  current: { temperature: 21, precipitation_rate: 0, humidity: 50, wind_speed: 8 },
  observed: [],
  context: { nowMs: FIXED_NOW_MS, timeZone: 'Europe/Berlin', hemisphere: 'north' },
});

const source: ForecastSource = (id) =>
  id === 'garden' ? detail : id === 'plain' ? 'not_configured' : id === 'later' ? 'unavailable' : 'unknown_station';

describe('GET /v1/stations/{id}/forecast', () => {
  let h: HttpHarness | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    await h?.close();
    app = h = undefined;
  });

  async function start(): Promise<FastifyInstance> {
    h = await startHttpHarness();
    app = await buildApp({
      config: h.config,
      store: h.store,
      access: h.access,
      logger: pino({ level: 'silent' }),
      clock: { now: () => FIXED_NOW_MS },
      unitRoutes: forecastRoutes(source, { now: () => FIXED_NOW_MS }),
    });
    return app;
  }

  it('answers with the forecast in the envelope, and the answer matches the documented schema', async () => {
    const server = await start();
    const { key } = await addKey(h!);
    const ok = await server.inject({ url: '/v1/stations/garden/forecast', headers: { authorization: `Bearer ${key}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'ok',
      message: '',
      mfi: { source: 'open-meteo', age_minutes: 10, stale: false, rain_expected_in_minutes: 300 },
    });
    const document = (await server.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }>;
    };
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    const schema = document.paths['/v1/stations/{id}/forecast']!.get.responses['200']!.content['application/json']!.schema;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(ok.json()), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['plain', 404, FORECAST_MESSAGES.notConfigured],
    ['nowhere', 404, FORECAST_MESSAGES.unknownStation],
    ['later', 503, FORECAST_MESSAGES.unavailable],
  ])('station %s: %i', async (id, status, message) => {
    const server = await start();
    const { key } = await addKey(h!);
    const response = await server.inject({ url: `/v1/stations/${id}/forecast`, headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ status: 'error', mfi: null, message });
  });

  it('before the forecast unit has started: 503 saying why in terms that hold (not MQTT) and when to retry', async () => {
    const server = await start();
    const { key } = await addKey(h!);
    const response = await server.inject({ url: '/v1/stations/later/forecast', headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(FORECAST_RETRY_AFTER_SECONDS));
    // The station side, not MQTT, runs the forecast, and it starts before HTTP listens; the user can retry.
    expect(response.json().message).toBe(
      'The forecast is not available yet: the station side is still starting. Retry after the time given in the Retry-After header.',
    );
    expect(response.json().message).not.toMatch(/MQTT/);
  });

  it('checks the key before anything about the station (no enumeration of station ids without a key)', async () => {
    const server = await start();
    for (const id of ['garden', 'nowhere', 'bad%20id']) {
      const response = await server.inject({ url: `/v1/stations/${id}/forecast` });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: 'error', mfi: null, message: MESSAGES.noApiKey });
    }
  });

  it('accepts api_key in the query only for keys enabled for GET, and refuses in maintenance', async () => {
    const server = await start();
    const plainKey = (await addKey(h!, 'plain')).key;
    const getKey = (await addKey(h!, 'get', { allowGet: true })).key;
    expect((await server.inject({ url: `/v1/stations/garden/forecast?api_key=${plainKey}` })).statusCode).toBe(405);
    expect((await server.inject({ url: `/v1/stations/garden/forecast?api_key=${getKey}` })).statusCode).toBe(200);
    await setMaintenance(h!, true);
    const response = await server.inject({ url: '/v1/stations/garden/forecast', headers: { authorization: `Bearer ${plainKey}` } });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(MESSAGES.maintenance);
  });

  it('refuses a malformed station id with 400 after authentication', async () => {
    const server = await start();
    const { key } = await addKey(h!);
    const response = await server.inject({ url: '/v1/stations/bad%20id/forecast', headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(400);
    expect(response.json().mfi).toBeNull();
  });
});
