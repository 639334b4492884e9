/**
 * Projects a station's calculation input onto the hours of a weather forecast
 * (docs/model.md, "Forecast"). Current fields come from the forecast; the
 * rain windows, minutes_since_rain and the minimum-temperature windows
 * combine what the station observed (minute buckets up to now) with what the
 * forecast adds after now, so observed rain keeps counting down the windows
 * while forecast rain enters them. Pure: time is passed in.
 *
 * A forecast hour is named by its end T (Open-Meteo's convention: values are
 * for the instant T, precipitation is the sum of the hour before T). Its slot
 * is [max(now, T - 1 h), T): the index at T rates mowing in that hour.
 */
import type { CalculationInput, FieldName } from './fields.js';
import { bladeDryingMinutes } from './forecastDrying.js';
import { expectedRainMm, isRainExpected } from './forecastRain.js';
import type { ExtensionInput } from './extensionFields.js';
import { IRRIGATION_FIELD_SPECS } from './irrigation.js';
import { firstAfter, sortedHours, type ProjectionMemo } from './forecastSlots.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** How far ahead the forecast index is computed. */
export const FORECAST_HORIZON_HOURS = 48;

/** Current fields a forecast can supply, in the API's units (src/core/fields.ts) (°C, %, km/h, W/m², %). */
export const FORECAST_FIELDS = [
  'temperature',
  'humidity',
  'dew_point',
  'wind_speed',
  'wind_gusts',
  'solar',
  'soil_temperature',
  'soil_moisture',
] as const;
export type ForecastField = (typeof FORECAST_FIELDS)[number];

/** The rain and temperature windows of the input fields with their lengths (the same the station history supplies). */
const RAIN_WINDOWS = [
  ['rain_1h', 60],
  ['rain_12h', 720],
  ['rain_24h', 1440],
  ['rain_14d', 20_160],
] as const;
const TEMPERATURE_WINDOWS = [
  ['min_temp_3h', 180],
  ['min_temp_3d', 4320],
  ['min_temp_14d', 20_160],
] as const;
const MAX_MINUTES_SINCE = 99_999;
const MAX_MINUTES_SINCE_IRRIGATION = IRRIGATION_FIELD_SPECS[0].max;

export interface ForecastHour {
  /** End of the hour, epoch ms. */
  timeMs: number;
  values: Partial<Record<ForecastField, number>>;
  /** Rain of the hour before timeMs, mm. */
  precipitationMm?: number;
  /** Probability of precipitation in that hour, %. */
  precipitationProbabilityPct?: number;
}

/** One minute of the station's history (structurally the history's bucket row). */
export interface ObservedMinute {
  minute: number;
  rainMm: number;
  tempMinC: number | null;
}

/** Where an input value of a projected hour came from. */
export type InputSource = 'observed' | 'forecast' | 'combined';

export interface ProjectedHour {
  startMs: number;
  endMs: number;
  input: CalculationInput & ExtensionInput;
  inputSource: Partial<Record<FieldName, InputSource>>;
  /** Probability-weighted rain of the slot (docs/model.md, forecastRain.ts). */
  expectedRainMm: number;
  rainExpected: boolean;
}

/**
 * What the station observed from a time up to now: rain (mm) and the lowest temperature (°C;
 * Infinity: none), over the minutes from `fromMs` (rounded up to a minute) that began before now.
 */
export interface ObservedHistory {
  rainSince(fromMs: number): number;
  minTempSince(fromMs: number): number;
}

export interface ProjectionRequest {
  nowMs: number;
  /** The station's assembled input now: which windows it supplies, and its current values for the first hour. */
  current: CalculationInput & ExtensionInput;
  /** The station's minute buckets up to now (any order), or the history's running sums of them. */
  observed: readonly ObservedMinute[] | ObservedHistory;
  hours: readonly ForecastHour[];
  /** How many hours ahead to project; default FORECAST_HORIZON_HOURS (the week's plan asks for the whole forecast). */
  horizonHours?: number;
}

interface RainSpan {
  fromMs: number;
  toMs: number;
  mm: number;
}

/** One station's projection memo (./forecastSlots.ts). */
export type ForecastProjectionMemo = ProjectionMemo<ForecastHour, ProjectedHour>;

interface Slot {
  hour: ForecastHour;
  span: RainSpan;
}

/** Rain and lowest temperature observed from a time up to now, by binary search over sorted minutes. */
class ObservedSeries implements ObservedHistory {
  readonly #minutes: number[];
  readonly #rainSuffix: number[];
  readonly #tempSuffix: number[];

  constructor(observed: readonly ObservedMinute[], nowMs: number) {
    const rows = observed.filter((row) => row.minute * MINUTE_MS < nowMs).sort((a, b) => a.minute - b.minute);
    this.#minutes = rows.map((row) => row.minute);
    this.#rainSuffix = new Array<number>(rows.length + 1).fill(0);
    this.#tempSuffix = new Array<number>(rows.length + 1).fill(Infinity);
    for (let i = rows.length - 1; i >= 0; i--) {
      this.#rainSuffix[i] = this.#rainSuffix[i + 1]! + Math.max(0, rows[i]!.rainMm);
      this.#tempSuffix[i] = Math.min(this.#tempSuffix[i + 1]!, rows[i]!.tempMinC ?? Infinity);
    }
  }

  #firstIndexFrom(fromMs: number): number {
    const minute = Math.ceil(fromMs / MINUTE_MS);
    let low = 0;
    let high = this.#minutes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#minutes[mid]! < minute) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  rainSince(fromMs: number): number {
    return this.#rainSuffix[this.#firstIndexFrom(fromMs)]!;
  }

  minTempSince(fromMs: number): number {
    return this.#tempSuffix[this.#firstIndexFrom(fromMs)]!;
  }
}

function overlapMm(span: RainSpan, fromMs: number, toMs: number): number {
  const overlap = Math.min(span.toMs, toMs) - Math.max(span.fromMs, fromMs);
  return overlap <= 0 ? 0 : (span.mm * overlap) / (span.toMs - span.fromMs);
}

/** Rounded to two decimals (the projected inputs' precision). */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

type Sources = Partial<Record<FieldName, InputSource>>;

/** Sets a projected field and where it came from (in the order the fields are set: the input's key order). */
function put(input: CalculationInput & ExtensionInput, source: Sources, field: FieldName, value: number, from: InputSource): void {
  input[field] = round(value);
  source[field] = from;
}

/** The slots of the forecast within the horizon (at most 48, or `horizonHours`), oldest first, with their expected rain. */
function slots(request: ProjectionRequest, sorted: readonly ForecastHour[]): Slot[] {
  const horizon = request.horizonHours ?? FORECAST_HORIZON_HOURS;
  const horizonEnd = request.nowMs + horizon * HOUR_MS;
  const planned: Slot[] = [];
  for (let k = firstAfter(sorted, request.nowMs); k < sorted.length && planned.length < horizon; k++) {
    const hour = sorted[k]!;
    if (hour.timeMs - HOUR_MS >= horizonEnd) break;
    const fromMs = Math.max(request.nowMs, hour.timeMs - HOUR_MS);
    // The part of the hour still to come carries its share of the hour's expected rain.
    const share = (hour.timeMs - fromMs) / HOUR_MS;
    const mm = expectedRainMm(hour.precipitationMm ?? 0, hour.precipitationProbabilityPct) * share;
    planned.push({ hour, span: { fromMs, toMs: hour.timeMs, mm } });
  }
  return planned;
}

/**
 * Forecast rain in a window and the lowest forecast temperature, from sums kept over the slots: each
 * answer is the one a loop over every slot up to the hour gives (the same additions in the same order;
 * Math.min in any order), without the loop for the long windows (bench/NOTES.md, "The forecast
 * projection kept between readings").
 */
class SlotSums {
  readonly #planned: readonly Slot[];
  /** The slots with rain (the others add exactly 0 to a window), oldest first. */
  readonly #rainy: Array<{ span: RainSpan; index: number }> = [];
  /** #wholeRain[k]: the rain of the first k rainy slots, each whole, added oldest first. */
  readonly #wholeRain: number[] = [0];
  /** #lowest[i]: the lowest finite forecast temperature of slots 0..i (Infinity: none). */
  readonly #lowest: number[] = [];

  constructor(planned: readonly Slot[]) {
    this.#planned = planned;
    let lowest = Number.POSITIVE_INFINITY;
    planned.forEach((slot, index) => {
      if (slot.span.mm > 0) {
        this.#rainy.push({ span: slot.span, index });
        this.#wholeRain.push(this.#wholeRain[this.#wholeRain.length - 1]! + overlapMm(slot.span, slot.span.fromMs, slot.span.toMs));
      }
      const t = slot.hour.values.temperature;
      if (t !== undefined && Number.isFinite(t)) lowest = Math.min(lowest, t);
      this.#lowest.push(lowest);
    });
  }

  /** Forecast rain (mm) in [fromMs, endMs) of the rainy slots up to `index`, summed oldest first. */
  rain(index: number, fromMs: number, endMs: number, nowMs: number): number {
    const rainy = this.#rainy;
    if (fromMs <= nowMs) {
      // Every slot starts at or after now, so the window holds each one up to `index` whole.
      let count = 0;
      while (count < rainy.length && rainy[count]!.index <= index) count++;
      return this.#wholeRain[count]!;
    }
    let sum = 0;
    for (const slot of rainy) {
      if (slot.index > index) break;
      if (slot.span.toMs > fromMs) sum += overlapMm(slot.span, fromMs, endMs);
    }
    return sum;
  }

  /**
   * The lowest forecast temperature of the slots up to `index` ending after `fromMs`, starting from
   * `lowest` (Math.min over them); undefined when no slot has one.
   */
  minTemp(index: number, fromMs: number, lowest: number): number | undefined {
    const planned = this.#planned;
    if (planned.length === 0 || planned[0]!.hour.timeMs > fromMs) {
      const forecastLowest = this.#lowest[index]!;
      return forecastLowest === Number.POSITIVE_INFINITY ? undefined : Math.min(lowest, forecastLowest);
    }
    let found = false;
    let min = lowest;
    for (let i = index; i >= 0 && planned[i]!.hour.timeMs > fromMs; i--) {
      const t = planned[i]!.hour.values.temperature;
      if (t === undefined || !Number.isFinite(t)) continue;
      min = Math.min(min, t);
      found = true;
    }
    return found ? min : undefined;
  }
}

/**
 * Projects the input for every forecast hour within the horizon (at most 48, or `horizonHours`). With the station's memo the
 * forecast's hours are sorted once and every hour that came out as in the last call is that call's object.
 */
export function projectForecast(request: ProjectionRequest, memo?: ForecastProjectionMemo): ProjectedHour[] {
  const { nowMs, current } = request;
  const observed = Array.isArray(request.observed)
    ? new ObservedSeries(request.observed as readonly ObservedMinute[], nowMs)
    : (request.observed as ObservedHistory);
  const planned = slots(request, memo ? memo.sorted(request.hours) : sortedHours(request.hours));
  const sums = new SlotSums(planned);
  let lastRain: RainSpan | undefined;
  const projected = planned.map(({ hour, span }, index): ProjectedHour => {
    const endMs = hour.timeMs;
    const input: CalculationInput & ExtensionInput = {};
    const source: Sources = {};
    const first = span.fromMs === nowMs;
    for (const field of FORECAST_FIELDS) {
      const observedNow = first ? current[field] : undefined;
      const forecast = hour.values[field];
      if (observedNow !== undefined) put(input, source, field, observedNow, 'observed');
      else if (forecast !== undefined && Number.isFinite(forecast)) put(input, source, field, forecast, 'forecast');
    }
    const slotRateMmH = span.mm / ((span.toMs - span.fromMs) / HOUR_MS);
    const observedRate = first ? current.precipitation_rate : undefined;
    put(
      input,
      source,
      'precipitation_rate',
      Math.max(slotRateMmH, observedRate ?? 0),
      observedRate === undefined ? 'forecast' : 'combined',
    );

    for (const [field, minutes] of RAIN_WINDOWS) {
      const fromMs = endMs - minutes * MINUTE_MS;
      if (fromMs >= nowMs) put(input, source, field, sums.rain(index, fromMs, endMs, nowMs), 'forecast');
      else if (current[field] !== undefined)
        put(input, source, field, observed.rainSince(fromMs) + sums.rain(index, fromMs, endMs, nowMs), 'combined');
    }
    for (const [field, minutes] of TEMPERATURE_WINDOWS) {
      const fromMs = endMs - minutes * MINUTE_MS;
      if (fromMs >= nowMs) {
        const lowest = sums.minTemp(index, fromMs, Number.POSITIVE_INFINITY);
        if (lowest !== undefined) put(input, source, field, lowest, 'forecast');
      } else if (current[field] !== undefined) {
        const observedLowest = observed.minTempSince(fromMs);
        const lowest = sums.minTemp(index, fromMs, observedLowest) ?? observedLowest;
        if (Number.isFinite(lowest)) put(input, source, field, lowest, 'combined');
      }
    }
    if (isRainExpected(span.mm)) lastRain = span;
    const sinceRain = minutesSinceRain(lastRain, current.minutes_since_rain, nowMs, endMs);
    if (sinceRain !== undefined) put(input, source, 'minutes_since_rain', sinceRain.minutes, sinceRain.source);
    if (current.minutes_since_irrigation !== undefined) {
      input.minutes_since_irrigation = Math.min(
        MAX_MINUTES_SINCE_IRRIGATION,
        current.minutes_since_irrigation + Math.floor((endMs - nowMs) / MINUTE_MS),
      );
    }
    return {
      startMs: span.fromMs,
      endMs,
      input,
      inputSource: source,
      expectedRainMm: round(span.mm),
      rainExpected: isRainExpected(span.mm),
    };
  });
  // The blades dry hour by hour at the forecast's weather, by the one drying model (./forecastDrying.ts);
  // the inputs were made just above, so the minutes are added to them (last, as a copy would add them).
  const drying = bladeDryingMinutes(projected, current, memo?.dryingRates);
  if (drying !== null) projected.forEach((hour, i) => (hour.input.blade_drying_minutes = drying[i]!));
  return memo ? memo.settle(projected) : projected;
}

/**
 * Minutes since rain at `atMs`: since the end of the last slot with rain expected, else the station's
 * current count plus the time elapsed (observed rain keeps counting); unknown when the station supplies none.
 */
function minutesSinceRain(
  lastRain: RainSpan | undefined,
  currentMinutes: number | undefined,
  nowMs: number,
  atMs: number,
): { minutes: number; source: InputSource } | undefined {
  if (lastRain) return { minutes: Math.floor((atMs - lastRain.toMs) / MINUTE_MS), source: 'forecast' };
  if (currentMinutes === undefined) return undefined;
  return { minutes: Math.min(MAX_MINUTES_SINCE, currentMinutes + Math.floor((atMs - nowMs) / MINUTE_MS)), source: 'combined' };
}
