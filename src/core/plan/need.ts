/**
 * The need (docs/model.md, "The need"): how tall the grass is, when the one-third rule calls for the next
 * cut, how long the mower takes for one full cut and how many mowing minutes the lawn needs this week. Pure.
 *
 * What the planner unit calls:
 * - `mowerCapacity({ areaM2, capacityM2PerHour, completedFullCutMinutes })` → minutes per full cut and
 *   where they come from (the lawn's configured area and capacity; else the ledger's completed full cuts;
 *   else DEFAULT_MINUTES_PER_FULL_CUT);
 * - `degreeDaysPerDay(memory, nowMs)` → the growth driver from the lawn memory's degree-day checkpoints;
 * - `lawnNeed({ nowMs, timeZone, targetHeightMm, growthFactor, gddSinceCut, degreeDaysPerDay, capacity })`.
 */
import { GROWTH_CM_PER_GDD, growthCm } from '../lawn/growth.js';
import { gddSince, type LawnMemoryState } from '../lawn/memory.js';
import type { CapacitySource, LawnNeed } from './types.js';
import { weekSpan } from './week.js';

const DAY_MS = 86_400_000;
/** The one-third rule: a lawn kept at h is due at 1.5 h (cutting back to h removes a third of the blade). */
export const DUE_HEIGHT_FACTOR = 1.5;
/**
 * Minutes per full cut when neither an area with a capacity nor a completed cut in the ledger is known:
 * a robot mower's daily programme of a typical 500 m² garden lawn at about 60 m² per hour (our
 * assumption; the state shows the source `default`, so the user knows to set `areaM2` and `capacityM2PerHour`).
 */
export const DEFAULT_MINUTES_PER_FULL_CUT = 480;
/** The ledger's figure is the median of at most this many of the newest completed full cuts. */
export const LEDGER_CUTS_USED = 5;
/** The growth rate is the mean of the degree-days of this many past days. */
export const GROWTH_RATE_DAYS = 3;

export interface CapacityInput {
  readonly areaM2?: number;
  readonly capacityM2PerHour?: number;
  /** Minutes of the ledger's completed full cuts, oldest first (the driver's runs that ended with the lawn cut). */
  readonly completedFullCutMinutes?: readonly number[];
}

export interface MowerCapacity {
  readonly minutesPerFullCut: number;
  readonly source: CapacitySource;
}

/** Minutes per full cut: the configured area and capacity first (the user said so), then the ledger, then the default. */
export function mowerCapacity(input: CapacityInput): MowerCapacity {
  const { areaM2, capacityM2PerHour } = input;
  if (areaM2 !== undefined && capacityM2PerHour !== undefined && areaM2 > 0 && capacityM2PerHour > 0) {
    return { minutesPerFullCut: Math.ceil((areaM2 / capacityM2PerHour) * 60), source: 'area' };
  }
  const cuts = (input.completedFullCutMinutes ?? []).filter((minutes) => Number.isFinite(minutes) && minutes > 0).slice(-LEDGER_CUTS_USED);
  if (cuts.length > 0) {
    const sorted = [...cuts].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    return { minutesPerFullCut: Math.ceil(median), source: 'ledger' };
  }
  return { minutesPerFullCut: DEFAULT_MINUTES_PER_FULL_CUT, source: 'default' };
}

/** Mean degree-days per day over the last GROWTH_RATE_DAYS days of the memory (fewer when it is younger). */
export function degreeDaysPerDay(memory: LawnMemoryState, nowMs: number): number {
  const oldest = memory.gddCheckpoints[0]?.[0];
  if (oldest === undefined || memory.atMs === null) return 0;
  const fromMs = Math.max(oldest, nowMs - GROWTH_RATE_DAYS * DAY_MS);
  const days = (Math.min(nowMs, memory.atMs) - fromMs) / DAY_MS;
  return days > 0 ? gddSince(memory, fromMs) / days : 0;
}

export interface NeedInput {
  readonly nowMs: number;
  readonly timeZone: string;
  /** The height the lawn is cut to, mm. */
  readonly targetHeightMm: number;
  /** The lawn memory's growth factor (1: average). */
  readonly growthFactor: number;
  /** Degree-days since the last completed cut (`gddSinceCut(memory)`); null: no cut known, taken as cut to the target now. */
  readonly gddSinceCut: number | null;
  /** The growth driver, degree-days per day (`degreeDaysPerDay(memory, nowMs)`). */
  readonly degreeDaysPerDay: number;
  readonly capacity: MowerCapacity;
}

/** Growth in mm per day at `degreeDaysPerDay` (docs/model.md, "Growth since the last cut": 0.04 cm per degree-day). */
export function growthMmPerDay(degreeDaysPerDayValue: number, growthFactor: number): number {
  return Math.max(0, degreeDaysPerDayValue) * GROWTH_CM_PER_GDD * 10 * Math.max(0, growthFactor);
}

/**
 * The need now. Height = target + the growth since the cut. The cut is due when the height reaches 1.5 × the
 * target; the week's runtime is the full cuts the week's growth at the current rate calls for (each cut takes
 * back target/2), times the minutes per full cut, rounded up to whole minutes.
 */
export function lawnNeed(input: NeedInput): LawnNeed {
  const target = input.targetHeightMm;
  const rate = growthMmPerDay(input.degreeDaysPerDay, input.growthFactor);
  const grownMm = input.gddSinceCut === null ? 0 : growthCm(Math.max(0, input.gddSinceCut), Math.max(0, input.growthFactor)) * 10;
  const heightMm = target + grownMm;
  const dueHeight = target * DUE_HEIGHT_FACTOR;
  let cutDueAtMs: number | null;
  if (heightMm >= dueHeight) cutDueAtMs = input.nowMs;
  else cutDueAtMs = rate > 0 ? input.nowMs + Math.round(((dueHeight - heightMm) / rate) * DAY_MS) : null;
  const week = weekSpan(input.nowMs, input.timeZone);
  const weekGrowthMm = (rate * (week.endMs - week.startMs)) / DAY_MS;
  const cutsThisWeek = target > 0 ? weekGrowthMm / (target * (DUE_HEIGHT_FACTOR - 1)) : 0;
  return {
    growthMmPerDay: round(rate, 2),
    heightMm: round(heightMm, 1),
    targetHeightMm: target,
    cutDueAtMs,
    minutesPerFullCut: input.capacity.minutesPerFullCut,
    capacitySource: input.capacity.source,
    runtimeNeededMinutesThisWeek: Math.ceil(cutsThisWeek * input.capacity.minutesPerFullCut - 1e-9),
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
