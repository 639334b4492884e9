/**
 * One lawn's memory, stepped reading by reading (pure; time is passed in): blade water, root-zone soil
 * water, degree-days with hourly checkpoints (so a cut reported later still counts from its own time),
 * the wet spell, and the last cut. Serialisable as JSON for the store.
 */
import { BLADE_STORAGE_MM, DRY_BLADES, stepBlades, type BladeState } from './blades.js';
import { referenceEtMmPerHour, type EtWeather } from './evaporation.js';
import { degreeDays } from './growth.js';
import { stepSoil, type SoilProfile } from './soilBucket.js';

const HOUR_MS = 3_600_000;
/** Weather older than this is not carried forward over a gap (the history's freshness default, 30 min). */
export const MAX_WEATHER_CARRY_MS = 30 * 60_000;
/** Degree-day checkpoints are kept this long: the 14-day history plus a day. */
export const CHECKPOINT_RETENTION_MS = 15 * 24 * HOUR_MS;
/** Hourly checkpoints for this long; older ones are thinned to every 6 h (a smaller stored row). */
export const HOURLY_CHECKPOINTS_MS = 48 * HOUR_MS;
const THINNED_STEP_MS = 6 * HOUR_MS;
/** A dry break shorter than this does not end a wet spell. */
export const WET_SPELL_BREAK_MS = 3 * HOUR_MS;

export interface LawnMemoryState {
  blades: BladeState;
  /**
   * The blade water is not known: a gap without readings (over MAX_WEATHER_CARRY_MS) set `blades` to the
   * upper bound, full storage; known again when that bound has dried at observed weather.
   */
  bladesUnknown: boolean;
  /** Root-zone water content, %; null until the bucket is initialised. */
  soilPct: number | null;
  /** Degree-days accumulated since the memory started. */
  gddTotal: number;
  /** [hour start ms, gddTotal at that hour's start], oldest first. */
  gddCheckpoints: Array<[number, number]>;
  /** When the current wet spell began (blades wet, breaks under 3 h ignored); null outside one. */
  wetSpellStartMs: number | null;
  lastCutMs: number | null;
  /** gddTotal at the last cut, fixed when the cut is learnt (checkpoints are thinned later). */
  gddAtCut: number | null;
  /** The end of the last step and the weather then (carried to the next reading). */
  atMs: number | null;
  weather: EtWeather | null;
}

/** A new memory: soil at field capacity (the state after a wet winter or a watering), blades dry. */
export function initialLawnMemory(profile: SoilProfile): LawnMemoryState {
  return {
    blades: DRY_BLADES,
    bladesUnknown: false,
    soilPct: profile.fieldCapacityPct,
    gddTotal: 0,
    gddCheckpoints: [],
    wetSpellStartMs: null,
    lastCutMs: null,
    gddAtCut: null,
    atMs: null,
    weather: null,
  };
}

export interface LawnStepInput {
  toMs: number;
  rainMm: number;
  /** The weather at `toMs` (the reading's); used for the following step. */
  weather: EtWeather | null;
  irrigated?: boolean;
}

function checkpoint(state: LawnMemoryState, atMs: number): Array<[number, number]> {
  const hour = Math.floor(atMs / HOUR_MS) * HOUR_MS;
  const newest = state.gddCheckpoints[state.gddCheckpoints.length - 1];
  if (newest && newest[0] >= hour) return state.gddCheckpoints; // once per hour is enough
  const points = state.gddCheckpoints.filter(
    ([ms]) => ms >= atMs - CHECKPOINT_RETENTION_MS && (ms >= atMs - HOURLY_CHECKPOINTS_MS || ms % THINNED_STEP_MS === 0),
  );
  const last = points[points.length - 1];
  if (!last || last[0] < hour) points.push([hour, Math.round(state.gddTotal * 1000) / 1000]);
  return points;
}

/**
 * The memory after the time from the last step to `input.toMs`, carrying the last step's weather for at
 * most MAX_WEATHER_CARRY_MS. Beyond that (no readings) the weather is unknown: no ET, dew or degree-days;
 * drainage, a property of the soil, goes on; the blade water becomes unknown (docs/model.md, "Gaps").
 */
export function stepLawnMemory(state: LawnMemoryState, input: LawnStepInput, profile: SoilProfile): LawnMemoryState {
  const fromMs = state.atMs ?? input.toMs;
  if (input.toMs < fromMs) return state; // out of order: the balance only moves forward
  const elapsedMs = input.toMs - fromMs;
  const carriedMs = Math.min(elapsedMs, MAX_WEATHER_CARRY_MS);
  const weather = state.weather ?? undefined;
  const hours = weather ? carriedMs / HOUR_MS : 0;
  let blades = stepBlades(state.blades, {
    fromMs,
    toMs: fromMs + (weather ? carriedMs : 0),
    rainMm: input.rainMm,
    weather,
    irrigated: input.irrigated,
  });
  // After a gap the blades may hold anything up to full storage (dew, unseen rain): take that bound.
  const gap = elapsedMs > MAX_WEATHER_CARRY_MS;
  if (gap) blades = { waterMm: BLADE_STORAGE_MM, drySinceMs: null };
  const bladesUnknown = gap || (state.bladesUnknown && blades.waterMm > 0);
  const et0 = weather ? referenceEtMmPerHour(weather) : undefined;
  const soilPct =
    state.soilPct === null ? null : drain(stepSoil(state.soilPct, profile, input.rainMm, et0, hours), profile, elapsedMs / HOUR_MS - hours);
  const gddTotal = state.gddTotal + (weather ? degreeDays(weather.temperatureC, hours) : 0);
  let wetSpellStartMs = gap ? null : state.wetSpellStartMs; // a spell is only counted while the blades are known
  if (blades.waterMm > 0 && !bladesUnknown) wetSpellStartMs ??= fromMs;
  else if (blades.drySinceMs !== null && input.toMs - blades.drySinceMs >= WET_SPELL_BREAK_MS) wetSpellStartMs = null;
  const next: LawnMemoryState = {
    ...state,
    blades,
    bladesUnknown,
    soilPct,
    gddTotal,
    wetSpellStartMs,
    atMs: input.toMs,
    weather: input.weather,
  };
  next.gddCheckpoints = checkpoint(next, input.toMs);
  return next;
}

/** Drainage alone over `hours` without weather (no rain or ET known). */
function drain(thetaPct: number, profile: SoilProfile, hours: number): number {
  return hours > 0 ? stepSoil(thetaPct, profile, 0, undefined, hours) : thetaPct;
}

/** Degree-days since `sinceMs` (the checkpoint at or before it; the oldest one when it is older). */
export function gddSince(state: LawnMemoryState, sinceMs: number): number {
  let base = state.gddCheckpoints[0]?.[1] ?? state.gddTotal;
  for (const [ms, total] of state.gddCheckpoints) {
    if (ms > sinceMs) break;
    base = total;
  }
  return Math.max(0, state.gddTotal - base);
}

/** The memory with a cut at `cutMs`: growth counts from the degree-days at that time. */
export function withCut(state: LawnMemoryState, cutMs: number): LawnMemoryState {
  const gddAtCut = state.atMs !== null && cutMs >= state.atMs ? state.gddTotal : state.gddTotal - gddSince(state, cutMs);
  return { ...state, lastCutMs: cutMs, gddAtCut };
}

/** Degree-days since the last cut; null before one is known. */
export function gddSinceCut(state: LawnMemoryState): number | null {
  if (state.lastCutMs === null) return null;
  return Math.max(0, state.gddTotal - (state.gddAtCut ?? state.gddTotal - gddSince(state, state.lastCutMs)));
}

/** Hours of the current wet spell at `nowMs` (0 when the blades are dry). */
export function wetSpellHours(state: LawnMemoryState, nowMs: number): number {
  if (state.blades.waterMm <= 0 || state.wetSpellStartMs === null) return 0;
  return Math.max(0, (nowMs - state.wetSpellStartMs) / HOUR_MS);
}

/**
 * The memory re-based after the wall clock stepped by `deltaMs`: its times move with the clock, so
 * the next reading (stamped on the new clock) continues the balance after the time that really
 * passed, not after a gap of the step's size (a year of drainage, every checkpoint pruned) or
 * before its last step (ignored as out of order). The degree-day checkpoints move by whole hours
 * (they sit on hour starts). The last cut stays: it is a reported event, and growth counts from
 * the degree-days fixed at the cut (`gddAtCut`).
 */
export function shiftLawnMemory(state: LawnMemoryState, deltaMs: number): LawnMemoryState {
  const by = (ms: number | null): number | null => (ms === null ? null : ms + deltaMs);
  const hoursMs = Math.round(deltaMs / HOUR_MS) * HOUR_MS;
  return {
    ...state,
    blades: { ...state.blades, drySinceMs: by(state.blades.drySinceMs) },
    gddCheckpoints: state.gddCheckpoints.map(([ms, total]) => [ms + hoursMs, total]),
    wetSpellStartMs: by(state.wetSpellStartMs),
    atMs: by(state.atMs),
  };
}
