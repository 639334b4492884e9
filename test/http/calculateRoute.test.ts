import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MFI_VERSION } from '../../src/core/index.js';
import { addKey, MINIMAL_INPUT, setMaintenance, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

describe('POST and GET /v1/calculate', () => {
  let h: HttpHarness;
  let key: string;
  let auth: { authorization: string };
  beforeEach(async () => {
    h = await startHttpHarness();
    key = (await addKey(h, 'calc', { allowGet: true })).key;
    auth = { authorization: `Bearer ${key}` };
  });
  afterEach(async () => h.close());

  it('POST JSON: HTTP 200 with status ok, the calculation result and an empty message', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { ...MINIMAL_INPUT, humidity: 55, wind_speed: 10, rain_1h: 0, rain_24h: 1.5 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.message).toBe('');
    const mfi = body.mfi;
    expect(mfi.mfi_version).toBe(MFI_VERSION);
    expect(mfi.season).toBe('summer');
    expect(mfi.season_source).toBe('auto');
    expect(Number.isInteger(mfi.index_score)).toBe(true);
    expect(mfi.main_status).toBe(mfi.index_score >= 70 ? 'OK' : mfi.index_score >= 40 ? 'WARNING' : 'BLOCK');
    expect(mfi.available_fields).toEqual(['temperature', 'precipitation_rate', 'humidity', 'wind_speed', 'rain_1h', 'rain_24h']);
    expect(mfi.missing_fields).toContain('soil_moisture');
    expect(mfi.rain_source_info.windows_used).toEqual(expect.arrayContaining(['rain_1h', 'rain_24h']));
    expect(mfi.calculated_at).toBe('2026-06-15 14:00:00');
    for (const check of Object.values(mfi.checks) as Array<Record<string, unknown>>) {
      expect(typeof check.executed).toBe('boolean');
      expect(check.meta).toBeTypeOf('object');
    }
  });

  it('POST form-urlencoded: the same result as JSON', async () => {
    const json = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { temperature: 12.5, precipitation_rate: 0.2 },
    });
    const form = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'temperature=12.5&precipitation_rate=0.2',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual(json.json());
  });

  it('GET with query parameters: response identical to POST', async () => {
    const post = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { temperature: 20, precipitation_rate: 0, humidity: 40 },
    });
    const get = await h.app.inject({ method: 'GET', url: `/v1/calculate?temperature=20&precipitation_rate=0&humidity=40&api_key=${key}` });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(post.json());
  });

  it('missing required field: 400 with the core message', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: auth, payload: { precipitation_rate: 0 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', mfi: null, message: 'Missing or invalid required field(s): temperature.' });
  });

  it('invalid required field (out of range, text): 400 naming it', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { temperature: 99, precipitation_rate: 'lots' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Missing or invalid required field(s): temperature, precipitation_rate.');
  });

  it('empty POST without a body: 400 naming both required fields', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: auth });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Missing or invalid required field(s): temperature, precipitation_rate.');
  });

  it('an optional value outside its range is ignored and listed in missing_fields (rule 1)', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { ...MINIMAL_INPUT, humidity: 150 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().mfi.missing_fields).toContain('humidity');
    expect(response.json().mfi.available_fields).not.toContain('humidity');
  });

  it('ignores the season parameter unless the season override is allowed', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: auth,
      payload: { ...MINIMAL_INPUT, season: 'winter' },
    });
    expect(response.json().mfi).toMatchObject({ season: 'summer', season_source: 'auto' });
  });

  it('forces the season with season_source "manual" when MOWABILITY_ALLOW_SEASON_OVERRIDE is on', async () => {
    const debug = await startHttpHarness({ env: { MOWABILITY_ALLOW_SEASON_OVERRIDE: 'true' } });
    try {
      const debugKey = (await addKey(debug, 'debug', { allowGet: true })).key;
      const post = await debug.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${debugKey}` },
        payload: { ...MINIMAL_INPUT, season: 'winter' },
      });
      expect(post.json().mfi).toMatchObject({ season: 'winter', season_source: 'manual' });
      const get = await debug.app.inject({
        method: 'GET',
        url: `/v1/calculate?temperature=18&precipitation_rate=0&season=autumn&api_key=${debugKey}`,
      });
      expect(get.json().mfi).toMatchObject({ season: 'autumn', season_source: 'manual' });
      const invalid = await debug.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${debugKey}` },
        payload: { ...MINIMAL_INPUT, season: 'monsoon' },
      });
      expect(invalid.json().mfi).toMatchObject({ season: 'summer', season_source: 'auto' });
    } finally {
      await debug.close();
    }
  });

  it('maintenance mode: 503 with "The API is in maintenance mode." and status error', async () => {
    await setMaintenance(h, true);
    const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: auth, payload: MINIMAL_INPUT });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'error', mfi: null, message: 'The API is in maintenance mode.' });
    await setMaintenance(h, false);
    const after = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: auth, payload: MINIMAL_INPUT });
    expect(after.statusCode).toBe(200);
  });
});
