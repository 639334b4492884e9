/**
 * Where new slots go (docs/model.md, "The plan"): among the usable steps, the candidate start (a run's
 * first step, a forecast hour's start, or the first step after another slot and the gap) whose slot is safest (OK before WARNING), as long as wanted, then
 * safest again (the highest lowest index), then driest (least rain expected within 3 h around it), then longest, then earliest; never
 * closer than the gap to another slot. Pure and deterministic.
 */
import type { HourIndex } from '../forecastWindows.js';
import { STEP_MS, usable, type Step } from './steps.js';
import type { SlotBand } from './types.js';

const HOUR_MS = 3_600_000;
/** Rain within this long before or after a slot counts against it ("how dry"). */
export const RAIN_NEAR_MS = 3 * HOUR_MS;

/** A slot's times (the planner adds id, sequence and reasons). */
export interface Span {
  readonly startMs: number;
  readonly endMs: number;
}

export interface Candidate extends Span {
  readonly band: SlotBand;
  readonly minIndex: number;
  readonly rainNearMm: number;
}

export interface Grid {
  readonly steps: readonly Step[];
  /** The forecast hours by start: their starts, ends and the rain expected up to each (for the rain around a slot). */
  readonly hourStarts: readonly number[];
  readonly hourEnds: readonly number[];
  readonly rainPrefix: readonly number[];
  /** Usable steps in a row from each step (OK only; with the relaxation). */
  readonly runOk: readonly number[];
  readonly runRelaxed: readonly number[];
}

function runs(steps: readonly Step[], relaxed: boolean): number[] {
  const out = new Array<number>(steps.length).fill(0);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (!usable(step, relaxed)) continue;
    const next = steps[i + 1];
    out[i] = 1 + (next !== undefined && next.startMs === step.startMs + STEP_MS ? out[i + 1]! : 0);
  }
  return out;
}

export function gridOf(steps: readonly Step[], hours: readonly HourIndex[]): Grid {
  const sorted = [...hours].sort((a, b) => a.startMs - b.startMs);
  const rainPrefix = [0];
  for (const hour of sorted) rainPrefix.push(rainPrefix[rainPrefix.length - 1]! + hour.expectedRainMm);
  return {
    steps,
    hourStarts: sorted.map((hour) => hour.startMs),
    hourEnds: sorted.map((hour) => hour.endMs),
    rainPrefix,
    runOk: runs(steps, false),
    runRelaxed: runs(steps, true),
  };
}

/** True when `span` keeps `gapMs` from every slot of `taken` (touching counts as too close unless the gap is 0). */
export function clearOf(span: Span, taken: readonly Span[], gapMs: number): boolean {
  return taken.every((other) => span.endMs + gapMs <= other.startMs || other.endMs + gapMs <= span.startMs);
}

/** The first index in `sorted` (ascending) whose value is greater than `value`. */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! > value) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Rain expected in the forecast hours overlapping [start − 3 h, end + 3 h) (prefix sums over the sorted hours). */
function rainNear(grid: Grid, span: Span): number {
  const from = firstAbove(grid.hourEnds, span.startMs - RAIN_NEAR_MS);
  const to = firstAbove(grid.hourStarts, span.endMs + RAIN_NEAR_MS - 1);
  const total = to > from ? grid.rainPrefix[to]! - grid.rainPrefix[from]! : 0;
  return Math.round(total * 100) / 100;
}

function better(a: Candidate, b: Candidate, wantedMs: number): boolean {
  if (a.band !== b.band) return a.band === 'OK';
  const fullA = a.endMs - a.startMs >= wantedMs;
  const fullB = b.endMs - b.startMs >= wantedMs;
  if (fullA !== fullB) return fullA;
  if (a.minIndex !== b.minIndex) return a.minIndex > b.minIndex;
  if (a.rainNearMm !== b.rainNearMm) return a.rainNearMm < b.rainNearMm;
  const lengthA = a.endMs - a.startMs;
  const lengthB = b.endMs - b.startMs;
  if (lengthA !== lengthB) return lengthA > lengthB;
  return a.startMs < b.startMs;
}

export interface SearchRules {
  readonly fromMs: number;
  readonly toMs: number;
  readonly wantedMs: number;
  readonly minMs: number;
  readonly gapMs: number;
  readonly relaxed: boolean;
  /** Only candidates this accepts (the room they leave for the rest of the need); absent: all. */
  readonly accept?: (span: Span) => boolean;
}

/** The rating of the steps [i, i + count). */
export function rateSpan(grid: Grid, i: number, count: number): Candidate {
  const { steps } = grid;
  let minIndex = Number.POSITIVE_INFINITY;
  let band: SlotBand = 'OK';
  for (let k = i; k < i + count; k++) {
    const step = steps[k]!;
    minIndex = Math.min(minIndex, step.index);
    if (step.band !== 'OK') band = 'WARNING';
  }
  const span = { startMs: steps[i]!.startMs, endMs: steps[i]!.startMs + count * STEP_MS };
  return { ...span, band, minIndex: Number.isFinite(minIndex) ? minIndex : 0, rainNearMm: rainNear(grid, span) };
}

/** The best new slot starting in [fromMs, toMs), or null when none fits. */
export function bestCandidate(grid: Grid, taken: readonly Span[], rules: SearchRules): Candidate | null {
  const { steps } = grid;
  const run = rules.relaxed ? grid.runRelaxed : grid.runOk;
  // Never longer than the mower's run (whole steps down), never shorter than the shortest run (whole steps up).
  const least = Math.max(1, Math.ceil(rules.minMs / STEP_MS));
  const wanted = Math.max(least, Math.floor(rules.wantedMs / STEP_MS));
  // Candidate starts: a run's first step, a forecast hour's start, and the first step the mower is ready after a slot.
  const ready = new Set(taken.map((slot) => Math.ceil((slot.endMs + rules.gapMs) / STEP_MS) * STEP_MS));
  let best: Candidate | null = null;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.startMs < rules.fromMs || step.startMs >= rules.toMs || run[i]! < least) continue;
    const runStart = i === 0 || run[i - 1] === 0 || steps[i - 1]!.startMs !== step.startMs - STEP_MS;
    if (!runStart && step.startMs !== step.hour.startMs && !ready.has(step.startMs)) continue;
    const count = Math.min(wanted, run[i]!);
    const span = { startMs: step.startMs, endMs: step.startMs + count * STEP_MS };
    if (!clearOf(span, taken, rules.gapMs)) continue;
    if (rules.accept && !rules.accept(span)) continue;
    const candidate = rateSpan(grid, i, count);
    if (best === null || better(candidate, best, wanted * STEP_MS)) best = candidate;
  }
  return best;
}
