/**
 * The SQLite cache of the last good forecast per station (migration 006).
 * Read once at start; written after every good fetch or message. Rows that
 * do not parse (a hand-edited database) are skipped, not fatal. The forecast
 * unit owns it; gap filling and the modelled station hand it forecasts from
 * their own Open-Meteo request (SupplyForecast), so the type lives here, below both.
 *
 * SD card: the hours are stored deflated (a 74-hour forecast: 16.7 KB of JSON, about 1 KB
 * deflated, one B-tree page instead of five) and a save goes into the history's next commit
 * (./sharedCommit.ts) instead of a commit of its own per station and fetch. Rows written as
 * JSON text by earlier versions are still read.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ForecastHour } from '../core/forecastProjection.js';
import type { HourIndex } from '../core/forecastWindows.js';
import type { LawnProfile } from '../core/types.js';
import { keyedStageOn, type Database } from './database.js';
import type { KeyedStage } from './sharedCommit.js';

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

/** What a unit whose Open-Meteo request can bring a station's forecast offers the forecast (the modelled stations' module; src/daemon.ts wires it). */
export interface ForecastCarrier {
  /**
   * True when a request of the carrier's brings the station's Open-Meteo forecast; from then on
   * each forecast it brings goes to `deliver`. False: the forecast fetches it itself.
   */
  carry(stationId: string, deliver: (forecast: CachedForecast) => Promise<void>): boolean;
}

/** A station's whole forecast rated hour by hour (the week's plan rates it on its own schedule, never per reading). */
export interface RatedForecast {
  /** When the forecast was fetched or received: a new one is a new value. */
  readonly fetchedAtMs: number;
  /** Every forecast hour after now, rated by the index (the per-reading forecast rates only the first 48). */
  readonly hours: readonly HourIndex[];
  /** The forecast is older than its staleness bound (then the plan says so). */
  readonly stale: boolean;
  /** The minutes before forecast rain mowing stops (`forecast.rainLeadMinutes`). */
  readonly rainLeadMinutes: number;
  /** The quiet hours (night ban, noise hours, Sundays, holidays) at an instant; absent: none. */
  readonly allowedAt?: (ms: number) => boolean;
}

/** What the forecast offers the modules after it (src/daemon.ts wires it into the planner). */
export interface WeekForecastSource {
  /** When the station's forecast was fetched; undefined without one (cheap: asked on every recompute). */
  fetchedAtMs(stationId: string): number | undefined;
  /**
   * The station's whole forecast rated at `nowMs` (about 170 index calculations: ask only when something changed),
   * with `lawn`'s profile keys over the station's (a lawn of its own soil or mower).
   */
  rate(stationId: string, nowMs: number, lawn?: Partial<LawnProfile>): RatedForecast | undefined;
}

interface Row {
  station: string;
  source: string;
  fetched_at_ms: number;
  etag: string | null;
  last_modified: string | null;
  hours: string | Buffer;
}

/** The stored form of the hours: deflated JSON. */
export function encodeHours(hours: readonly ForecastHour[]): Buffer {
  return deflateRawSync(JSON.stringify(hours));
}

function hoursOf(stored: string | Buffer): ForecastHour[] | undefined {
  try {
    const parsed: unknown = JSON.parse(typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'));
    if (!Array.isArray(parsed)) return undefined;
    const valid = (parsed as unknown[]).every((entry) => {
      const hour = entry as { timeMs?: unknown; values?: unknown } | null;
      return (
        typeof hour === 'object' &&
        hour !== null &&
        typeof hour.timeMs === 'number' &&
        typeof hour.values === 'object' &&
        hour.values !== null
      );
    });
    return valid ? (parsed as ForecastHour[]) : undefined;
  } catch {
    return undefined;
  }
}

export class ForecastStore {
  readonly #database: ForecastDatabase;
  /** The daemon's database: saves join the history's commit. */
  readonly #stage: KeyedStage<Database> | undefined;

  constructor(database: ForecastDatabase) {
    this.#database = database;
    this.#stage = keyedStageOn(database);
  }

  async loadAll(): Promise<Map<string, CachedForecast>> {
    await this.#stage?.settle();
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

  /** Resolves once the row is staged for the history's next commit, or written where nothing drives commits. */
  async save(stationId: string, forecast: CachedForecast): Promise<void> {
    if (this.#stage) await this.#stage.stage(stationId, (db) => ForecastStore.#write(db, stationId, forecast));
    else await ForecastStore.#write(this.#database, stationId, forecast);
  }

  static async #write(database: ForecastDatabase, stationId: string, forecast: CachedForecast): Promise<void> {
    await database.run(
      `INSERT INTO forecast_cache (station, source, fetched_at_ms, etag, last_modified, hours) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (station) DO UPDATE SET source = excluded.source, fetched_at_ms = excluded.fetched_at_ms,
         etag = excluded.etag, last_modified = excluded.last_modified, hours = excluded.hours`,
      [
        stationId,
        forecast.source,
        forecast.fetchedAtMs,
        forecast.validators.etag ?? null,
        forecast.validators.lastModified ?? null,
        encodeHours(forecast.hours),
      ],
    );
  }
}
