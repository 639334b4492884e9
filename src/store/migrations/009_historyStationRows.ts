import type { Migration } from './migration.js';

/**
 * Fewer SQLite pages per commit (SD-card writes, bench/NOTES.md):
 *
 * - One row per station (`history_stations`) holds what migrations 2 and 4
 *   kept in four small tables (latest values, rain counter baselines, the
 *   duplicate filter's high-water mark, the mowable state): a commit touching
 *   ten stations then writes one page instead of one per table.
 * - Minute buckets live in a rowid table keyed `minute * 65536 + slot`
 *   (`slot` numbers the station in `history_stations`). A rowid B-tree
 *   appends a new rightmost leaf without touching its siblings; the
 *   WITHOUT ROWID table of migration 5 rebalanced three leaves and their
 *   parent on most commits.
 *
 * Every row is copied: the 14-day history, the counter baselines (so rain
 * totals carry on across the upgrade), the latest values, the high-water
 * mark and the mowable state. REAL values go to JSON with 15 significant
 * digits when that reads back the same number, else 17, so none changes.
 * Views under the old names keep ad-hoc SQL and `mowability status` working.
 */
/** Bucket key = minute << BUCKET_SLOT_BITS | slot; fixed by this migration (the store imports it). */
export const BUCKET_SLOT_BITS = 16;
const SLOTS = 2 ** BUCKET_SLOT_BITS;

const JSON_REAL = (column: string): string =>
  `json(CASE WHEN CAST(printf('%!.15g', ${column}) AS REAL) = ${column} THEN printf('%!.15g', ${column}) ELSE printf('%!.17g', ${column}) END)`;

export const historyStationRows: Migration = {
  version: 9,
  name: 'history: one row per station (history_stations), buckets in a rowid table (history_minutes)',
  up: `
    CREATE TABLE history_stations (
      slot           INTEGER PRIMARY KEY,
      station        TEXT    NOT NULL UNIQUE,
      latest         TEXT    NOT NULL DEFAULT '{}',
      counters       TEXT    NOT NULL DEFAULT '{}',
      high_water_ms  INTEGER,
      recent         TEXT    NOT NULL DEFAULT '[]',
      mowable        INTEGER,
      above_since_ms INTEGER
    );
    INSERT INTO history_stations (station)
      SELECT station FROM history_buckets GROUP BY station
      UNION SELECT station FROM history_counters
      UNION SELECT station FROM history_latest
      UNION SELECT station FROM history_high_water
      UNION SELECT station FROM history_station_state
      ORDER BY 1;
    UPDATE history_stations SET
      latest = COALESCE((SELECT json_group_object(field, json_array(${JSON_REAL('value')}, at_ms)) FROM history_latest l WHERE l.station = history_stations.station), '{}'),
      counters = COALESCE((SELECT json_group_object(counter, json_array(${JSON_REAL('total_mm')}, at_ms)) FROM history_counters c WHERE c.station = history_stations.station), '{}'),
      high_water_ms = (SELECT at_ms FROM history_high_water h WHERE h.station = history_stations.station),
      recent = COALESCE((SELECT recent FROM history_high_water h WHERE h.station = history_stations.station), '[]'),
      mowable = (SELECT mowable FROM history_station_state s WHERE s.station = history_stations.station),
      above_since_ms = (SELECT above_since_ms FROM history_station_state s WHERE s.station = history_stations.station);
    CREATE TABLE history_minutes (
      bucket        INTEGER PRIMARY KEY,
      rain_mm       REAL    NOT NULL DEFAULT 0,
      rain_observed INTEGER NOT NULL DEFAULT 0,
      temp_min_c    REAL
    );
    INSERT INTO history_minutes (bucket, rain_mm, rain_observed, temp_min_c)
      SELECT b.minute * ${SLOTS} + s.slot, b.rain_mm, b.rain_observed, b.temp_min_c
      FROM history_buckets b JOIN history_stations s ON s.station = b.station
      ORDER BY 1;
    DROP TABLE history_buckets;
    DROP TABLE history_counters;
    DROP TABLE history_latest;
    DROP TABLE history_high_water;
    DROP TABLE history_station_state;
    CREATE VIEW history_buckets (minute, station, rain_mm, rain_observed, temp_min_c) AS
      SELECT m.bucket >> ${BUCKET_SLOT_BITS}, s.station, m.rain_mm, m.rain_observed, m.temp_min_c
      FROM history_minutes m JOIN history_stations s ON s.slot = (m.bucket & ${SLOTS - 1});
    CREATE VIEW history_latest (station, field, value, at_ms) AS
      SELECT s.station, j.key, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM history_stations s, json_each(s.latest) j;
    CREATE VIEW history_counters (station, counter, total_mm, at_ms) AS
      SELECT s.station, j.key, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM history_stations s, json_each(s.counters) j;
    CREATE VIEW history_high_water (station, at_ms, recent) AS
      SELECT station, high_water_ms, recent FROM history_stations WHERE high_water_ms IS NOT NULL;
    CREATE VIEW history_station_state (station, mowable, above_since_ms) AS
      SELECT station, mowable, above_since_ms FROM history_stations WHERE mowable IS NOT NULL;
  `,
};
