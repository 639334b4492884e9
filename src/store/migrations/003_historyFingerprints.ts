import type { Migration } from './migration.js';

/**
 * The duplicate filter of each station history (content hash + reading
 * time), written in the same transaction as the data it let in, so a QoS 1
 * redelivery after a restart is recognised. Keyed by time for the
 * newest-first load and the daily prune.
 */
export const historyFingerprints: Migration = {
  version: 3,
  name: 'history fingerprints: history_fingerprints',
  up: `
    CREATE TABLE history_fingerprints (
      station TEXT    NOT NULL,
      at_ms   INTEGER NOT NULL,
      hash    INTEGER NOT NULL,
      PRIMARY KEY (station, at_ms, hash)
    ) WITHOUT ROWID;
  `,
};
