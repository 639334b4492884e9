import type { Migration } from './migration.js';

/**
 * Lawn memory (src/lawn/): what cannot be re-derived from the 14-day history. One row per station
 * each: the balances as JSON (written every lawnMemory.saveIntervalMinutes and on stop, not per
 * reading), and the last cut (written at once, by the daemon or by `mowability mowed`).
 */
export const lawnMemory: Migration = {
  version: 7,
  name: 'lawn memory: lawn_balances and lawn_cuts',
  up: `
    CREATE TABLE lawn_balances (
      station     TEXT    NOT NULL PRIMARY KEY,
      state       TEXT    NOT NULL,
      saved_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE lawn_cuts (
      station        TEXT    NOT NULL PRIMARY KEY,
      at_ms          INTEGER NOT NULL,
      source         TEXT    NOT NULL,
      recorded_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
