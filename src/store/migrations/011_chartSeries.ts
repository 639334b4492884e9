import type { Migration } from './migration.js';

/**
 * The status page's chart series that the minute buckets do not hold (temperature mean, humidity,
 * dew point, index; src/store/chartSeriesStore.ts): one row per station and completed 10-minute
 * slot, keyed slot first so new rows append at the right edge of one B-tree. Written in the
 * history's commit (src/store/sharedCommit.ts), never on a timer of its own; kept 14 days.
 */
export const chartSeries: Migration = {
  version: 11,
  name: 'chart_series',
  up: `
    CREATE TABLE chart_series (
      slot        INTEGER NOT NULL,
      station     TEXT    NOT NULL,
      temperature REAL,
      humidity    REAL,
      dew_point   REAL,
      index_score REAL,
      PRIMARY KEY (slot, station)
    ) WITHOUT ROWID;
  `,
};
