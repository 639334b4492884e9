/**
 * The SQLite cache of the last good forecast per station (migration 006).
 * Read once at start; written after every good fetch or message. Rows that
 * do not parse (a hand-edited database) are skipped, not fatal. The forecast
 * unit owns it; gap filling and the modelled station hand it forecasts from
 * their own Open-Meteo request (SupplyForecast), so the type lives here, below both.
 */
import type { ForecastHour } from '../core/forecastProjection.js';
import type { Database } from './database.js';

/** What the cache needs of the database (a unit's store is enough). */
type ForecastDatabase = Pick<Database, 'all' | 'run'>;

export type ForecastSourceKind = 'open-meteo' | 'mqtt';

/** A server's cache validators, sent back on the next request (If-None-Match / If-Modified-Since). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface CachedForecast {
  source: ForecastSourceKind;
  fetchedAtMs: number;
  hours: ForecastHour[];
  validators: Validators;
}

/** Hands a station's forecast to the forecast unit (its supply()), which caches and projects it. */
export type SupplyForecast = (stationId: string, forecast: CachedForecast) => Promise<void>;

interface Row {
  station: string;
  source: string;
  fetched_at_ms: number;
  etag: string | null;
  last_modified: string | null;
  hours: string;
}

function hoursOf(text: string): ForecastHour[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return undefined;
    const valid = (parsed as unknown[]).every((entry) => {
      const hour = entry as { timeMs?: unknown; values?: unknown } | null;
      return typeof hour === 'object' && hour !== null && typeof hour.timeMs === 'number' && typeof hour.values === 'object' && hour.values !== null;
    });
    return valid ? (parsed as ForecastHour[]) : undefined;
  } catch {
    return undefined;
  }
}

export class ForecastStore {
  readonly #database: ForecastDatabase;

  constructor(database: ForecastDatabase) {
    this.#database = database;
  }

  async loadAll(): Promise<Map<string, CachedForecast>> {
    const rows = await this.#database.all<Row>('SELECT station, source, fetched_at_ms, etag, last_modified, hours FROM forecast_cache');
    const cached = new Map<string, CachedForecast>();
    for (const row of rows) {
      const hours = hoursOf(row.hours);
      if (!hours || (row.source !== 'open-meteo' && row.source !== 'mqtt')) continue;
      const validators = { ...(row.etag ? { etag: row.etag } : {}), ...(row.last_modified ? { lastModified: row.last_modified } : {}) };
      cached.set(row.station, { source: row.source, fetchedAtMs: row.fetched_at_ms, hours, validators });
    }
    return cached;
  }

  async save(stationId: string, forecast: CachedForecast): Promise<void> {
    await this.#database.run(
      `INSERT INTO forecast_cache (station, source, fetched_at_ms, etag, last_modified, hours) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (station) DO UPDATE SET source = excluded.source, fetched_at_ms = excluded.fetched_at_ms,
         etag = excluded.etag, last_modified = excluded.last_modified, hours = excluded.hours`,
      [stationId, forecast.source, forecast.fetchedAtMs, forecast.validators.etag ?? null, forecast.validators.lastModified ?? null, JSON.stringify(forecast.hours)],
    );
  }
}
