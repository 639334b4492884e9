/**
 * The registration limits against the attacks a review replayed: many addresses
 * of one IPv6 /64 (which used to count as many clients and filled the global
 * pending cap, pausing registration for everyone), many /64s of one /48, and
 * concurrent registrations from one address (which all became pending against a
 * limit of 3). Real app, real SQLite file, addresses through a trusted proxy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES } from '../../src/publicService/registrationRoutes.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from './harness.js';

const VALID = {
  name: 'Alice Gardener',
  email: 'alice@example.org',
  intended_use: 'Robot mower schedule in my garden',
  usage: 'private',
  accept_terms: true,
};
const BEHIND_PROXY = { MOWABILITY_REGISTRATION_ENABLED: 'true', MOWABILITY_RATE_LIMIT_MAX: '0', MOWABILITY_TRUST_PROXY: 'loopback' };

describe('registration limits per client and network', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const start = async (env: Record<string, string> = {}) => {
    h = await startHttpHarness({ env: { ...BEHIND_PROXY, ...env }, extend: publicServiceParts({ registrations: true }) });
    return h;
  };
  const register = (harness: HttpHarness, from: string) =>
    harness.app.inject({ method: 'POST', url: '/v1/registrations', payload: VALID, headers: { 'x-forwarded-for': from } });
  const statuses = async (harness: HttpHarness, addresses: string[]) => {
    const answers: Array<[number, string]> = [];
    for (const address of addresses) {
      const response = await register(harness, address);
      answers.push([response.statusCode, response.json().message as string]);
    }
    return answers;
  };

  it('counts one IPv6 /64 as one client: 60 of its addresses get 3 pending registrations, and others still register', async () => {
    const harness = await start({ MOWABILITY_REGISTRATION_MAX_PENDING: '40' });
    const answers = await statuses(
      harness,
      Array.from({ length: 60 }, (_, index) => `2001:db8:1:2::${(index + 1).toString(16)}`),
    );
    expect(answers.filter(([status]) => status === 202)).toHaveLength(3);
    expect(answers[3]).toEqual([429, REGISTRATION_MESSAGES.tooManyPending]);
    // The attempts per hour count the /64 too.
    expect(answers.slice(5).every(([status, message]) => status === 429 && message === REGISTRATION_MESSAGES.tooManyAttempts)).toBe(true);
    expect((await register(harness, '2001:db8:99::1')).statusCode).toBe(202);
    expect((await register(harness, '198.51.100.7')).statusCode).toBe(202);
  });

  it('gives one IPv6 /48 and one IPv4 /24 a share of the pending cap, not all of it', async () => {
    const harness = await start({ MOWABILITY_REGISTRATION_MAX_PENDING: '30', MOWABILITY_REGISTRATION_MAX_PENDING_PER_NETWORK: '10' });
    const sixtyFours = await statuses(
      harness,
      Array.from({ length: 40 }, (_, index) => `2001:db8:7:${(index + 1).toString(16)}::1`),
    );
    expect(sixtyFours.filter(([status]) => status === 202)).toHaveLength(10);
    expect(
      sixtyFours.slice(10).every(([status, message]) => status === 429 && message === REGISTRATION_MESSAGES.tooManyPendingFromNetwork),
    ).toBe(true);
    const fours = await statuses(
      harness,
      Array.from({ length: 40 }, (_, index) => `203.0.113.${index + 1}`),
    );
    expect(fours.filter(([status]) => status === 202)).toHaveLength(10);
    expect((await register(harness, '2001:db8:8::1')).statusCode).toBe(202);
    expect((await register(harness, '192.0.2.1')).statusCode).toBe(202);
  });

  it('counts and inserts as one step: 5 concurrent registrations from one address against a limit of 3 make 3', async () => {
    const harness = await start();
    const answers = await Promise.all(Array.from({ length: 5 }, () => register(harness, '198.51.100.20')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 202, 202, 429, 429]);
    expect(await harness.db.all("SELECT id FROM registrations WHERE status = 'pending'")).toHaveLength(3);
  });
});
