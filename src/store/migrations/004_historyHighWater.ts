import type { Migration } from './migration.js';

/**
 * The duplicate filter keeps one row per station instead of one per reading:
 * the newest reading time let in (the high-water mark) and the few entries
 * within the duplicate window of it (JSON [[time, hash], ...], for radio
 * repeats), written in the same transaction as the data. It starts from the newest fingerprint row, so an
 * upgrade keeps refusing redeliveries of what is already stored.
 */
export const historyHighWater: Migration = {
  version: 4,
  name: 'history high-water mark: history_high_water replaces history_fingerprints',
  up: `
    CREATE TABLE history_high_water (
      station TEXT    NOT NULL PRIMARY KEY,
      at_ms   INTEGER NOT NULL,
      recent  TEXT    NOT NULL DEFAULT '[]'
    ) WITHOUT ROWID;
    INSERT INTO history_high_water (station, at_ms) SELECT station, MAX(at_ms) FROM history_fingerprints GROUP BY station;
    DROP TABLE history_fingerprints;
  `,
};
