/**
 * Direct uploads end to end: the daemon with its embedded broker, a real HTTP
 * POST of a captured Ecowitt body and a real WU GET → the station history in
 * SQLite → the retained state on MQTT; refusals are still answered 200 and
 * show up per station and reason in /metrics.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { Database } from '../../src/store/database.js';
import { createLogger } from '../../src/util/logger.js';
import { RecordingClient, mqttTempDir, waitUntil } from '../helpers/mqttHarness.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';
import { ecowittBody, wundergroundRequest } from '../helpers/uploadPayloads.js';
import { gardenAndPws, writeStationsConfig } from '../helpers/uploadStations.js';

const PASSKEY = '0123456789ABCDEF0123456789ABCDEF';
const WU_PASSWORD = 'pws-secret-7';

/** The protocols' dateutc: UTC "YYYY-MM-DD HH:MM:SS". */
function dateutc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

describe('direct station uploads through the daemon', () => {
  let temp: ReturnType<typeof mqttTempDir>;
  let daemon: RunningDaemon | undefined;
  let client: RecordingClient | undefined;
  const logLines: Array<Record<string, unknown>> = [];

  beforeEach(async () => {
    temp = mqttTempDir();
    logLines.length = 0;
    const file = writeStationsConfig(temp.dir, gardenAndPws(PASSKEY, WU_PASSWORD));
    const env = {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_PORT: '0',
      MOWABILITY_HISTORY_FLUSH_INTERVAL_SECONDS: '1',
    };
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    daemon = await startDaemon({
      config: loadConfig({ argv: ['--config', file], env }),
      logger: createLogger({ level: 'info', destination: sink }),
    });
    const port = logLines.find((line) => line.msg === 'embedded MQTT broker listening')?.port as number;
    client = await RecordingClient.connect(port);
    await client.client.subscribeAsync('mowability/#', { qos: 1 });
    await waitUntil(() => client!.text('mowability/bridge/state') === 'online', 'bridge online');
  });

  afterEach(async () => {
    await client?.close();
    await daemon?.stop();
    client = daemon = undefined;
    temp.cleanup();
  });

  async function post(body: string): Promise<Response> {
    return fetch(`${daemon!.httpAddress}/data/report/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  }

  async function metrics() {
    return parsePrometheusText(await (await fetch(`${daemon!.httpAddress}/metrics`)).text());
  }

  async function latest(station: string): Promise<Record<string, number>> {
    const db = await Database.open(temp.dbPath, { create: false });
    try {
      const rows = await db.all<{ field: string; value: number }>('SELECT field, value FROM history_latest WHERE station = ?', [station]);
      return Object.fromEntries(rows.map((row) => [row.field, row.value]));
    } finally {
      await db.close();
    }
  }

  it('an Ecowitt POST reaches the history and the retained MQTT state; refusals answer 200 and are counted', async () => {
    const response = await post(ecowittBody('gw1100b', { PASSKEY, dateutc: dateutc(Date.now() - 30_000) }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('success');

    await waitUntil(
      () => (client!.json('mowability/garden/state')?.input as Record<string, unknown> | undefined)?.humidity === 48,
      'state with the upload',
      10_000,
    );
    const input = client!.json('mowability/garden/state')?.input as Record<string, number>;
    expect(input.temperature).toBeCloseTo(((91.4 - 32) * 5) / 9, 4);
    expect(input.soil_moisture).toBe(40);
    await waitUntil(async () => (await latest('garden')).humidity === 48, 'history written', 10_000);
    expect((await latest('garden')).soil_temperature).toBeCloseTo(((84.7 - 32) * 5) / 9, 4);

    // Wrong PASSKEY, a reading from the future, a bad value only: all 200 "success".
    for (const body of [
      ecowittBody('gw1100b', { PASSKEY: 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', dateutc: dateutc(Date.now()) }),
      ecowittBody('gw1100b', { PASSKEY, dateutc: dateutc(Date.now() + 3_600_000) }),
      new URLSearchParams({ PASSKEY, tempf: '999', dateutc: dateutc(Date.now()) }).toString(),
    ]) {
      const refused = await post(body);
      expect(refused.status).toBe(200);
      expect(await refused.text()).toBe('success');
    }
    const families = await metrics();
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: 'garden', outcome: 'accepted' })).toBe(1);
    expect(
      sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: '(unmatched)', outcome: 'unknown_passkey' }),
    ).toBe(1);
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: 'garden', outcome: 'rejected' })).toBe(1);
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'ecowitt', station: 'garden', outcome: 'unparsable' })).toBe(1);
    expect(sampleValue(families, 'mowability_station_readings_accepted_total', { station: 'garden' })).toBe(1);
    expect(sampleValue(families, 'mowability_database_bytes')).toBeGreaterThan(0);
    expect(logLines.some((line) => line.msg === 'station reading rejected' && line.station === 'garden')).toBe(true);
    expect(JSON.stringify(logLines)).not.toContain(PASSKEY);
  });

  it('a WU GET reaches the history and the retained MQTT state; a wrong password answers 200 and is counted', async () => {
    const url = `${daemon!.httpAddress}${wundergroundRequest('wunderground-get__wu-protocol__all-fields.txt', { PASSWORD: WU_PASSWORD, dateutc: 'now' })}`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('success');
    await waitUntil(
      () => (client!.json('mowability/pws/state')?.input as Record<string, unknown> | undefined)?.humidity === 72,
      'state with the upload',
      10_000,
    );
    const state = client!.json('mowability/pws/state')!;
    expect((state.input as Record<string, number>).soil_moisture).toBe(33);
    expect(Date.now() - Date.parse(String(state.last_reading_at))).toBeLessThan(60_000);
    await waitUntil(async () => (await latest('pws')).humidity === 72, 'history written', 10_000);

    const wrong = await fetch(url.replace(`PASSWORD=${WU_PASSWORD}`, 'PASSWORD=guess'));
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toBe('success');
    const families = await metrics();
    expect(sampleValue(families, 'mowability_uploads_total', { protocol: 'wunderground', station: 'pws', outcome: 'accepted' })).toBe(1);
    expect(
      sampleValue(families, 'mowability_uploads_total', { protocol: 'wunderground', station: '(unmatched)', outcome: 'wrong_password' }),
    ).toBe(1);
  });
});
