/** The refused-upload unit on its own: state fragment, counts since the last accepted reading, saving (and retrying a failed save). */
import { afterEach, describe, expect, it } from 'vitest';
import { lastUploadRefused } from '../../src/http/stationsView.js';
import { UploadRefusals, UNMATCHED } from '../../src/station/uploadRefusals.js';
import { Database } from '../../src/store/database.js';
import { loadUploadRefusals } from '../../src/store/uploadRefusalStore.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { silentLogger } from '../helpers/mqttHarness.js';

const T0 = Date.parse('2026-06-01T10:00:00Z');

describe('UploadRefusals', () => {
  const temp = makeTempDir();
  afterEach(() => temp.cleanup());

  it('shows the last refusal until a reading is accepted, counts refusals since, and saves counts per outcome', async () => {
    let db = await Database.open(temp.dbPath);
    let now = T0;
    const unit = new UploadRefusals({ database: () => db, logger: silentLogger, now: () => now, saveIntervalMs: 60_000 });
    await unit.start({
      history: {
        assemble: () => {
          throw new Error('unused');
        },
        buckets: () => [],
        observed: () => ({ rainSince: () => 0, minTempSince: () => Infinity }),
        lastReadingAtMs: () => null,
      },
    });
    expect(unit.stateFragment('pws')).toBeUndefined();
    unit.record({ station: 'pws', protocol: 'wunderground', outcome: 'unparsable', reason: 'first', atMs: now });
    unit.record({ station: 'pws', protocol: 'wunderground', outcome: 'unparsable', reason: 'second', atMs: (now += 1000) });
    unit.record({
      station: undefined,
      protocol: 'ambient',
      outcome: 'unknown_passkey',
      reason: 'no station',
      atMs: now,
      source: 'PASSKEY SHA-256 ab',
    });
    expect(unit.stateFragment('pws')).toEqual({
      last_upload_refused: { at: new Date(now).toISOString(), protocol: 'wunderground', outcome: 'unparsable', reason: 'second', count: 2 },
    });
    unit.onReading('pws');
    expect(unit.stateFragment('pws')).toBeUndefined();
    unit.record({ station: 'pws', protocol: 'wunderground', outcome: 'rejected', reason: 'third', atMs: (now += 1000) });
    expect(unit.stateFragment('pws')?.last_upload_refused).toMatchObject({ outcome: 'rejected', reason: 'third', count: 1 });

    // A failed save keeps the rows: the next one writes them.
    await db.close();
    await expect(unit.save()).rejects.toThrow();
    db = await Database.open(temp.dbPath);
    await unit.stop();
    expect((await loadUploadRefusals(db)).map((row) => [row.station, row.outcome, row.count, row.reason]).sort()).toEqual([
      [UNMATCHED, 'unknown_passkey', 1, 'no station'],
      ['pws', 'rejected', 1, 'third'],
      ['pws', 'unparsable', 2, 'second'],
    ]);
    await db.close();
  });

  it('restores the counts at start and keeps adding to them', async () => {
    const db = await Database.open(temp.dbPath);
    const first = new UploadRefusals({ database: () => db, logger: silentLogger, now: () => T0, saveIntervalMs: 60_000 });
    const context = {
      history: {
        assemble: () => {
          throw new Error('unused');
        },
        buckets: () => [],
        observed: () => ({ rainSince: () => 0, minTempSince: () => Infinity }),
        lastReadingAtMs: () => T0 + 5000,
      },
    };
    await first.start(context);
    first.record({ station: undefined, protocol: 'wunderground', outcome: 'unknown_station_id', reason: 'r', atMs: T0, source: 'ID K1' });
    await first.stop();
    const second = new UploadRefusals({ database: () => db, logger: silentLogger, now: () => T0, saveIntervalMs: 60_000 });
    await second.start(context);
    second.record({
      station: undefined,
      protocol: 'wunderground',
      outcome: 'unknown_station_id',
      reason: 'r2',
      atMs: T0 + 1,
      source: 'ID K2',
    });
    second.record({ station: 'pws', protocol: 'wunderground', outcome: 'unparsable', reason: 'old', atMs: T0 });
    // After a restart the history's last reading (newer than the refusal) hides it.
    expect(second.stateFragment('pws')).toBeUndefined();
    await second.stop();
    expect(await loadUploadRefusals(db)).toEqual([
      {
        station: UNMATCHED,
        outcome: 'unknown_station_id',
        count: 2,
        lastAtMs: T0 + 1,
        protocol: 'wunderground',
        reason: 'r2',
        source: 'ID K2',
      },
      { station: 'pws', outcome: 'unparsable', count: 1, lastAtMs: T0, protocol: 'wunderground', reason: 'old', source: null },
    ]);
    await db.close();
  });

  it("the status page reads the typed last_upload_refused, its time in the page's ISO form", () => {
    expect(lastUploadRefused(undefined)).toBeNull();
    expect(lastUploadRefused({ at: 'soon', protocol: 'ecowitt', outcome: 'wrong_password', reason: 'x', count: 1 })).toBeNull();
    expect(
      lastUploadRefused({ at: '2026-06-01T10:00:00Z', protocol: 'ecowitt', outcome: 'wrong_password', reason: 'y', count: 3 }),
    ).toEqual({ at: '2026-06-01T10:00:00.000Z', protocol: 'ecowitt', outcome: 'wrong_password', reason: 'y', count: 3 });
  });
});
