/**
 * One station's lawn memory in the daemon: the latest weather values from its readings, the rain
 * cursor into the history's minute buckets, and the pure memory of src/core/lawn/memory.ts.
 */
import { durationDe } from '../core/duration.js';
import { coreDryingMinutes, dryingMinutesLeft } from '../core/lawn/blades.js';
import { catchUpMemory } from '../core/lawn/catchUp.js';
import type { EtWeather } from '../core/lawn/evaporation.js';
import { growthCm, mowNeed } from '../core/lawn/growth.js';
import {
  gddSinceCut,
  initialLawnMemory,
  shiftLawnMemory,
  withCut,
  stepLawnMemory,
  wetSpellHours,
  type LawnMemoryState,
} from '../core/lawn/memory.js';
import { isSoilDrought, isSoilSoft, type SoilProfile } from '../core/lawn/soilBucket.js';
import type { BucketRow, TimedReading } from '../history/stationHistory.js';
import type { CurrentField } from '../ingest/types.js';

const MINUTE_MS = 60_000;
/** Values older than this are not weather any more (the history's default freshness). */
const VALUE_FRESH_MS = 30 * MINUTE_MS;
const WEATHER_FIELDS = ['temperature', 'humidity', 'dew_point', 'wind_speed', 'solar'] as const satisfies readonly CurrentField[];

export interface GrowthSettings {
  cutHeightCm: number;
  growthFactor: number;
}

/** The state's `lawn` object. */
export interface LawnStatus {
  blades_wet: boolean | null;
  blade_water_mm: number | null;
  dry_since: string | null;
  drying_minutes_left: number | null;
  soil_water_estimate: number | null;
  soil_soft: boolean | null;
  drought: boolean | null;
  gdd_since_cut: number | null;
  grass_growth_cm: number | null;
  mow_need: number | null;
  last_cut_at: string | null;
  last_cut_source: string | null;
  wet_spell_hours: number;
  summary: string;
  /** Inputs this memory added to the calculation (estimated, not measured). */
  derived_inputs: string[];
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The weather's optional members and the reading fields they come from (made once, not per reading). */
const WEATHER_PAIRS: ReadonlyArray<readonly [Exclude<keyof EtWeather, 'temperatureC' | 'elevationM'>, string]> = [
  ['humidityPct', 'humidity'],
  ['dewPointC', 'dew_point'],
  ['windKmh', 'wind_speed'],
  ['solarWm2', 'solar'],
];

export class LawnStation {
  readonly #profile: SoilProfile;
  readonly #elevationM: number | undefined;
  readonly #latest = new Map<string, { value: number; atMs: number }>();
  #memory: LawnMemoryState;
  #rainCursor: { minute: number; countedMm: number } | undefined;
  #lastCutSource: string | null = null;
  #irrigatedPending = false;
  dirty = false;

  constructor(profile: SoilProfile, elevationM: number | undefined, restored?: LawnMemoryState) {
    this.#profile = profile;
    this.#elevationM = elevationM;
    this.#memory = restored ?? initialLawnMemory(profile);
  }

  get memory(): LawnMemoryState {
    return this.#memory;
  }

  get lastCutMs(): number | null {
    return this.#memory.lastCutMs;
  }

  setCut(atMs: number, source: string): void {
    this.#lastCutSource = source;
    if (atMs === this.#memory.lastCutMs) return; // the same cut (e.g. read back after a restart): keep its degree-days
    this.#memory = withCut(this.#memory, atMs);
    this.dirty = true;
  }

  markIrrigated(): void {
    this.#irrigatedPending = true;
  }

  /** The weather the fresh values describe at `nowMs`; undefined without a fresh temperature. */
  weather(nowMs: number): EtWeather | undefined {
    const temperatureC = this.#fresh('temperature', nowMs);
    if (temperatureC === undefined) {
      // After a restart: the weather of the last step, while it is fresh.
      const saved = this.#memory.weather;
      return saved && this.#memory.atMs !== null && nowMs - this.#memory.atMs <= VALUE_FRESH_MS ? saved : undefined;
    }
    const weather: EtWeather = { temperatureC };
    for (const [key, field] of WEATHER_PAIRS) {
      const value = this.#fresh(field, nowMs);
      if (value !== undefined) weather[key] = value;
    }
    if (this.#elevationM !== undefined) weather.elevationM = this.#elevationM;
    return weather;
  }

  #fresh(field: string, nowMs: number): number | undefined {
    const entry = this.#latest.get(field);
    return entry && nowMs - entry.atMs <= VALUE_FRESH_MS ? entry.value : undefined;
  }

  /** Rain booked in the buckets since the cursor (a minute's later additions counted once). */
  #newRain(buckets: readonly BucketRow[], minute: number): number {
    let mm = 0;
    for (const bucket of buckets) {
      if (this.#rainCursor && bucket.minute < this.#rainCursor.minute) continue;
      mm += bucket.minute === this.#rainCursor?.minute ? Math.max(0, bucket.rainMm - this.#rainCursor.countedMm) : bucket.rainMm;
    }
    const current = buckets.find((bucket) => bucket.minute === minute);
    this.#rainCursor = { minute, countedMm: current?.rainMm ?? 0 };
    return mm;
  }

  /** After a restart: step over the history's minutes after the restored snapshot (src/core/lawn/catchUp.ts). */
  catchUp(buckets: readonly BucketRow[]): void {
    const next = catchUpMemory(this.#memory, buckets, this.#profile);
    if (next === this.#memory) return;
    this.#memory = next;
    this.dirty = true;
  }

  /** After a restart: continue reading rain where the restored balance stopped (`buckets` of that minute). */
  resumeRain(buckets: readonly BucketRow[]): void {
    const atMs = this.#memory.atMs;
    if (atMs === null) return;
    const minute = Math.floor(atMs / MINUTE_MS);
    this.#rainCursor = { minute, countedMm: buckets.find((bucket) => bucket.minute === minute)?.rainMm ?? 0 };
  }

  /**
   * The wall clock stepped by `deltaMs`: the memory and the latest values move with it (the time
   * that really passed counts); the rain cursor then resumes at the moved balance (resumeRain).
   */
  clockStepped(deltaMs: number): void {
    this.#memory = shiftLawnMemory(this.#memory, deltaMs);
    for (const [field, entry] of this.#latest) this.#latest.set(field, { value: entry.value, atMs: entry.atMs + deltaMs });
    this.#rainCursor = undefined;
    this.dirty = true;
  }

  /** Where the rain cursor starts reading buckets (ms). */
  rainFromMs(toMs: number): number {
    return this.#rainCursor ? this.#rainCursor.minute * MINUTE_MS : toMs;
  }

  /** One accepted reading, with the history's buckets from rainFromMs() to its time. */
  onReading(reading: TimedReading, buckets: readonly BucketRow[]): void {
    for (const field of WEATHER_FIELDS) {
      const value = reading.values[field];
      const previous = this.#latest.get(field);
      if (value === undefined || (previous && previous.atMs > reading.timeMs)) continue;
      // The entries never leave this object: the newer value is written into the one kept.
      if (previous) {
        previous.value = value;
        previous.atMs = reading.timeMs;
      } else {
        this.#latest.set(field, { value, atMs: reading.timeMs });
      }
    }
    const rainMm = this.#newRain(buckets, Math.floor(reading.timeMs / MINUTE_MS));
    const weather = this.weather(reading.timeMs) ?? null;
    this.#memory = stepLawnMemory(
      this.#memory,
      { toMs: reading.timeMs, rainMm, weather, irrigated: this.#irrigatedPending },
      this.#profile,
    );
    this.#irrigatedPending = false;
    this.dirty = true;
  }

  /** Knows whether the blades are wet: it has humidity (or dew point) for the balance, and no gap since. */
  #knowsBlades(nowMs: number): boolean {
    if (this.#memory.bladesUnknown) return false;
    const weather = this.weather(nowMs);
    return weather !== undefined && (weather.humidityPct !== undefined || weather.dewPointC !== undefined);
  }

  gddSinceCut(): number | null {
    return gddSinceCut(this.#memory);
  }

  /** The derived inputs for the core (extension fields), only what the memory knows. */
  derived(nowMs: number, growth: GrowthSettings): { blade_drying_minutes?: number; mow_need?: number; wet_spell_hours?: number } {
    const out: { blade_drying_minutes?: number; mow_need?: number; wet_spell_hours?: number } = {};
    if (this.#knowsBlades(nowMs)) {
      // 0: the balance knows the blades are dry now (the core then trusts it over its stateless estimate).
      const minutes = coreDryingMinutes(this.#memory.blades, this.weather(nowMs));
      out.blade_drying_minutes = Math.min(99999, minutes ?? 0);
      const spell = wetSpellHours(this.#memory, nowMs);
      if (spell > 0) out.wet_spell_hours = Math.min(9999, Math.floor(spell));
    }
    const gdd = this.gddSinceCut();
    if (gdd !== null) out.mow_need = mowNeed(gdd, growth.growthFactor, growth.cutHeightCm);
    return out;
  }

  status(nowMs: number, growth: GrowthSettings, timeLabel: (ms: number) => string): LawnStatus {
    const memory = this.#memory;
    const knows = this.#knowsBlades(nowMs);
    const wet = knows ? memory.blades.waterMm > 0 : null;
    const left = knows ? dryingMinutesLeft(memory.blades, this.weather(nowMs)) : null;
    const gdd = this.gddSinceCut();
    const soil = memory.soilPct;
    // German, as the model's reasons (docs/model.md, "Conventions"); durations through the core's one formatter.
    // No current weather at all (nothing arrives: a provider outage, a station gone quiet) is not a station without a humidity sensor.
    let summary = memory.bladesUnknown
      ? 'Halme: unbekannt nach einer Lücke in den Messungen, bis sie beim beobachteten Wetter getrocknet wären'
      : this.weather(nowMs) === undefined
        ? 'Halme: unbekannt, solange keine aktuellen Wetterdaten ankommen'
        : 'Halme: unbekannt (die Station liefert weder Luftfeuchte noch Taupunkt)';
    if (wet === false)
      summary = memory.blades.drySinceMs === null ? 'Halme trocken' : `Halme trocken seit ${timeLabel(memory.blades.drySinceMs)} Uhr`;
    if (wet === true) {
      summary =
        left !== null && Number.isFinite(left)
          ? `Halme nass, trocken in etwa ${durationDe(left)} beim jetzigen Wetter`
          : 'Halme nass, beim jetzigen Wetter trocknen sie nicht';
    }
    return {
      blades_wet: wet,
      blade_water_mm: knows ? round(memory.blades.waterMm, 3) : null,
      dry_since: wet === false && memory.blades.drySinceMs !== null ? new Date(memory.blades.drySinceMs).toISOString() : null,
      drying_minutes_left: left !== null && Number.isFinite(left) ? left : null,
      soil_water_estimate: soil === null ? null : round(soil, 1),
      soil_soft: soil === null ? null : isSoilSoft(soil, this.#profile),
      drought: soil === null ? null : isSoilDrought(soil, this.#profile),
      gdd_since_cut: gdd === null ? null : round(gdd, 1),
      grass_growth_cm: gdd === null ? null : round(growthCm(gdd, growth.growthFactor), 1),
      mow_need: gdd === null ? null : mowNeed(gdd, growth.growthFactor, growth.cutHeightCm),
      last_cut_at: memory.lastCutMs === null ? null : new Date(memory.lastCutMs).toISOString(),
      last_cut_source: memory.lastCutMs === null ? null : this.#lastCutSource,
      wet_spell_hours: knows ? Math.floor(wetSpellHours(memory, nowMs)) : 0,
      summary,
      derived_inputs: Object.keys(this.derived(nowMs, growth)),
    };
  }
}
