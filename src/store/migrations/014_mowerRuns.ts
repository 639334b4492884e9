import type { Migration } from './migration.js';

/**
 * Mower control (src/mower/): the run ledger, one row per run of a lawn's mower (who started it,
 * start, end, minutes mowing, outcome and reason; written when a run starts and when it ends, never
 * per reading), the API calls sent to the mower, counted against its budgets, and the "Automatic
 * mowing" switch as last set (a restart keeps it off when the user switched it off). Keyed by the lawn
 * (default: the station id), so several lawns per station add rows, not columns.
 */
export const mowerRuns: Migration = {
  version: 14,
  name: 'mower control: mower_runs, mower_calls and mower_switches',
  up: `
    CREATE TABLE mower_runs (
      id              INTEGER PRIMARY KEY,
      lawn            TEXT    NOT NULL,
      station         TEXT    NOT NULL,
      started_by      TEXT    NOT NULL,
      start_ms        INTEGER NOT NULL,
      end_ms          INTEGER,
      mowing_minutes  INTEGER NOT NULL DEFAULT 0,
      outcome         TEXT,
      reason          TEXT,
      reason_de       TEXT
    );
    CREATE INDEX mower_runs_lawn_start ON mower_runs (lawn, start_ms);
    CREATE TABLE mower_calls (
      lawn   TEXT    NOT NULL,
      at_ms  INTEGER NOT NULL,
      action TEXT    NOT NULL
    );
    CREATE INDEX mower_calls_lawn_at ON mower_calls (lawn, at_ms);
    CREATE TABLE mower_switches (
      lawn       TEXT    NOT NULL PRIMARY KEY,
      automatic  INTEGER NOT NULL,
      set_at_ms  INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
