/**
 * The upload routes through the real app (inject): the station is found by
 * its hashed PASSKEY or ID+PASSWORD, every request is answered 200 "success",
 * and every refusal is counted per station and reason and logged without the secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcceptReading } from '../../src/station/facade.js';
import { UPLOAD_BODY_LIMIT_BYTES, WUNDERGROUND_PATH } from '../../src/http/uploads.js';
import { uploadSecretDigest } from '../../src/http/uploadsMatch.js';
import { UploadCounters } from '../../src/http/uploadsCounters.js';
import type { Reading } from '../../src/ingest/types.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { ecowittBody, wundergroundRequest } from '../helpers/uploadPayloads.js';
import { gardenAndPws, writeStationsConfig } from '../helpers/uploadStations.js';

const PASSKEY = '0123456789ABCDEF0123456789ABCDEF';
const WU_PASSWORD = 'hunter2-pws';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Setup {
  harness: HttpHarness;
  counters: UploadCounters;
  received: Array<{ stationId: string; reading: Reading; origin: string }>;
  log: ReturnType<typeof captureLogger>;
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(options: { outcome?: ReturnType<AcceptReading>; env?: Record<string, string> } = {}): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'mowability-uploads-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const configFile = writeStationsConfig(dir, gardenAndPws(PASSKEY, WU_PASSWORD));
  const received: Setup['received'] = [];
  const counters = new UploadCounters();
  const log = captureLogger('info');
  const acceptReading: AcceptReading = (stationId, reading, origin) => {
    received.push({ stationId, reading, origin });
    return options.outcome ?? 'accepted';
  };
  const harness = await startHttpHarness({
    env: { MOWABILITY_CONFIG: configFile, ...options.env },
    logger: log.logger,
    overrides: { acceptReading, uploadCounters: counters },
  });
  cleanup.push(() => harness.close());
  return { harness, counters, received, log };
}

function expectSuccess(response: { statusCode: number; body: string; headers: Record<string, unknown> }): void {
  expect(response.statusCode).toBe(200);
  expect(response.body).toBe('success');
  expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
}

describe('Ecowitt upload route', () => {
  it("hands a captured body with the right PASSKEY to the pipeline as the station's reading", async () => {
    const { harness, counters, received } = await setup();
    for (const url of ['/data/report/', '/data/report']) {
      expectSuccess(await harness.app.inject({ method: 'POST', url, headers: FORM, payload: ecowittBody('gw2000a_2', { PASSKEY }) }));
    }
    expect(received).toHaveLength(2);
    expect(received[0]).toMatchObject({ stationId: 'garden', origin: 'upload:ecowitt' });
    expect(received[0]?.reading.values.humidity).toBe(65);
    expect(received[0]?.reading.payloadTimeMs).toBe(Date.parse('2022-04-20T19:14:47Z'));
    expect(counters.get('ecowitt', 'garden', 'accepted')).toBe(2);
  });

  it('answers "success" to an unknown PASSKEY, counts it, and logs its digest but never the PASSKEY', async () => {
    const { harness, counters, received, log } = await setup();
    const other = 'FEDCBA9876543210FEDCBA9876543210';
    expectSuccess(
      await harness.app.inject({ method: 'POST', url: '/data/report/', headers: FORM, payload: ecowittBody('ws2900', { PASSKEY: other }) }),
    );
    expectSuccess(
      await harness.app.inject({ method: 'POST', url: '/data/report/', headers: FORM, payload: ecowittBody('ws2900', { PASSKEY: other }) }),
    );
    expectSuccess(await harness.app.inject({ method: 'POST', url: '/data/report/', headers: FORM, payload: 'tempf=50' }));
    expect(received).toEqual([]);
    expect(counters.get('ecowitt', undefined, 'unknown_passkey')).toBe(2);
    expect(counters.get('ecowitt', undefined, 'missing_credentials')).toBe(1);
    const text = log.text();
    expect(text).not.toContain(other);
    expect(text).toContain(uploadSecretDigest(other));
    // Throttled: one line for the two unknown-PASSKEY uploads.
    expect(log.lines().filter((line) => line.reason === 'unknown_passkey')).toHaveLength(1);
  });

  it('never logs the configured PASSKEY, and counts readings the pipeline refused per station', async () => {
    const { harness, counters, log } = await setup({ outcome: 'rejected' });
    expectSuccess(
      await harness.app.inject({
        method: 'POST',
        url: '/data/report/',
        headers: FORM,
        payload: ecowittBody('ws2900', { PASSKEY, dateutc: '2099-01-01 00:00:00' }),
      }),
    );
    expect(counters.get('ecowitt', 'garden', 'rejected')).toBe(1);
    expectSuccess(
      await harness.app.inject({
        method: 'POST',
        url: '/data/report/',
        headers: FORM,
        payload: new URLSearchParams({ PASSKEY, tempf: 'warm', stationtype: 'x' }).toString(),
      }),
    );
    expect(counters.get('ecowitt', 'garden', 'unparsable')).toBe(1);
    expect(log.text()).not.toContain(PASSKEY);
  });

  it('reads any body type as a form, answers garbage with "success", and refuses bodies beyond the upload limit', async () => {
    const { harness, counters } = await setup();
    expectSuccess(
      await harness.app.inject({
        method: 'POST',
        url: '/data/report/',
        headers: { 'content-type': 'text/plain' },
        payload: ecowittBody('ws2900', { PASSKEY }),
      }),
    );
    expect(counters.get('ecowitt', 'garden', 'accepted')).toBe(1);
    for (const payload of ['%%%', '\u0000\u0001', '{"PASSKEY": 1}', 'PASSKEY&PASSKEY=&=']) {
      expectSuccess(
        await harness.app.inject({ method: 'POST', url: '/data/report/', headers: { 'content-type': 'application/json' }, payload }),
      );
    }
    const tooLarge = await harness.app.inject({
      method: 'POST',
      url: '/data/report/',
      headers: FORM,
      payload: `PASSKEY=${PASSKEY}&x=${'a'.repeat(UPLOAD_BODY_LIMIT_BYTES)}`,
    });
    expect(tooLarge.statusCode).toBe(413);
  });

  it('follows http.ecowittUploadPath, and "" switches the route off', async () => {
    const moved = await setup({ env: { MOWABILITY_HTTP_ECOWITT_UPLOAD_PATH: '/ecowitt' } });
    expectSuccess(
      await moved.harness.app.inject({ method: 'POST', url: '/ecowitt/', headers: FORM, payload: ecowittBody('ws2900', { PASSKEY }) }),
    );
    expect((await moved.harness.app.inject({ method: 'POST', url: '/data/report/', headers: FORM, payload: 'a=1' })).statusCode).toBe(404);
    const off = await setup({ env: { MOWABILITY_HTTP_ECOWITT_UPLOAD_PATH: '' } });
    expect((await off.harness.app.inject({ method: 'POST', url: '/data/report/', headers: FORM, payload: 'a=1' })).statusCode).toBe(404);
  });
});

describe('Weather Underground upload route', () => {
  it('hands the request with the right ID and PASSWORD to the pipeline; dateutc with "+" is UTC', async () => {
    const { harness, counters, received } = await setup();
    const url = wundergroundRequest('wunderground-get__wu-protocol__all-fields.txt', { PASSWORD: WU_PASSWORD });
    expectSuccess(await harness.app.inject({ method: 'GET', url }));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ stationId: 'pws', origin: 'upload:wunderground' });
    expect(received[0]?.reading.payloadTimeMs).toBe(Date.parse('2026-11-23T13:55:00Z'));
    expect(counters.get('wunderground', 'pws', 'accepted')).toBe(1);
  });

  it('answers "success" to a wrong password, an unknown ID and no credentials, counting each', async () => {
    const { harness, counters, received, log } = await setup();
    const base = 'wunderground-get__wu-protocol__all-fields.txt';
    expectSuccess(await harness.app.inject({ method: 'GET', url: wundergroundRequest(base, { PASSWORD: 'guess' }) }));
    expectSuccess(await harness.app.inject({ method: 'GET', url: wundergroundRequest(base, { ID: 'KOTHER', PASSWORD: WU_PASSWORD }) }));
    expectSuccess(await harness.app.inject({ method: 'GET', url: `${WUNDERGROUND_PATH}?tempf=50` }));
    expectSuccess(
      await harness.app.inject({ method: 'GET', url: `${WUNDERGROUND_PATH}?ID=KXXTEST1&PASSWORD=${WU_PASSWORD}&tempf=50&tempf=51` }),
    );
    expect(received).toEqual([]);
    expect(counters.get('wunderground', undefined, 'wrong_password')).toBe(1);
    expect(counters.get('wunderground', undefined, 'unknown_station_id')).toBe(1);
    expect(counters.get('wunderground', undefined, 'missing_credentials')).toBe(1);
    expect(counters.get('wunderground', 'pws', 'unparsable')).toBe(1);
    expect(log.text()).not.toContain(WU_PASSWORD);
    expect(log.text()).not.toContain('guess');
  });

  it('is not behind API keys or the metrics access rule, and counts a pipeline that is not running', async () => {
    const { harness, counters } = await setup({ outcome: 'not_running', env: { MOWABILITY_HTTP_METRICS: 'key' } });
    expectSuccess(
      await harness.app.inject({
        method: 'GET',
        url: wundergroundRequest('wunderground-get__wu-protocol__all-fields.txt', { PASSWORD: WU_PASSWORD }),
      }),
    );
    expect(counters.get('wunderground', 'pws', 'not_running')).toBe(1);
  });
});
