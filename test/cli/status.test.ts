import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ago } from '../../src/cli/statusReport.js';
import { Database } from '../../src/store/database.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { makeTempDir } from '../helpers/httpTempDir.js';

const MINUTE_MS = 60_000;

describe('mowability status', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let env: Record<string, string>;
  const cli = (...argv: string[]) => runCliInProcess(argv, env);

  beforeEach(() => {
    temp = makeTempDir();
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
    env = { MOWABILITY_DB_PATH: temp.dbPath, MOWABILITY_TIMEZONE: 'UTC', MOWABILITY_CONFIG: config };
  });
  afterEach(() => temp.cleanup());

  it('says plainly that the daemon never ran with this database, in text and JSON, and creates nothing', async () => {
    const text = await cli('status');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`The daemon has not run with this database yet: ${temp.dbPath} does not exist.`);
    const json = await cli('status', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ database: temp.dbPath, database_exists: false, stations: [], unconfigured_with_history: [] });
    expect(existsSync(temp.dbPath)).toBe(false);
  });

  it('shows each station with its last reading, latest values, the stored mowable flag and history size', async () => {
    const readAt = Date.now() - 5 * MINUTE_MS;
    const db = await Database.open(temp.dbPath);
    try {
      await db.run('INSERT INTO history_latest (station, field, value, at_ms) VALUES (?, ?, ?, ?), (?, ?, ?, ?), (?, ?, ?, ?)', [
        'garden', 'temperature', 18.25, readAt - MINUTE_MS, 'garden', 'humidity', 55, readAt, 'old', 'humidity', 40, readAt,
      ]);
      await db.run('INSERT INTO history_station_state (station, mowable, above_since_ms) VALUES (?, 1, NULL)', ['garden']);
      const minute = Math.floor(readAt / MINUTE_MS);
      await db.run('INSERT INTO history_buckets (station, minute, rain_mm, rain_observed, temp_min_c) VALUES (?, ?, 0, 1, 18), (?, ?, 0, 1, 18)', ['garden', minute - 1, 'garden', minute]);
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
        latest: { humidity: { value: 55, at: new Date(readAt).toISOString() }, temperature: { value: 18.25, at: new Date(readAt - MINUTE_MS).toISOString() } },
        history_minutes: 2,
        history_since: new Date((Math.floor(readAt / MINUTE_MS) - 1) * MINUTE_MS).toISOString(),
      },
      { id: 'pws', name: 'PWS', format: 'wunderground', last_reading_at: null, mowable: null, latest: {}, history_minutes: 0, history_since: null },
    ]);
    expect(report.unconfigured_with_history).toEqual(['old']);

    const text = await cli('status');
    expect(text.stdout).toContain('garden (Garden, rtl_433)');
    expect(text.stdout).toMatch(/last reading: \S+ \(5 min ago\)/);
    expect(text.stdout).toContain('mowable:      yes');
    expect(text.stdout).toContain('latest:       humidity 55, temperature 18.25');
    expect(text.stdout).toContain('history:      2 minutes');
    expect(text.stdout).toContain('last reading: none yet');
    expect(text.stdout).toContain('mowable:      not decided yet');
    expect(text.stdout).toContain('History of stations no longer configured: old');
  });

  it('keeps control characters in station names away from the terminal', async () => {
    writeFileSync(env.MOWABILITY_CONFIG!, JSON.stringify({ stations: [{ id: 'x', name: 'Evil\u001b[2J', format: 'rtl_433', topic: 't' }] }));
    await (await Database.open(temp.dbPath)).close();
    const text = await cli('status');
    expect(text.stdout).not.toContain('\u001b');
    expect(text.stdout).toContain('Evil\\u001b[2J');
    expect(ago(new Date(0).toISOString(), 3 * 3_600_000)).toBe('3 h ago');
    expect(ago(new Date(0).toISOString(), 3 * 86_400_000)).toBe('3 d ago');
  });
});
