import type { Migration } from './migration.js';

/**
 * The values a user set from Home Assistant (src/station/stationControls.ts): one row per station and
 * control (`mowable_on_threshold`, `mowable_off_threshold`, `mowable_on_delay_minutes`, `mower_class`),
 * its value as JSON. A row overrides the configured value until it is reset; no row: the configuration's.
 */
export const stationControls: Migration = {
  version: 15,
  name: 'station controls set from Home Assistant',
  up: `
    CREATE TABLE station_controls (
      station   TEXT NOT NULL,
      control   TEXT NOT NULL,
      value     TEXT NOT NULL,
      set_at_ms INTEGER NOT NULL,
      PRIMARY KEY (station, control)
    ) WITHOUT ROWID;
  `,
};
