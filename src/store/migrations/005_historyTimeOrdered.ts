import type { Migration } from './migration.js';

/**
 * Minute buckets keyed by time first: a batch of new minutes from every
 * station then lands on the rightmost leaf page of one B-tree (SQLite appends
 * there without splitting siblings), instead of one leaf per station with
 * the station-first key of migration 2, which made every commit write a page
 * per station. The daily prune deletes from the left edge. Existing rows are
 * copied, so an upgrade keeps the 14-day history.
 */
export const historyTimeOrdered: Migration = {
  version: 5,
  name: 'history buckets keyed (minute, station)',
  up: `
    CREATE TABLE history_buckets_by_minute (
      minute        INTEGER NOT NULL,
      station       TEXT    NOT NULL,
      rain_mm       REAL    NOT NULL DEFAULT 0,
      rain_observed INTEGER NOT NULL DEFAULT 0,
      temp_min_c    REAL,
      PRIMARY KEY (minute, station)
    ) WITHOUT ROWID;
    INSERT INTO history_buckets_by_minute (minute, station, rain_mm, rain_observed, temp_min_c)
      SELECT minute, station, rain_mm, rain_observed, temp_min_c FROM history_buckets ORDER BY minute, station;
    DROP TABLE history_buckets;
    ALTER TABLE history_buckets_by_minute RENAME TO history_buckets;
  `,
};
