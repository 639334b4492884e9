/**
 * The night ban of a station without a location (the README's rtl_433 example has none): the sun of
 * the configured time zone's reference point in the tz database (src/lawn/zoneLocation.ts), stated in
 * the reason and the start log; `lawnMemory.nightBanZoneLocation` false turns it off. Through the
 * real configuration loader, the lawn memory module on SQLite and the station pipeline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { lawnMemorySettingsOf, lawnMemoryUnit } from '../../src/lawn/buildLawnUnit.js';
import { nightBanSource, zoneLocation } from '../../src/lawn/zoneLocation.js';
import { StationPipeline } from '../../src/station/pipeline.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import { buildUnit } from '../../src/station/unitBuilder.js';
import { Database } from '../../src/store/database.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { GARDEN } from '../helpers/statusPage.js';
import { FakeClock, mqttTempDir, silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { LawnMemoryStore } from '../../src/store/lawnMemoryStore.js';

/** 21:40 in Berlin on a December evening: the sun set at 15:53. */
const EVENING = Date.parse('2026-12-15T20:40:00Z');
const MINUTE = 60_000;

describe("the time zone's reference point in the tz database", () => {
  it('gives the zone table coordinates, for a link the zone it names, none for UTC or an unknown name', () => {
    expect(zoneLocation('Europe/Berlin')).toEqual({ zone: 'Europe/Berlin', latitude: 52.5, longitude: 13.3667 });
    expect(zoneLocation('US/Eastern')).toMatchObject({ zone: 'America/New_York', latitude: 40.7142 });
    expect(zoneLocation('Asia/Kolkata')?.latitude).toBeCloseTo(22.53, 1);
    expect(zoneLocation('UTC')).toBeUndefined();
    expect(zoneLocation('Mars/Olympus')).toBeUndefined();
  });

  it('says where a night ban takes its sun from', () => {
    const on = { nightBan: true, zoneLocation: true, timeZone: 'Europe/Berlin' };
    expect(nightBanSource(on, undefined)).toBe(
      'sunset and sunrise at the reference point of the time zone Europe/Berlin (52.5° N, 13.37° E), as the station has no location (set it for its own sun times)',
    );
    expect(nightBanSource(on, { latitude: 48.1, longitude: 11.6 })).toBe("sunset and sunrise at the station's location (48.1° N, 11.6° E)");
    expect(nightBanSource({ ...on, zoneLocation: false }, undefined)).toMatch(
      /^none: the station has no location and lawnMemory\.nightBanZoneLocation is false/,
    );
    expect(nightBanSource({ ...on, timeZone: 'UTC' }, undefined)).toMatch(/^none: .*the time zone UTC has no reference point/);
    expect(nightBanSource({ ...on, nightBan: false }, undefined)).toBe('off (lawnMemory.nightBan is false)');
  });
});

describe('a station without a location at 21:40 in December', () => {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
  });

  async function evening(env: Record<string, string>): Promise<{ state: StationStatePayload; logs: Array<Record<string, unknown>> }> {
    const temp = mqttTempDir();
    const database = await Database.open(temp.dbPath);
    const loaded = loadConfig({ env: { MOWABILITY_TIMEZONE: 'Europe/Berlin', ...env }, argv: [], units: stationUnitConfigs() });
    const config = {
      ...testMqttConfig({ stations: [GARDEN], broker: { enabled: false }, station: { mowableOnDelayMinutes: 0 } }),
      lawnMemory: lawnMemorySettingsOf(loaded),
    };
    const wall = new FakeClock(EVENING - 30 * MINUTE);
    const capture = captureLogger();
    const units = buildUnit(
      lawnMemoryUnit,
      {
        config,
        logger: capture.logger,
        clock: wall,
        throttle: (log) => new LogThrottle(log),
      },
      { store: new LawnMemoryStore(database) },
    );
    const pipeline = new StationPipeline({
      config,
      database,
      logger: silentLogger,
      log: silentLogger,
      throttle: new LogThrottle(silentLogger),
      clock: wall,
      units,
    });
    const states: StationStatePayload[] = [];
    pipeline.onState((_station, state) => states.push(state));
    await pipeline.start();
    open.push(async () => {
      await pipeline.stop();
      await database.close();
      temp.cleanup();
    });
    // A dry, mild, breezy half hour up to 21:40.
    for (let i = 0; i <= 30; i++) {
      pipeline.handleMessage(
        GARDEN,
        GARDEN.topic,
        Buffer.from(JSON.stringify({ temp: 11 + (i % 2) * 0.1, hum: 55, wind: 12, rate: 0, rain: 0 })),
        false,
      );
      if (i < 30) wall.advance(MINUTE);
    }
    pipeline.recomputeAll();
    return { state: states.at(-1)!, logs: capture.lines() };
  }

  it('is not mowable: the night ban of the time zone, which the reason names in both languages and the start log states', async () => {
    const { state, logs } = await evening({});
    expect(state.mowable).toBe(false);
    expect(state.mowable_reason).toMatch(
      /^quiet hours: night ban from 15:\d\d \(30 min before sunset\) to 08:\d\d \(30 min after sunrise\), sun times at the reference point of the time zone Europe\/Berlin \(52\.5° N, 13\.37° E\), as the station has no location$/,
    );
    expect(state.mowable_reason_de).toMatch(
      /^Ruhezeit: Nachtverbot von 15:\d\d .* Sonnenzeiten am Bezugsort der Zeitzone Europe\/Berlin \(52,5° N, 13,37° O\), da die Station keinen Standort hat$/,
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(
          /^night ban of stations without a location: sunset and sunrise at the reference point of the time zone Europe\/Berlin/,
        ),
        stations: ['garden'],
      }),
    );
    expect((state as unknown as Record<string, unknown>).night_ban_sun).toEqual({
      source: 'time_zone',
      zone: 'Europe/Berlin',
      latitude: 52.5,
      longitude: 13.3667,
    });
  });

  it('lawnMemory.nightBanZoneLocation false restores no night ban without a location, and the log says so', async () => {
    const { state, logs } = await evening({ MOWABILITY_LAWN_MEMORY_NIGHT_BAN_ZONE_LOCATION: 'false' });
    expect(state.mowable_reason).not.toMatch(/night ban/);
    expect(state.mowable).toBe(true);
    expect((state as unknown as Record<string, unknown>).night_ban_sun).toEqual({ source: 'none' });
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/^night ban of stations without a location: none: .*nightBanZoneLocation is false/),
      }),
    );
  });
});
