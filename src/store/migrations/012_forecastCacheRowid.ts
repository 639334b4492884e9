import type { Migration } from './migration.js';

/**
 * The forecast cache (migration 6) as a rowid table. A WITHOUT ROWID table keeps at most about
 * 1 KB of a row on its B-tree page (https://www.sqlite.org/fileformat2.html#b_tree_pages, the
 * index-page rule): a forecast's deflated hours (src/store/forecastStore.ts) spilled into an
 * overflow page, and each save freed and allocated one, writing the leaf, the overflow page, the
 * freelist and page 1. A rowid table keeps up to 4,061 bytes on the page, so a save rewrites one
 * page. The UNIQUE index on the station is not touched by a save (the key does not change).
 */
export const forecastCacheRowid: Migration = {
  version: 12,
  name: 'forecast cache as a rowid table (one page per save)',
  up: `
    CREATE TABLE forecast_cache_rowid (
      station       TEXT    NOT NULL UNIQUE,
      source        TEXT    NOT NULL,
      fetched_at_ms INTEGER NOT NULL,
      etag          TEXT,
      last_modified TEXT,
      hours         TEXT    NOT NULL
    );
    INSERT INTO forecast_cache_rowid (station, source, fetched_at_ms, etag, last_modified, hours)
      SELECT station, source, fetched_at_ms, etag, last_modified, hours FROM forecast_cache;
    DROP TABLE forecast_cache;
    ALTER TABLE forecast_cache_rowid RENAME TO forecast_cache;
  `,
};
