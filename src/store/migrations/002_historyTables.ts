import type { Migration } from './migration.js';

/**
 * Station histories (one-minute buckets over 14 days, rain counter baselines,
 * latest current values, mowable hysteresis) and the embedded broker's
 * retained messages. Rows are small and keyed, so WITHOUT ROWID.
 */
export const historyTables: Migration = {
  version: 2,
  name: 'history tables: history_buckets, history_counters, history_latest, history_station_state, retained_messages',
  up: `
    CREATE TABLE history_buckets (
      station       TEXT    NOT NULL,
      minute        INTEGER NOT NULL,
      rain_mm       REAL    NOT NULL DEFAULT 0,
      rain_observed INTEGER NOT NULL DEFAULT 0,
      temp_min_c    REAL,
      PRIMARY KEY (station, minute)
    ) WITHOUT ROWID;
    CREATE TABLE history_counters (
      station       TEXT    NOT NULL,
      counter       TEXT    NOT NULL,
      total_mm      REAL    NOT NULL,
      at_ms         INTEGER NOT NULL,
      PRIMARY KEY (station, counter)
    ) WITHOUT ROWID;
    CREATE TABLE history_latest (
      station       TEXT    NOT NULL,
      field         TEXT    NOT NULL,
      value         REAL    NOT NULL,
      at_ms         INTEGER NOT NULL,
      PRIMARY KEY (station, field)
    ) WITHOUT ROWID;
    CREATE TABLE history_station_state (
      station        TEXT    PRIMARY KEY,
      mowable        INTEGER NOT NULL DEFAULT 0,
      above_since_ms INTEGER
    ) WITHOUT ROWID;
    CREATE TABLE retained_messages (
      topic         TEXT    PRIMARY KEY,
      payload       BLOB    NOT NULL,
      qos           INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
