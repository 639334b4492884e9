/** POST /v1/registrations and the claim, through the real app on a real SQLite file (inject). */
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES } from '../../src/publicService/registrationRoutes.js';
import { Database } from '../../src/store/database.js';
import { RegistrationStore } from '../../src/publicService/registrationStore.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import {
  CHANGE_DEADLINE_MS,
  FIXED_NOW_MS,
  MINIMAL_INPUT,
  startHttpHarness,
  type HttpHarness,
  type HarnessOptions,
} from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { publicServiceParts } from './harness.js';

const VALID = {
  name: 'Alice Gardener',
  email: 'alice@example.org',
  intended_use: 'Robot mower schedule in my garden',
  usage: 'private',
  accept_terms: true,
};
const ENABLED = { MOWABILITY_REGISTRATION_ENABLED: 'true', MOWABILITY_RATE_LIMIT_MAX: '0' };

describe('registration routes', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const start = async (env: Record<string, string> = {}, options: HarnessOptions = {}) => {
    h = await startHttpHarness({ env: { ...ENABLED, ...env }, extend: publicServiceParts({ registrations: true }), ...options });
    return h;
  };
  const register = (harness: HttpHarness, body: unknown = VALID, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'POST', url: '/v1/registrations', payload: body as object, headers });

  it('do not exist unless registration.enabled is on', async () => {
    h = await startHttpHarness({ extend: publicServiceParts({ registrations: true }) });
    expect((await register(h)).statusCode).toBe(404);
  });

  it('accept a registration (JSON or form) with a one-time claim token, and never create a key', async () => {
    const harness = await start();
    const response = await register(harness);
    expect(response.statusCode).toBe(202);
    const registration = response.json().mfi.registration;
    expect(response.json()).toMatchObject({ status: 'ok', message: '' });
    expect(registration).toEqual({
      id: 1,
      status: 'pending',
      claim_token: expect.stringMatching(/^mowclaim_[A-Za-z0-9_-]{43}$/),
      claim_url: `/v1/registrations/${registration.claim_token}`,
      expires_at: new Date(FIXED_NOW_MS + 14 * 86_400_000).toISOString(),
    });
    const form = await register(
      harness,
      'name=Bob&email=bob%40example.org&intended_use=Lawn+care+at+home&usage=commercial&accept_terms=on',
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(form.statusCode).toBe(202);
    expect(await harness.db.all('SELECT id FROM api_keys')).toEqual([]);
    const stored = await harness.db.all<Record<string, unknown>>('SELECT * FROM registrations');
    expect(JSON.stringify(stored)).not.toContain(registration.claim_token);
  });

  it.each([
    [{ ...VALID, name: '' }, 'Invalid registration: "name" is required.'],
    [{ ...VALID, name: 'x'.repeat(201) }, 'Invalid registration: "name" must be at most 200 characters.'],
    [{ ...VALID, name: 'Eve\u202e' }, 'Invalid registration: "name" contains control characters.'],
    [{ ...VALID, name: 'Eve\u2067' }, 'Invalid registration: "name" contains control characters.'],
    [{ ...VALID, name: 'Eve\u200eBob' }, 'Invalid registration: "name" contains control characters.'],
    [{ ...VALID, name: 'Eve\u200fBob' }, 'Invalid registration: "name" contains control characters.'],
    [{ ...VALID, name: 'Eve\u061cBob' }, 'Invalid registration: "name" contains control characters.'],
    [{ ...VALID, email: 'not-an-address' }, 'Invalid registration: "email" must be an e-mail address.'],
    [{ ...VALID, intended_use: 'mow' }, 'Invalid registration: "intended_use" must be at least 10 characters.'],
    [{ ...VALID, usage: 'reseller' }, 'Invalid registration: "usage" must be one of private, commercial.'],
    [{ ...VALID, accept_terms: false }, 'Invalid registration: the terms of use must be accepted ("accept_terms": true).'],
    [[VALID], 'The request body must be a JSON object or form fields.'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const harness = await start();
    const response = await register(harness, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', mfi: null, message });
  });

  it('limits attempts per address and hour, pending registrations per address, and pending registrations in all', async () => {
    let harness = await start({ MOWABILITY_REGISTRATION_PER_ADDRESS_PER_HOUR: '2', MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS: '10' });
    expect((await register(harness, { ...VALID, name: '' })).statusCode).toBe(400);
    expect((await register(harness)).statusCode).toBe(202);
    const third = await register(harness);
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe(REGISTRATION_MESSAGES.tooManyAttempts);
    expect(Number(third.headers['retry-after'])).toBe(3600);
    await harness.close();

    harness = await start({ MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS: '1' });
    expect((await register(harness)).statusCode).toBe(202);
    const second = await register(harness);
    expect([second.statusCode, second.json().message]).toEqual([429, REGISTRATION_MESSAGES.tooManyPending]);
    // Without http.trustProxy a forwarded header does not make another address.
    expect((await register(harness, VALID, { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(429);
    await harness.close();

    harness = await start({
      MOWABILITY_REGISTRATION_MAX_PENDING: '2',
      MOWABILITY_REGISTRATION_MAX_PENDING_PER_NETWORK: '1',
      MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS: '1',
      MOWABILITY_TRUST_PROXY: 'loopback',
    });
    expect((await register(harness, VALID, { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(202);
    expect((await register(harness, VALID, { 'x-forwarded-for': '198.51.100.5' })).statusCode).toBe(202);
    const paused = await register(harness, VALID, { 'x-forwarded-for': '192.0.2.6' });
    expect([paused.statusCode, paused.json().message]).toEqual([503, REGISTRATION_MESSAGES.paused]);
  });

  it('tells the registrant the decision, hands out the key exactly once, and the key works', async () => {
    const log = captureLogger('debug');
    const harness = await start({}, { logger: log.logger });
    const token = (await register(harness)).json().mfi.registration.claim_token as string;
    const claim = () => harness.app.inject({ method: 'GET', url: `/v1/registrations/${token}` });

    expect((await claim()).json()).toEqual({
      status: 'ok',
      mfi: { registration: { status: 'pending', expires_at: expect.any(String) } },
      message: '',
    });
    const unknown = await harness.app.inject({ method: 'GET', url: '/v1/registrations/mowclaim_nope' });
    expect([unknown.statusCode, unknown.json()]).toEqual([
      404,
      { status: 'error', mfi: null, message: REGISTRATION_MESSAGES.unknownClaim },
    ]);

    // The operator approves from another process (the CLI): another connection to the same file.
    const operator = await Database.open(harness.config.db.path);
    await new RegistrationStore(operator).approve(1, FIXED_NOW_MS);
    await operator.close();
    const first = (await claim()).json();
    expect(first.mfi.registration).toEqual({ status: 'approved', api_key: expect.stringMatching(/^mow_/) });
    expect((await claim()).json().mfi.registration).toEqual({ status: 'claimed' });

    const key = first.mfi.registration.api_key as string;
    await waitFor(() => harness.access.lookupKey(key) !== undefined, CHANGE_DEADLINE_MS);
    const calculation = await harness.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      payload: MINIMAL_INPUT,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(calculation.statusCode).toBe(200);
    // Neither the claim token nor the key reaches a log line.
    expect(log.text()).not.toContain(token);
    expect(log.text()).not.toContain(key);
    expect(log.text()).toContain('/v1/registrations/:claim_token');
  });

  it('shows a rejection with its reason', async () => {
    const harness = await start();
    const token = (await register(harness)).json().mfi.registration.claim_token as string;
    await new RegistrationStore(harness.db).reject(1, FIXED_NOW_MS, 'Please describe the use in more detail.');
    const response = await harness.app.inject({ method: 'GET', url: `/v1/registrations/${token}` });
    expect(response.json().mfi.registration).toEqual({ status: 'rejected', reason: 'Please describe the use in more detail.' });
  });

  it('answers 503 in maintenance mode', async () => {
    const harness = await start();
    await harness.store.setMaintenance(true);
    await waitFor(() => harness.access.maintenance, CHANGE_DEADLINE_MS);
    expect((await register(harness)).statusCode).toBe(503);
  });
});

describe('daily quota on /v1/calculate', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('answers 429 with the quota message and Retry-After until midnight in the configured zone', async () => {
    h = await startHttpHarness({
      env: { MOWABILITY_KEYS_DAILY_QUOTA: '2', MOWABILITY_RATE_LIMIT_MAX: '0' },
      extend: publicServiceParts({ usage: true }),
    });
    const harness = h;
    const created = await harness.store.addKey('quota');
    await waitFor(() => harness.access.lookupKey(created.key) !== undefined, CHANGE_DEADLINE_MS);
    const calculate = () =>
      harness.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        payload: MINIMAL_INPUT,
        headers: { authorization: `Bearer ${created.key}` },
      });
    expect((await calculate()).statusCode).toBe(200);
    expect((await calculate()).statusCode).toBe(200);
    const refused = await calculate();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      status: 'error',
      mfi: null,
      message: 'Daily quota of 2 requests for this API key is used up. Retry after the time given in the Retry-After header.',
    });
    // FIXED_NOW is 14:00 in Berlin: ten hours to midnight.
    expect(refused.headers['retry-after']).toBe('36000');
    // A key's own quota overrides the configured one.
    await harness.store.setKeyQuota(created.id, 0);
    await waitFor(() => harness.access.lookupKey(created.key)?.dailyQuota === 0, CHANGE_DEADLINE_MS);
    expect((await calculate()).statusCode).toBe(200);
  });
});
