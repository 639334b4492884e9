/**
 * Fuzz of the direct upload routes through the real app: whatever a gateway
 * (or anyone) sends, the answer is 200 "success" (413 only beyond the upload
 * body limit), never a 5xx, and every request is accounted for in the counters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_BODY_LIMIT_BYTES, WUNDERGROUND_PATH } from '../../src/http/uploads.js';
import type { AcceptReading } from '../../src/station/facade.js';
import { UploadCounters } from '../../src/http/uploadsCounters.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { uploadFields } from '../helpers/uploadPayloads.js';
import { gardenAndPws, writeStationsConfig } from '../helpers/uploadStations.js';

const RUNS = 1500;
const PASSKEY = 'ABCDEF0123456789ABCDEF0123456789';
const CAPTURE = { ...uploadFields('ecowitt-http__ecowitt2mqtt__payload_gw2000a_2.json'), PASSKEY };
const KEYS = [...Object.keys(CAPTURE), 'PASSKEY', 'ID', 'PASSWORD', 'dateutc', '__proto__', 'constructor', 'hasOwnProperty'];

const hostileValue = fc.oneof(
  fc.constantFrom('', '-9999', 'NaN', '1e999', 'now', '2099-01-01 00:00:00', '0x1F', ' 12 ', '%', '%zz', '\u0000', PASSKEY, 'KXXTEST1'),
  fc.double().map(String),
  fc.string({ maxLength: 40 }),
);
const mutatedForm = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), hostileValue), { maxLength: 30 })
  .map((pairs) => new URLSearchParams([...Object.entries(CAPTURE), ...pairs]).toString());
const body = fc.oneof(
  mutatedForm,
  fc.string({ maxLength: 2000 }),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constantFrom('{"PASSKEY":"x","tempf":"50"}', '[]', 'a=1&a=2&a[b]=3', '&&&=', '%E0%A4%A'),
);
const contentType = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/json',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  undefined,
);

describe('upload routes fuzz', () => {
  let harness: HttpHarness;
  let dir: string;
  const counters = new UploadCounters();
  let handedOn = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mowability-upload-fuzz-'));
    const configFile = writeStationsConfig(dir, gardenAndPws(PASSKEY, PASSKEY));
    const acceptReading: AcceptReading = () => {
      handedOn++;
      return 'accepted';
    };
    harness = await startHttpHarness({
      env: { MOWABILITY_CONFIG: configFile, MOWABILITY_RATE_LIMIT_MAX: '0' },
      overrides: { acceptReading, uploadCounters: counters },
    });
  });

  afterAll(async () => {
    await harness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`answers ${RUNS} generated Ecowitt POSTs and WU GETs with 200 "success", each counted`, async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), body, contentType, async (ecowitt, payload, type) => {
        const response = ecowitt
          ? await harness.app.inject({ method: 'POST', url: '/data/report/', headers: type ? { 'content-type': type } : {}, payload })
          : await harness.app.inject({ method: 'GET', url: `${WUNDERGROUND_PATH}?${payload.replace(/[#\s]/g, '')}` });
        sent++;
        expect(response.statusCode, payload.slice(0, 100)).toBe(
          Buffer.byteLength(payload) > UPLOAD_BODY_LIMIT_BYTES && ecowitt ? 413 : 200,
        );
        expect(response.body).toBe('success');
      }),
      { numRuns: RUNS, seed: 20261123, endOnFailure: true },
    );
    const counted = counters.entries().reduce((sum, entry) => sum + entry.count, 0);
    expect(counted).toBe(sent);
    expect(handedOn).toBeGreaterThan(RUNS / 20);
    expect(counters.entries().some((entry) => entry.outcome === 'unparsable')).toBe(true);
    expect(counters.entries().some((entry) => entry.outcome === 'missing_credentials')).toBe(true);
  }, 120_000);
});
