/**
 * Console uploads by every path, method and credential they use (through the
 * real app, inject): WU on .php, .asp and no extension; Ambient's PASSKEY
 * (a MAC in any spelling) on the WU path and by GET on the Ecowitt path, with
 * the fields after "?" or glued onto the path; each refusal told with its reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadRefusal } from '../../src/http/uploads.js';
import type { AcceptReading } from '../../src/station/facade.js';
import { WUNDERGROUND_PATHS } from '../../src/http/uploads.js';
import { canonicalPasskey, uploadSecretDigest } from '../../src/http/uploadsMatch.js';
import { UploadCounters } from '../../src/http/uploadsCounters.js';
import type { Reading } from '../../src/ingest/types.js';
import { startHttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { payloadText } from '../helpers/mqttPayloads.js';
import { ecowittStation, writeStationsConfig, wundergroundStation } from '../helpers/uploadStations.js';

const AMBIENT_MAC = '00:0E:C6:AA:BB:0C';
const INTERCEPTOR_PASSKEY = 'DUMMYDATADUMMYDATADUMMYDATADATAD';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mowability-consoles-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const configFile = writeStationsConfig(dir, [
    wundergroundStation('hp1001', 'XXXXXXXXXXXXX', 'PASSWORD', 'HP1001'),
    wundergroundStation('observer', 'XXXX', 'PASSWORD', 'Observer'),
    ecowittStation('amb', INTERCEPTOR_PASSKEY, 'Ambient'),
    ecowittStation('mac', AMBIENT_MAC, 'Ambient MAC'),
  ]);
  const received: Array<{ stationId: string; reading: Reading; origin: string }> = [];
  const refusals: UploadRefusal[] = [];
  const counters = new UploadCounters();
  const log = captureLogger('info');
  const acceptReading: AcceptReading = (stationId, reading, origin) => {
    received.push({ stationId, reading, origin });
    return 'accepted';
  };
  const harness = await startHttpHarness({
    env: { MOWABILITY_CONFIG: configFile },
    logger: log.logger,
    overrides: { acceptReading, uploadCounters: counters, onUploadRefused: (refusal) => refusals.push(refusal) },
  });
  cleanup.push(() => harness.close());
  const get = async (url: string) => {
    const response = await harness.app.inject({ method: 'GET', url });
    expect([response.statusCode, response.body]).toEqual([200, 'success']);
  };
  return { get, received, refusals, counters, log };
}

const capture = (name: string) => payloadText(name).trim();

describe('console uploads by path and credentials', () => {
  it('takes the WU protocol on .php, .asp and without an extension, metric names and unpadded dates included', async () => {
    const { get, received, counters } = await setup();
    const query = capture('wunderground-get__interceptor__metric-asp.txt').split('?')[1];
    for (const path of WUNDERGROUND_PATHS) await get(`${path}?${query}`);
    await get(capture('wunderground-get__interceptor__observer-unpadded.txt'));
    expect(received.map((entry) => entry.stationId)).toEqual(['hp1001', 'hp1001', 'hp1001', 'observer']);
    expect(received[0]?.reading.values.temperature).toBe(6.3);
    expect(received[3]?.reading.payloadTimeMs).toBe(Date.parse('2016-01-04T21:02:35Z'));
    expect(counters.get('wunderground', 'hp1001', 'accepted')).toBe(3);
  });

  it('matches an Ambient console by PASSKEY on the WU path (no ID, no PASSWORD)', async () => {
    const { get, received, counters } = await setup();
    await get(capture('ambient-get__interceptor__ambweather-passkey.txt'));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ stationId: 'amb', origin: 'upload:ambient' });
    expect(received[0]?.reading.values.precipitation_rate).toBe(0);
    expect(counters.get('ambient', 'amb', 'accepted')).toBe(1);
  });

  it('matches a MAC PASSKEY however it is spelt, by GET on the Ecowitt path, after "?" or glued onto the path', async () => {
    const { get, received } = await setup();
    const fields = 'stationtype=AMBWeatherV4.3.4&dateutc=now&tempf=53.8&humidity=30&hourlyrainin=0.000&totalrainin=48.811';
    await get(`/data/report/?PASSKEY=00%3A0e%3Ac6%3Aaa%3Abb%3A0c&${fields}`);
    await get(`/data/report/&PASSKEY=000EC6AABB0C&${fields}`);
    await get(`/data/report&PASSKEY=00-0E-C6-AA-BB-0C&${fields}`);
    await get(`/data/reportPASSKEY=00-0E-C6-AA-BB-0C&${fields}`);
    expect(received.map((entry) => entry.stationId)).toEqual(['mac', 'mac', 'mac', 'mac']);
    expect(received[1]?.reading.values.humidity).toBe(30);
    expect(canonicalPasskey('0123456789ABCDEF0123456789ABCDEF')).toBe('0123456789ABCDEF0123456789ABCDEF');
    expect(canonicalPasskey('00:0e:c6:aa:bb:0c')).toBe(AMBIENT_MAC);
    expect(canonicalPasskey('00:0e-c6:aa:bb:0c')).toBe('00:0e-c6:aa:bb:0c');
  });

  it('tells every refusal with a reason a person can act on, never the secret', async () => {
    const { get, refusals, log } = await setup();
    await get('/weatherstation/updateweatherstation.asp?ID=XXXX&PASSWORD=PASSWORD&tempf=50&dateutc=2016-1-4%2025:2:35');
    await get('/weatherstation/updateweatherstation.php?stationtype=AMBWeatherV4.0.2&PASSKEY=AA:BB:CC:DD:EE:FF&tempf=50');
    await get('/weatherstation/updateweatherstation.php?ID=KOTHER&PASSWORD=secret-pw&tempf=50');
    await get('/data/report/?tempf=50');
    expect(refusals).toEqual([
      expect.objectContaining({
        station: 'observer',
        protocol: 'wunderground',
        outcome: 'unparsable',
        reason: expect.stringContaining('dateutc "2016-1-4 25:2:35"'),
      }),
      expect.objectContaining({
        station: undefined,
        protocol: 'ambient',
        outcome: 'unknown_passkey',
        source: `PASSKEY SHA-256 ${uploadSecretDigest('AA:BB:CC:DD:EE:FF')}`,
      }),
      expect.objectContaining({
        station: undefined,
        protocol: 'wunderground',
        outcome: 'unknown_station_id',
        source: 'ID KOTHER',
        reason: expect.stringContaining('upload.stationId'),
      }),
      expect.objectContaining({ station: undefined, protocol: 'ecowitt', outcome: 'missing_credentials' }),
    ]);
    expect(JSON.stringify(refusals)).not.toMatch(/secret-pw|AA:BB:CC:DD:EE:FF"/);
    expect(log.text()).not.toContain('secret-pw');
  });
});
