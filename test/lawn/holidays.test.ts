/**
 * Public holidays in the quiet hours: date-holidays' dates for a country and region (offline), the
 * settings' errors, and the daemon holding `mowable` on Corpus Christi in Bavaria but not in Berlin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import type { AppConfig } from '../../src/config/schema.js';
import { HolidayCalendar, publicHolidays } from '../../src/lawn/holidays.js';
import { lawnMemorySettingsOf, lawnMemoryUnit } from '../../src/lawn/buildLawnUnit.js';
import { stationUnitConfigs } from '../../src/daemon.js';
import { buildUnit } from '../../src/station/unitBuilder.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { Database } from '../../src/store/database.js';
import { mqttTest, type MqttDaemonFixture } from '../helpers/mqttFixture.js';
import { silentLogger, testMqttConfig } from '../helpers/mqttHarness.js';
import { garden, replay, type LawnDaemon, type Weather } from './lawnHarness.js';
import { LawnMemoryStore } from '../../src/store/lawnMemoryStore.js';

const mild: Weather = { temperature: 18, humidity: 55, wind_speed: 6, solar: 500 };

function configWith(dir: string, lawnMemory: Record<string, unknown>): () => AppConfig {
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({ db: { path: join(dir, 'mowability.db') }, timezone: 'Europe/Berlin', lawnMemory, stations: [garden] }),
  );
  return () => loadConfig({ argv: ['--config', file], units: stationUnitConfigs() });
}

describe('public holidays from date-holidays', () => {
  it('Epiphany (6 January) is a holiday in Bavaria, not in Berlin; 3 October everywhere in Germany', async () => {
    const bavaria = await publicHolidays({ country: 'DE', region: 'BY' }, 2026, 2027);
    const berlin = await publicHolidays({ country: 'DE', region: 'BE' }, 2026, 2027);
    expect(bavaria.get('2026-01-06')).toBe('Epiphany');
    expect(berlin.has('2026-01-06')).toBe(false);
    for (const days of [bavaria, berlin]) expect(days.get('2027-10-03')).toBe('National Holiday');
    // Public holidays only: Christmas Eve is no day of rest in Germany.
    expect(bavaria.has('2026-12-24')).toBe(false);
  });

  it('refuses codes it does not know, naming the setting and how to find valid codes', async () => {
    await expect(publicHolidays({ country: 'XX', region: '' }, 2026, 2026)).rejects.toThrow(ConfigError);
    await expect(publicHolidays({ country: 'XX', region: '' }, 2026, 2026)).rejects.toThrow(
      /"lawnMemory\.holidayCountry" = "XX" is not a country .*https:\/\/github\.com\/commenthol\/date-holidays#supported-countries-states-regions/,
    );
    await expect(publicHolidays({ country: 'DE', region: 'BAY' }, 2026, 2026)).rejects.toThrow(
      /"lawnMemory\.holidayRegion" = "BAY" is not a region of DE: use one of BB \(Brandenburg\), BE \(Berlin\), .*BY \(Bayern\)/,
    );
  });

  it("the calendar computes the dates from its clock's year on", async () => {
    const calendar = new HolidayCalendar({ country: 'AT', region: '' }, () => Date.parse('2026-03-01T00:00:00Z'));
    await calendar.start();
    expect(calendar.days.get('2025-12-08')).toBe('Immaculate Conception');
    expect(calendar.days.has('2036-12-08')).toBe(true);
    // The German names, for the German reason.
    expect(calendar.daysDe.get('2025-12-08')).toBe('Mariä Empfängnis');
  });

  it('checks the form of the settings at load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'holiday-config-'));
    try {
      expect(configWith(dir, { holidayCountry: 'de' })).toThrow(
        /lawnMemory\.holidayCountry.*must be empty or a two-letter ISO 3166-1 country code in capitals/,
      );
      expect(configWith(dir, { holidayRegion: 'BY' })).toThrow(/"lawnMemory\.holidayRegion" = "BY" needs "lawnMemory\.holidayCountry"/);
      expect(lawnMemorySettingsOf(configWith(dir, { holidayCountry: 'DE', holidayRegion: 'BY' })())).toMatchObject({
        holidayCountry: 'DE',
        holidayRegion: 'BY',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function startWithHolidays(mqtt: MqttDaemonFixture, region: string): Promise<LawnDaemon> {
  mqtt.clock.ms = Date.parse('2026-06-03T08:00:00Z');
  const config = configWith(mqtt.dir, { holidayCountry: 'DE', holidayRegion: region })();
  const database = await Database.open(mqtt.dbPath);
  // The module as stationUnits() builds it: the calendar unit, then the lawn memory reading its dates.
  const units = buildUnit(
    lawnMemoryUnit,
    {
      config,
      logger: silentLogger,
      clock: mqtt.clock,
      throttle: (log) => new LogThrottle(log),
    },
    { store: new LawnMemoryStore(database) },
  );
  expect(units.map((unit) => unit.name)).toEqual(['holidays', 'lawn']);
  const daemon = await mqtt.start(testMqttConfig({ stations: [garden], station: { mowableOnDelayMinutes: 0 } }), { units });
  const stop = async () => {
    await daemon.stop();
    await database.close().catch(() => undefined);
  };
  return {
    daemon,
    unit: units[1] as LawnDaemon['unit'],
    stop,
    state: () => daemon.service.stationState('garden') as ReturnType<LawnDaemon['state']>,
  };
}

mqttTest("Corpus Christi holds mowable in Bavaria with the holiday's name; the day before does not", async ({ mqtt }) => {
  const lawn = await startWithHolidays(mqtt, 'BY');
  try {
    replay(lawn, mqtt.clock, '2026-06-03T08:00:00Z', '2026-06-03T10:00:00Z', () => mild);
    expect(lawn.state()).toMatchObject({ mowable: true });
    expect(lawn.state()!.mowable_reason).not.toMatch(/quiet hours/);
    replay(lawn, mqtt.clock, '2026-06-04T08:00:00Z', '2026-06-04T10:00:00Z', () => mild);
    expect(lawn.state()).toMatchObject({ mowable: false, mowable_reason: 'quiet hours: public holiday (Corpus Christi)' });
  } finally {
    await lawn.stop();
  }
});

mqttTest('Corpus Christi is a working day in Berlin', async ({ mqtt }) => {
  const lawn = await startWithHolidays(mqtt, 'BE');
  try {
    replay(lawn, mqtt.clock, '2026-06-04T08:00:00Z', '2026-06-04T10:00:00Z', () => mild);
    expect(lawn.state()).toMatchObject({ mowable: true });
  } finally {
    await lawn.stop();
  }
});
