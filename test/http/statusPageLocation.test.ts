/**
 * The open status page must not locate the station. Its `mowable_reason` used
 * to carry the night ban's times ("from 21:03 … to 05:13"), which are the
 * station's sunset and sunrise shifted by a known margin: from them anyone who
 * reaches the page computed the station's position to about 20 km. The open
 * page states the night ban without times; `key` mode and the MQTT state keep them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nightBanPublicReason } from '../../src/lawn/lawnUnit.js';
import { Database } from '../../src/store/database.js';
import { addKey } from '../helpers/httpApp.js';
import { testLawnUnit } from '../helpers/lawnUnit.js';
import { mqttTempDir, reading } from '../helpers/mqttHarness.js';
import { GARDEN, startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';

const BERLIN = { latitude: 52.52, longitude: 13.405 };
const DUSK_MS = Date.parse('2026-06-21T19:10:00Z');
const TIMED = 'quiet hours: night ban from 21:03 (30 min before sunset) to 05:13 (30 min after sunrise)';

describe('the open status page and the station location', () => {
  let h: StationsHarness | undefined;
  let database: Database | undefined;
  let temp: ReturnType<typeof mqttTempDir> | undefined;
  afterEach(async () => {
    await h?.stop();
    await database?.close();
    temp?.cleanup();
    h = database = temp = undefined;
  });

  const start = async (statusPage: 'open' | 'key') => {
    temp = mqttTempDir();
    database = await Database.open(temp.dbPath);
    const clock = () => h?.clock.now() ?? DUSK_MS;
    const lawn = testLawnUnit({ stations: [{ ...GARDEN, location: BERLIN }], database, now: clock });
    h = await startStationsHarness({
      dbPath: temp.dbPath,
      startMs: DUSK_MS,
      units: [lawn],
      env: { MOWABILITY_HTTP_STATUS_PAGE: statusPage },
    });
    expect(
      h.daemon.service.acceptReading('garden', reading({ temperature: 20, humidity: 60, wind_speed: 5, precipitation_rate: 0 }), 'test'),
    ).toBe('accepted');
    // The owner's own channels keep the times.
    expect(h.daemon.service.stationState('garden')).toMatchObject({ mowable: false, mowable_reason: TIMED });
    return h;
  };
  const get = async (harness: StationsHarness, url: string, headers: Record<string, string> = {}) =>
    (await harness.http.app.inject({ method: 'GET', url, headers })).json();

  it('open: the list and the detail state the night ban without the times that locate the station', async () => {
    const harness = await start('open');
    const list = await get(harness, '/v1/stations');
    const detail = await get(harness, '/v1/stations/garden');
    for (const station of [list.stations[0], detail.station]) {
      expect(station).toMatchObject({ mowable: false, mowable_reason: nightBanPublicReason(30) });
      expect(station.mowable_reason).not.toMatch(/\d{1,2}:\d{2}/);
      // The German page's sentence hides them too.
      expect(station.mowable_reason_de).toBe('Ruhezeit: Nachtverbot (von 30 Min. vor Sonnenuntergang bis 30 Min. nach Sonnenaufgang)');
    }
    expect(JSON.stringify([list, detail])).not.toContain(String(BERLIN.latitude));
  });

  it('key: whoever holds a key sees the times', async () => {
    const harness = await start('key');
    const { key } = await addKey(harness.http, 'owner', { allowGet: true });
    const list = await get(harness, '/v1/stations', { authorization: `Bearer ${key}` });
    expect(list.stations[0]).toMatchObject({ mowable: false, mowable_reason: TIMED });
    expect(list.stations[0].mowable_reason_de).toMatch(/^Ruhezeit: Nachtverbot von \d{2}:\d{2} \(30 Min\. vor Sonnenuntergang\)/);
  });
});
