import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ago } from '../../src/cli/statusReport.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import { useCliTempDir } from '../helpers/httpCli.js';

const MINUTE_MS = 60_000;

describe('mowability status', () => {
  const fixture = useCliTempDir((temp) => {
    const config = join(temp.dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        stations: [
          { id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events' },
          { id: 'pws', name: 'PWS', format: 'wunderground', upload: { stationId: 'K1', passwordSha256: 'a'.repeat(64) } },
        ],
      }),
    );
    // Nothing listens on that port: these cases read the database (the live cases are in statusReport.test.ts).
    return { MOWABILITY_CONFIG: config, MOWABILITY_HTTP_PORT: '9' };
  });
  const { cli } = fixture;

  it('says plainly that the daemon never ran with this database, in text and JSON, and creates nothing', async () => {
    const text = await cli('status');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`The daemon has not run with this database yet: ${fixture.temp.dbPath} does not exist.`);
    const json = await cli('status', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      database: fixture.temp.dbPath,
      database_exists: false,
      stations: [],
      unconfigured_with_history: [],
      unmatched_uploads: [],
      source: 'database',
    });
    expect(existsSync(fixture.temp.dbPath)).toBe(false);
  });

  it('shows each station with its last reading, latest values, the stored mowable flag and history size', async () => {
    const readAt = Date.now() - 5 * MINUTE_MS;
    const db = await Database.open(fixture.temp.dbPath);
    try {
      // Written the way the daemon writes them (migration 9's rows); the CLI reads them back through its views.
      const minute = Math.floor(readAt / MINUTE_MS);
      const bucket = (m: number) => ({ minute: m, rainMm: 0, rainObserved: true, tempMinC: 18 });
      const noChanges = { buckets: [], counters: [], latest: [], duplicates: null };
      await new HistoryStore(db).save({
        histories: [
          {
            station: 'garden',
            changes: {
              ...noChanges,
              buckets: [bucket(minute - 1), bucket(minute)],
              latest: [
                { field: 'temperature', value: 18.25, atMs: readAt - MINUTE_MS },
                { field: 'humidity', value: 55, atMs: readAt },
              ],
            },
          },
          { station: 'old', changes: { ...noChanges, latest: [{ field: 'humidity', value: 40, atMs: readAt }] } },
        ],
        states: [{ station: 'garden', mowable: true, aboveSinceMs: null }],
      });
    } finally {
      await db.close();
    }
    const json = await cli('status', '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.database_exists).toBe(true);
    expect(report.stations).toEqual([
      {
        id: 'garden',
        name: 'Garden',
        format: 'rtl_433',
        last_reading_at: new Date(readAt).toISOString(),
        mowable: true,
        latest: {
          humidity: { value: 55, at: new Date(readAt).toISOString() },
          temperature: { value: 18.25, at: new Date(readAt - MINUTE_MS).toISOString() },
        },
        history_minutes: 2,
        history_since: new Date((Math.floor(readAt / MINUTE_MS) - 1) * MINUTE_MS).toISOString(),
        uploads_refused: [],
        night_ban:
          'none: the station has no location and the time zone UTC has no reference point in the tz database (set the station\'s location, or "timezone" to your zone)',
      },
      {
        id: 'pws',
        name: 'PWS',
        format: 'wunderground',
        last_reading_at: null,
        mowable: null,
        latest: {},
        history_minutes: 0,
        history_since: null,
        uploads_refused: [],
        night_ban: expect.any(String),
      },
    ]);
    expect(report.unconfigured_with_history).toEqual(['old']);

    const text = await cli('status');
    expect(text.stdout).toContain('garden (Garden, rtl_433)');
    expect(text.stdout).toMatch(/last reading: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d \(5 min ago\)/);
    expect(text.stdout).toContain('mowable:      yes');
    expect(text.stdout).toContain(
      'latest:       humidity 55, temperature 18.25 (as of the last database write, every history.flushIntervalSeconds)',
    );
    expect(text.stdout).toContain('history:      2 minutes');
    // The rtl_433 station has no location and the fixture's time zone (UTC) no reference point: status says there is no night ban, and the fix.
    expect(text.stdout).toContain(
      'night ban:    none: the station has no location and the time zone UTC has no reference point in the tz database',
    );
    expect(text.stdout).toContain('last reading: none yet');
    expect(text.stdout).toContain('mowable:      not decided yet');
    expect(text.stdout).toContain('History of stations no longer configured: old');
  });

  it('prints its times on the clock of the configured timezone, with the offset; the JSON keeps UTC', async () => {
    const readAt = Date.now() - 5 * MINUTE_MS;
    const timeZone = 'America/New_York';
    // The zone from the config file, as a user sets it (the fixture's UTC variable would win over it).
    delete fixture.env.MOWABILITY_TIMEZONE;
    writeFileSync(
      fixture.env.MOWABILITY_CONFIG!,
      JSON.stringify({ timezone: timeZone, stations: [{ id: 'garden', name: 'Garden', format: 'rtl_433', topic: 'rtl_433/+/events' }] }),
    );
    const db = await Database.open(fixture.temp.dbPath);
    try {
      const minute = Math.floor(readAt / MINUTE_MS);
      await new HistoryStore(db).save({
        histories: [
          {
            station: 'garden',
            changes: {
              buckets: [{ minute, rainMm: 0, rainObserved: true, tempMinC: 18 }],
              counters: [],
              latest: [{ field: 'humidity', value: 55, atMs: readAt }],
              duplicates: null,
            },
          },
        ],
        states: [],
      });
    } finally {
      await db.close();
    }
    // The oracle: Intl's own wall clock and offset for the zone (sv-SE writes YYYY-MM-DD HH:MM:SS).
    const wall = (ms: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(ms);
    const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(readAt)
      .find((part) => part.type === 'timeZoneName')!
      .value.replace('GMT', '');
    const text = await cli('status');
    expect(text.stdout).toContain(`last reading: ${wall(readAt)} ${offset} (5 min ago)`);
    expect(text.stdout).toContain(`history:      1 minutes since ${wall(Math.floor(readAt / MINUTE_MS) * MINUTE_MS)} ${offset}`);
    expect(text.stdout).not.toMatch(/\d\dZ|T\d\d:/);
    expect(JSON.parse((await cli('status', '--json')).stdout).stations[0].last_reading_at).toBe(new Date(readAt).toISOString());
  });

  it('keeps control characters in station names away from the terminal', async () => {
    writeFileSync(
      fixture.env.MOWABILITY_CONFIG!,
      JSON.stringify({ stations: [{ id: 'x', name: 'Evil\u001b[2J', format: 'rtl_433', topic: 't' }] }),
    );
    await (await Database.open(fixture.temp.dbPath)).close();
    const text = await cli('status');
    expect(text.stdout).not.toContain('\u001b');
    expect(text.stdout).toContain('Evil\\u001b[2J');
    expect(ago(new Date(0).toISOString(), 3 * 3_600_000)).toBe('3 h ago');
    expect(ago(new Date(0).toISOString(), 3 * 86_400_000)).toBe('3 d ago');
  });
});
