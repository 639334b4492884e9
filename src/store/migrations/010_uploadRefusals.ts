import type { Migration } from './migration.js';

/**
 * Refused station uploads per station and outcome (src/store/uploadRefusalStore.ts), for
 * `mowability status`: how many, and the last one's time, protocol, reason and source.
 * `station` is '(unmatched)' for uploads that matched no station. Written at the history's
 * flush interval, only when something was refused.
 */
export const uploadRefusals: Migration = {
  version: 10,
  name: 'upload_refusals',
  up: `
    CREATE TABLE upload_refusals (
      station      TEXT    NOT NULL,
      outcome      TEXT    NOT NULL,
      count        INTEGER NOT NULL,
      last_at_ms   INTEGER NOT NULL,
      protocol     TEXT    NOT NULL,
      reason       TEXT    NOT NULL,
      source       TEXT,
      PRIMARY KEY (station, outcome)
    ) WITHOUT ROWID;
  `,
};
