/**
 * The blade water carried through the forecast hours (docs/model.md, "Drying of the blades"): the one
 * drying model of ./drying.ts, stepped hour by hour at the forecast's weather, starting from the water
 * on the blades now (the lawn memory's balance when the input has it, else the rain check's stateless
 * estimate). Every projected hour gets `blade_drying_minutes`, so the forecast's index dries the lawn
 * exactly as the lawn memory would at that weather, and never contradicts it. Pure.
 */
import { INTERCEPTION_STORAGE_MM, dryingRateMmH, type DryingWeather } from './drying.js';
import { dryingWeatherOf } from './checks/surfaceWetness.js';
import type { CalculationInput } from './fields.js';
import type { ExtensionInput } from './extensionFields.js';

const HOUR_MS = 3_600_000;
const MAX_MINUTES = 99_999;

type Input = CalculationInput & ExtensionInput;

export interface DryingSlot {
  startMs: number;
  endMs: number;
  input: Input;
  /** Rain expected in the slot, mm. */
  expectedRainMm: number;
}

/**
 * Water on the blades now, mm; null when the input says nothing about wet blades. The balance's minutes
 * to dry are turned back into water at the rate of now (the balance computed them at that rate).
 */
export function bladeWaterNow(current: Input): number | null {
  const rate = dryingRateMmH(dryingWeatherOf(current));
  if (current.blade_drying_minutes !== undefined) return Math.min(INTERCEPTION_STORAGE_MM, (current.blade_drying_minutes / 60) * rate);
  const since = [current.minutes_since_rain, current.minutes_since_irrigation].filter((m): m is number => m !== undefined);
  if (since.length === 0 && (current.precipitation_rate ?? 0) === 0) return null;
  const latest = (current.precipitation_rate ?? 0) > 0 ? 0 : Math.min(...since);
  return Math.max(0, INTERCEPTION_STORAGE_MM - (latest / 60) * rate);
}

/**
 * The blades' minutes to dry at each slot's end (rain first, up to the storage, then the slot's drying);
 * null when nothing is known of the blades now.
 */
export function bladeDryingMinutes(slots: readonly DryingSlot[], current: Input, rates?: DryingRates): number[] | null {
  let water = bladeWaterNow(current);
  if (water === null) return null;
  rates?.begin();
  return slots.map((slot) => {
    const weather = dryingWeatherOf(slot.input);
    const rate = rates ? rates.rateAt(slot.endMs, weather) : dryingRateMmH(weather);
    const hours = Math.max(0, slot.endMs - slot.startMs) / HOUR_MS;
    water = Math.max(0, Math.min(INTERCEPTION_STORAGE_MM, (water ?? 0) + Math.max(0, slot.expectedRainMm)) - rate * hours);
    return Math.min(MAX_MINUTES, Math.ceil((water / rate) * 60));
  });
}

/**
 * The drying rate of each slot kept from one projection to the next for one station: a rebuild of the
 * forecast detail (about once a minute) projects the same forecast weather onto the same hours, so the
 * rate (a Penman-Monteith step with exp and powers, ./drying.ts) is computed again only for an hour
 * whose five weather values changed. The rate is a pure function of those values, so a kept rate is
 * the one computing it again gives (values compared with Object.is: NaN equals NaN, -0 is not 0).
 * Holds the hours of the last call only (at most the projection's 48).
 */
export class DryingRates {
  #kept = new Map<number, KeptRate>();
  #next = new Map<number, KeptRate>();

  /** Starts a projection: what the previous one kept stays readable, what this one asks is kept next. */
  begin(): void {
    this.#kept = this.#next;
    this.#next = new Map();
  }

  /** The drying rate (mm/h) of the slot ending at `endMs` at `weather`. */
  rateAt(endMs: number, weather: DryingWeather): number {
    const kept = this.#kept.get(endMs);
    const entry = kept !== undefined && sameWeather(kept.weather, weather) ? kept : { weather, rate: dryingRateMmH(weather) };
    this.#next.set(endMs, entry);
    return entry.rate;
  }
}

interface KeptRate {
  weather: DryingWeather;
  rate: number;
}

function sameWeather(a: DryingWeather, b: DryingWeather): boolean {
  return (
    Object.is(a.temperatureC, b.temperatureC) &&
    Object.is(a.humidityPct, b.humidityPct) &&
    Object.is(a.dewPointC, b.dewPointC) &&
    Object.is(a.windKmh, b.windKmh) &&
    Object.is(a.solarWm2, b.solarWm2) &&
    Object.is(a.elevationM, b.elevationM)
  );
}
