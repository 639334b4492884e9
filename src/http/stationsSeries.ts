/**
 * Downsampling for GET /v1/stations/{id}/history, pure: the query's limits,
 * the step grid, and one pass over the minute buckets (rain, lowest
 * temperature) and the chart recorder's minutes (temperature, humidity, dew point,
 * index) into one value per step. Work and response size are bounded by
 * MAX_HISTORY_POINTS and the 14-day retention.
 */
import type { BucketRow } from '../history/stationHistory.js';
import { RETENTION_MINUTES } from '../history/windows.js';
import type { RecordedMinute, RecordedSeries } from '../station/chartRecorder.js';

/** The longest range: what the history keeps (14 days). */
export const MAX_HISTORY_HOURS = RETENTION_MINUTES / 60;
export const DEFAULT_HISTORY_HOURS = 48;
export const DEFAULT_HISTORY_STEP = '10m';
/** Largest step: one day. */
export const MAX_STEP_MINUTES = 1440;
/** Most points per series in one response (48 h at 1 min; 14 d needs a step of 7 min or more). */
export const MAX_HISTORY_POINTS = 2880;
export const STEP_PATTERN = '^[1-9][0-9]{0,3}[mh]$';

export const HISTORY_QUERY_RULES =
  `hours must be a whole number from 1 to ${MAX_HISTORY_HOURS}; step must be minutes or hours like 10m or 1h, ` +
  `from 1m to ${MAX_STEP_MINUTES / 60}h; hours/step may give at most ${MAX_HISTORY_POINTS} points.`;

export type HistoryQuery = { ok: true; hours: number; stepMinutes: number } | { ok: false; message: string };

/** Validates the query (strings or numbers, as fastify delivers them); the message names the rule broken. */
export function parseHistoryQuery(hoursRaw: unknown, stepRaw: unknown): HistoryQuery {
  const hours = hoursRaw === undefined ? DEFAULT_HISTORY_HOURS : Number(hoursRaw);
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HISTORY_HOURS) {
    return { ok: false, message: `Invalid hours: ${HISTORY_QUERY_RULES}` };
  }
  const step = stepRaw === undefined ? DEFAULT_HISTORY_STEP : typeof stepRaw === 'string' ? stepRaw : JSON.stringify(stepRaw);
  if (!new RegExp(STEP_PATTERN).test(step)) return { ok: false, message: `Invalid step: ${HISTORY_QUERY_RULES}` };
  const stepMinutes = Number(step.slice(0, -1)) * (step.endsWith('h') ? 60 : 1);
  if (stepMinutes > MAX_STEP_MINUTES) return { ok: false, message: `Invalid step: ${HISTORY_QUERY_RULES}` };
  if (Math.ceil((hours * 60) / stepMinutes) > MAX_HISTORY_POINTS) {
    return { ok: false, message: `Too many points: ${HISTORY_QUERY_RULES}` };
  }
  return { ok: true, hours, stepMinutes };
}

/** The step grid: steps end at the first step boundary (UTC minutes) after the current minute. */
export interface StepGrid {
  firstMinute: number;
  stepMinutes: number;
  points: number;
}

export function stepGrid(nowMinute: number, hours: number, stepMinutes: number): StepGrid {
  const points = Math.ceil((hours * 60) / stepMinutes);
  const endMinute = Math.ceil((nowMinute + 1) / stepMinutes) * stepMinutes;
  return { firstMinute: endMinute - points * stepMinutes, stepMinutes, points };
}

export interface HistorySeries {
  /** Start of each step, epoch seconds (the unit uPlot and most chart libraries take). */
  time: number[];
  /** Rain in the step, mm; null where no reading reported rain. */
  rain_mm: Array<number | null>;
  /** Mean recorded temperature, else the lowest stored minute temperature, °C. */
  temperature: Array<number | null>;
  dew_point: Array<number | null>;
  humidity: Array<number | null>;
  /** The last index computed in the step. */
  index: Array<number | null>;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function mean(sum: number, count: number, digits: number): number | null {
  return count === 0 ? null : round(sum / count, digits);
}

/** One pass over the buckets and the recorded minutes of the grid's span. */
export function downsample(grid: StepGrid, buckets: readonly BucketRow[], forEachMinute: (visit: RecordedMinute) => void): HistorySeries {
  const n = grid.points;
  const stepOf = (minute: number): number => Math.floor((minute - grid.firstMinute) / grid.stepMinutes);
  const rain = new Array<number | null>(n).fill(null);
  const tempMin = new Array<number | null>(n).fill(null);
  const sums = { temperature: new Float64Array(n), humidity: new Float64Array(n), dew_point: new Float64Array(n) };
  const counts = { temperature: new Uint32Array(n), humidity: new Uint32Array(n), dew_point: new Uint32Array(n) };
  const index = new Array<number | null>(n).fill(null);

  for (const bucket of buckets) {
    const step = stepOf(bucket.minute);
    if (step < 0 || step >= n) continue;
    if (bucket.rainObserved || bucket.rainMm > 0) rain[step] = (rain[step] ?? 0) + bucket.rainMm;
    if (bucket.tempMinC !== null) tempMin[step] = Math.min(tempMin[step] ?? Number.POSITIVE_INFINITY, bucket.tempMinC);
  }
  forEachMinute((minute, value) => {
    const step = stepOf(minute);
    if (step < 0 || step >= n) return;
    for (const series of ['temperature', 'humidity', 'dew_point'] as const satisfies readonly RecordedSeries[]) {
      const v = value(series);
      if (Number.isNaN(v)) continue;
      sums[series][step]! += v;
      counts[series][step]! += 1;
    }
    const score = value('index');
    if (!Number.isNaN(score)) index[step] = score;
  });

  const series: HistorySeries = { time: [], rain_mm: [], temperature: [], dew_point: [], humidity: [], index };
  for (let step = 0; step < n; step++) {
    series.time.push((grid.firstMinute + step * grid.stepMinutes) * 60);
    series.rain_mm.push(rain[step] === null ? null : round(rain[step]!, 2));
    const recorded = mean(sums.temperature[step]!, counts.temperature[step]!, 1);
    series.temperature.push(recorded ?? (tempMin[step] === null ? null : round(tempMin[step]!, 1)));
    series.dew_point.push(mean(sums.dew_point[step]!, counts.dew_point[step]!, 1));
    series.humidity.push(mean(sums.humidity[step]!, counts.humidity[step]!, 0));
  }
  return series;
}
