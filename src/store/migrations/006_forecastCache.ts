import type { Migration } from './migration.js';

/**
 * The last good forecast per station (src/store/forecastStore.ts), so a
 * restart or a provider outage does not lose it: the hours as JSON, when they
 * were fetched, and the HTTP validators for the next conditional request.
 */
export const forecastCache: Migration = {
  version: 6,
  name: 'forecast cache: the last good forecast per station',
  up: `
    CREATE TABLE forecast_cache (
      station       TEXT    NOT NULL PRIMARY KEY,
      source        TEXT    NOT NULL,
      fetched_at_ms INTEGER NOT NULL,
      etag          TEXT,
      last_modified TEXT,
      hours         TEXT    NOT NULL
    ) WITHOUT ROWID;
  `,
};
