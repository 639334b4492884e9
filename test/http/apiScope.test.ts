/**
 * The /v1 scope (src/http/auth.ts apiKeys, src/http/app.ts): every route under
 * /v1 is admitted by the one key hook, found by listing the app's routes rather
 * than by a list kept beside them, and a route a station unit adds later needs a
 * key without saying so (docs/api.md, "Authentication").
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { calculate } from '../../src/core/index.js';
import { calculatePlugin } from '../../src/http/calculateRoute.js';
import { MESSAGES } from '../../src/http/errors.js';
import { stationsPlugin } from '../../src/http/stationsRoute.js';
import { NO_STATIONS } from '../../src/http/stationsView.js';
import { forecastRoutes } from '../../src/forecast/forecastRoute.js';
import type { UnitRoute } from '../../src/station/unitRoute.js';
import { addKey, CHANGE_DEADLINE_MS, setMaintenance, startHttpHarness, type HarnessOptions, type HttpHarness } from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { publicServiceParts } from '../publicService/harness.js';

/** The /v1 routes docs/api.md names as needing no key. */
const OPEN_ROUTES = new Set(['/v1/health', '/v1/registrations', '/v1/registrations/:claim_token']);

/** A station unit's routes as a unit would declare them: nothing about keys but the one it opens. */
const snowRoutes: readonly UnitRoute[] = [
  { url: '/stations/:id/snow', answer: ({ params }) => ({ status: 'ok', mfi: { station: params.id, snow_cm: 3 }, message: '' }) },
  { url: '/snow/public', access: 'open', answer: () => ({ status: 'ok', mfi: { snow: true }, message: '' }) },
];

const forecast = forecastRoutes(() => 'unknown_station', { now: () => 0 });

/** Every route and method of the app, from fastify's own route table (printRoutes draws it as a tree of path segments). */
async function routesOf(app: FastifyInstance): Promise<{ path: string; method: string }[]> {
  await app.ready();
  const routes: { path: string; method: string }[] = [];
  const segments: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─ ]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    segments.length = depth;
    segments.push(match[2]!);
    for (const method of match[3]?.split(', ') ?? []) routes.push({ path: segments.join(''), method });
  }
  return routes;
}

const concrete = (path: string): string => path.replace(/:[a-z_]+/g, 'garden');

describe('the /v1 scope', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** Every area on: registration, the status page's JSON behind keys, metrics by key, the forecast, a unit's routes. */
  const start = async (overrides: HarnessOptions['overrides'] = {}) => {
    h = await startHttpHarness({
      env: { MOWABILITY_REGISTRATION_ENABLED: 'true', MOWABILITY_HTTP_STATUS_PAGE: 'key', MOWABILITY_RATE_LIMIT_MAX: '0' },
      extend: publicServiceParts({ registrations: true, usage: true }),
      overrides: { unitRoutes: [...forecast, ...snowRoutes], ...overrides },
    });
    return h;
  };

  it('refuses a request without a key on every /v1 route but the documented open ones, with the envelope and message of docs/api.md', async () => {
    const { app } = await start();
    const v1 = (await routesOf(app)).filter(({ path }) => path.startsWith('/v1/'));
    const protectedRoutes = v1.filter(({ path }) => !OPEN_ROUTES.has(path) && path !== '/v1/snow/public');
    // The list comes from the app: a route that disappeared from it would shrink it silently.
    expect(new Set(protectedRoutes.map(({ path }) => path))).toEqual(
      new Set([
        '/v1/calculate',
        '/v1/lawns/:lawnId/plan.ics',
        '/v1/stations',
        '/v1/stations/:id',
        '/v1/stations/:id/history',
        '/v1/stations/:id/forecast',
        '/v1/stations/:id/snow',
      ]),
    );
    for (const { path, method } of protectedRoutes) {
      const response = await app.inject({ method: method as 'GET', url: concrete(path) });
      const where = `${method} ${path}`;
      expect(response.statusCode, where).toBe(401);
      if (method !== 'HEAD') expect(response.json(), where).toEqual({ status: 'error', mfi: null, message: MESSAGES.noApiKey });
      const wrongKey = await app.inject({ method: method as 'GET', url: concrete(path), headers: { authorization: 'Bearer not-a-key' } });
      expect(wrongKey.statusCode, where).toBe(401);
    }
    for (const { path, method } of v1.filter(({ path }) => OPEN_ROUTES.has(path))) {
      const response = await app.inject({ method: method as 'GET', url: concrete(path) });
      expect([401, 403], `${method} ${path} needs no key`).not.toContain(response.statusCode);
    }
  });

  it("protects a route a unit adds by default, with the calculation's rules: refused without a key, in maintenance, with a disabled key, GET only for GET keys", async () => {
    const harness = await start();
    const { app } = harness;
    const postOnly = await addKey(harness, 'post only');
    const notForGet = await app.inject({ url: '/v1/stations/garden/snow', headers: { authorization: `Bearer ${postOnly.key}` } });
    expect(notForGet.statusCode).toBe(405);
    expect(notForGet.json()).toEqual({ status: 'error', mfi: null, message: MESSAGES.methodNotAllowed });
    const { id, key } = await addKey(harness, 'tester', { allowGet: true });
    const withKey = await app.inject({ url: '/v1/stations/garden/snow', headers: { authorization: `Bearer ${key}` } });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json()).toEqual({ status: 'ok', mfi: { station: 'garden', snow_cm: 3 }, message: '' });
    expect((await app.inject({ url: '/v1/snow/public' })).statusCode).toBe(200);

    await setMaintenance(harness, true);
    const maintenance = await app.inject({ url: '/v1/stations/garden/snow', headers: { authorization: `Bearer ${key}` } });
    expect(maintenance.statusCode).toBe(503);
    expect(maintenance.json()).toEqual({ status: 'error', mfi: null, message: MESSAGES.maintenance });
    await setMaintenance(harness, false);

    await harness.store.setKeyDisabled(id, true);
    await waitFor(() => harness.access.lookupKey(key)?.disabled === true, CHANGE_DEADLINE_MS);
    const disabled = await app.inject({ url: '/v1/stations/garden/snow', headers: { authorization: `Bearer ${key}` } });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toEqual({ status: 'error', mfi: null, message: MESSAGES.apiKeyDisabled });
  });

  it('keeps the hook inside /v1: health, the OpenAPI document and the page answer without a key', async () => {
    const { app } = await start();
    for (const url of ['/health', '/openapi.json', '/']) expect((await app.inject({ url })).statusCode, url).toBe(200);
  });

  it('refuses to start when a protected plugin is registered outside the scope (its fastify-plugin dependency)', async () => {
    const clock = { now: () => 0 };
    const harness = await start();
    for (const register of [
      (app: FastifyInstance) => app.register(calculatePlugin, { config: harness.config, clock, calculate }),
      (app: FastifyInstance) => app.register(stationsPlugin, { mode: 'open', view: NO_STATIONS, clock }),
    ]) {
      const bare = Fastify();
      await expect(register(bare)).rejects.toThrow(/mowability-api-keys/);
      await bare.close();
    }
  });
});
