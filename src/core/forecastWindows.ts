/**
 * The forecast index and its mowing windows: the core's calculate() for every
 * projected hour, then runs of hours whose index is OK, cut where quiet hours
 * forbid mowing and before expected rain (the rain lead): a window never starts
 * inside quiet hours. A run shorter than the station's minimum job length is not
 * a window (a robot that needs 90 minutes gains nothing from a 60-minute gap
 * between showers). Pure.
 */
import { calculate } from './calculate.js';
import type { InputSource, ProjectedHour } from './forecastProjection.js';
import { MINUTE_MS } from './forecastProjection.js';
import type { FieldName } from './fields.js';
import type { CalculationContext, Status } from './types.js';

export interface HourIndex {
  startMs: number;
  endMs: number;
  /** The index of the hour; null when the projection lacks a required field (no forecast temperature). */
  index: number | null;
  status: Status | null;
  limitingCheck: string | null;
  expectedRainMm: number;
  rainExpected: boolean;
  input: ProjectedHour['input'];
  inputSource: Partial<Record<FieldName, InputSource>>;
}

export interface ForecastWindow {
  startMs: number;
  endMs: number;
  /** The lowest index within the window. */
  minIndex: number;
}

export interface ForecastSummary {
  /** The first window at least the minimum job long (starting now when the current run is one). */
  nextWindow: ForecastWindow | null;
  /** Every window within the horizon, oldest first. */
  windows: ForecastWindow[];
  /**
   * Minutes mowing stays possible from now: the current OK run, cut at quiet hours and at the rain lead;
   * 0 when not now; null without forecast hours (unknown).
   */
  mowableForMinutes: number | null;
  /** Minutes until the first hour with rain expected; 0 when it is expected now; null when none within the horizon. */
  rainExpectedInMinutes: number | null;
}

/**
 * The hours rated by the previous call for one station, so the next call rates only the hours whose
 * input changed (a new reading changes the first hours, not the 48th). An hour is taken over when its
 * start, end, expected rain, input and input sources are equal to the kept one's and the context's
 * settings are the same: calculate() is pure, so its answer for them is the same. Holds one forecast's
 * hours (at most 48).
 */
export class HourIndexMemo {
  #hours = new Map<number, KeptHour>();
  #context: readonly unknown[] = [];

  /** Only within indexHours: the kept hour for `hour`, if it can be taken over. */
  reuse(hour: ProjectedHour): HourIndex | undefined {
    const kept = this.#hours.get(hour.endMs);
    if (kept === undefined) return undefined;
    const index = kept.hour;
    if (index.startMs !== hour.startMs || index.expectedRainMm !== hour.expectedRainMm || index.rainExpected !== hour.rainExpected)
      return undefined;
    // The projection's memo hands back the kept hour's own objects when they came out the same (./forecastSlots.ts).
    if (index.input === hour.input && index.inputSource === hour.inputSource) return index;
    return sameValues(index.input, kept.inputKeys, hour.input) && sameValues(index.inputSource, kept.sourceKeys, hour.inputSource)
      ? index
      : undefined;
  }

  /** Starts a call: forgets everything when the context's settings changed. */
  begin(context: CalculationContext): void {
    const settings = contextSettings(context);
    if (settings.length !== this.#context.length || settings.some((value, i) => value !== this.#context[i])) this.#hours.clear();
    this.#context = settings;
  }

  /** Ends a call: keeps exactly this call's hours (with their keys, listed once per hour). */
  keep(hours: readonly HourIndex[]): void {
    const previous = this.#hours;
    this.#hours = new Map(
      hours.map((hour) => {
        const kept = previous.get(hour.endMs);
        return [
          hour.endMs,
          kept?.hour === hour ? kept : { hour, inputKeys: Object.keys(hour.input), sourceKeys: Object.keys(hour.inputSource) },
        ];
      }),
    );
  }
}

interface KeptHour {
  hour: HourIndex;
  inputKeys: readonly string[];
  sourceKeys: readonly string[];
}

/** Everything of a context besides nowMs that calculate() reads, as primitives. */
function contextSettings(context: CalculationContext): unknown[] {
  return [
    context.timeZone,
    context.hemisphere,
    context.forcedSeason,
    JSON.stringify(context.lawn),
    JSON.stringify(context.estimatedFields),
  ];
}

/** `next` has the kept object's own keys (`keys`) in the same order with the same values (Object.is: -0 and NaN as they are). */
function sameValues(kept: object, keys: readonly string[], next: object): boolean {
  const left = kept as Record<string, unknown>;
  const right = next as Record<string, unknown>;
  let i = 0;
  for (const key in right) {
    if (keys[i] !== key || !Object.is(left[key], right[key])) return false;
    i++;
  }
  return i === keys.length;
}

/** Rates every projected hour with the core (context.nowMs is replaced by the hour's start); with a memo, only the changed hours. */
export function indexHours(hours: readonly ProjectedHour[], context: CalculationContext, memo?: HourIndexMemo): HourIndex[] {
  // One literal per hour with every field the core reads: V8 reads a spread copy's properties slowly.
  const { timeZone, hemisphere, forcedSeason, lawn, estimatedFields } = context;
  memo?.begin(context);
  const rated = hours.map((hour) => {
    const kept = memo?.reuse(hour);
    if (kept !== undefined) return kept;
    const outcome = calculate(hour.input, { nowMs: hour.startMs, timeZone, hemisphere, forcedSeason, lawn, estimatedFields });
    const result = outcome.ok ? outcome.result : undefined;
    return {
      startMs: hour.startMs,
      endMs: hour.endMs,
      index: result?.index_score ?? null,
      status: result?.main_status ?? null,
      limitingCheck: result?.score_basis.limiting_check ?? null,
      expectedRainMm: hour.expectedRainMm,
      rainExpected: hour.rainExpected,
      input: hour.input,
      inputSource: hour.inputSource,
    };
  });
  memo?.keep(rated);
  return rated;
}

/** Runs of consecutive OK hours (no gap between them), oldest first, regardless of length. */
export function okRuns(hours: readonly HourIndex[]): ForecastWindow[] {
  const runs: ForecastWindow[] = [];
  let run: ForecastWindow | undefined;
  for (const hour of hours) {
    if (hour.status !== 'OK' || hour.index === null) {
      run = undefined;
      continue;
    }
    if (run && run.endMs === hour.startMs) {
      run.endMs = hour.endMs;
      run.minIndex = Math.min(run.minIndex, hour.index);
    } else {
      run = { startMs: hour.startMs, endMs: hour.endMs, minIndex: hour.index };
      runs.push(run);
    }
  }
  return runs;
}

/** What besides the index limits a window (docs/model.md, "Forecast windows"). */
export interface WindowRules {
  /** Whether quiet hours (night ban, noise hours, Sundays, holidays) allow mowing at an instant; absent: always. */
  allowedAt?: (ms: number) => boolean;
  /**
   * The same answer as allowedAt, and the first instant after `ms` at which it could differ (the answer holds
   * for every instant in [ms, untilMs)): the steps up to that instant are not asked again. Preferred when given.
   */
  allowedUntil?: (ms: number) => { allowed: boolean; untilMs: number };
  /** Minutes before an hour with rain expected that are not mowable (config forecast.rainLeadMinutes). */
  rainLeadMinutes?: number;
}

/** Quiet hours are looked at in steps of this many minutes (window edges are exact to it). */
export const WINDOW_STEP_MINUTES = 5;

/** The parts of an OK run outside quiet hours and outside the rain lead (and the rain) of wet hours. */
function allowedParts(
  run: ForecastWindow,
  blockedSpans: ReadonlyArray<readonly [number, number]>,
  allowedAt: (ms: number) => boolean,
): ForecastWindow[] {
  const parts: ForecastWindow[] = [];
  let open: ForecastWindow | undefined;
  for (let t = run.startMs; t < run.endMs; t += WINDOW_STEP_MINUTES * MINUTE_MS) {
    const stepEnd = Math.min(run.endMs, t + WINDOW_STEP_MINUTES * MINUTE_MS);
    // Both ends of the step: a window ends up to a step early, and never starts inside quiet hours.
    const ok = allowedAt(t) && allowedAt(stepEnd - 1) && !blockedSpans.some(([from, to]) => t < to && stepEnd > from);
    if (!ok) {
      open = undefined;
    } else if (open) {
      open.endMs = stepEnd;
    } else {
      open = { startMs: t, endMs: stepEnd, minIndex: run.minIndex };
      parts.push(open);
    }
  }
  return parts;
}

/** allowedAt from allowedUntil: the last answer is reused for every instant before its untilMs (and from its instant on). */
function askedUntil(allowedUntil: NonNullable<WindowRules['allowedUntil']>): (ms: number) => boolean {
  let fromMs = Number.POSITIVE_INFINITY;
  let untilMs = Number.NEGATIVE_INFINITY;
  let allowed = true;
  return (ms) => {
    if (ms >= fromMs && ms < untilMs) return allowed;
    const answer = allowedUntil(ms);
    fromMs = ms;
    untilMs = answer.untilMs;
    allowed = answer.allowed;
    return allowed;
  };
}

export function summarizeForecast(
  hours: readonly HourIndex[],
  nowMs: number,
  minJobMinutes: number,
  rules: WindowRules = {},
): ForecastSummary {
  const leadMs = Math.max(0, rules.rainLeadMinutes ?? 0) * MINUTE_MS;
  const blockedSpans = hours.filter((hour) => hour.rainExpected).map((hour) => [hour.startMs - leadMs, hour.endMs] as const);
  const allowedAt = rules.allowedUntil ? askedUntil(rules.allowedUntil) : (rules.allowedAt ?? (() => true));
  const runs = okRuns(hours).flatMap((run) => allowedParts(run, blockedSpans, allowedAt));
  const windows = runs.filter((run) => run.endMs - run.startMs >= minJobMinutes * MINUTE_MS);
  const current = runs.find((run) => run.startMs <= nowMs && nowMs < run.endMs);
  const rain = hours.find((hour) => hour.rainExpected);
  return {
    nextWindow: windows[0] ?? null,
    windows,
    mowableForMinutes: hours.length === 0 ? null : current ? Math.floor((current.endMs - nowMs) / MINUTE_MS) : 0,
    rainExpectedInMinutes: rain ? Math.max(0, Math.floor((rain.startMs - nowMs) / MINUTE_MS)) : null,
  };
}
