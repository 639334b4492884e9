/**
 * What the forecast projection (./forecastProjection.ts) keeps from one call to the next for one station
 * (bench/NOTES.md, "The forecast projection kept between readings"): the forecast's hours sorted once per
 * forecast instead of on every rebuild, and the projected hours of the last call, so an hour whose
 * projection came out the same is the same object as before. The rating (./forecastWindows.ts,
 * HourIndexMemo) and the rendering then recognise it by identity instead of comparing its twenty fields.
 * Pure: holds values, reads no clock.
 */
import { DryingRates } from './forecastDrying.js';

/** What the memo needs of a forecast hour (./forecastProjection.ts, ForecastHour). */
interface SortableHour {
  timeMs: number;
}

/** What the memo compares of a projected hour (./forecastProjection.ts, ProjectedHour). */
interface SettledHour {
  startMs: number;
  endMs: number;
  expectedRainMm: number;
  rainExpected: boolean;
  input: object;
  inputSource: object;
}

/**
 * The hours ordered by end, the first of equal ends kept (a stable sort: the first in the forecast's order);
 * an hour without a finite end is never within the horizon.
 */
export function sortedHours<H extends SortableHour>(hours: readonly H[]): H[] {
  return hours
    .filter((hour) => Number.isFinite(hour.timeMs))
    .sort((a, b) => a.timeMs - b.timeMs)
    .filter((hour, index, sorted) => index === 0 || sorted[index - 1]!.timeMs !== hour.timeMs);
}

/** The first index of `sorted` whose hour ends after `nowMs`. */
export function firstAfter(sorted: readonly SortableHour[], nowMs: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]!.timeMs <= nowMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** `next` has exactly `kept`'s own keys in the same order with the same values (Object.is: -0 and NaN as they are). */
function sameRecord(kept: object, next: object): boolean {
  const left = kept as Record<string, unknown>;
  const right = next as Record<string, unknown>;
  const keys = Object.keys(left);
  let i = 0;
  for (const key in right) {
    if (keys[i] !== key || !Object.is(left[key], right[key])) return false;
    i++;
  }
  return i === keys.length;
}

function sameHour(kept: SettledHour, next: SettledHour): boolean {
  return (
    kept.startMs === next.startMs &&
    kept.endMs === next.endMs &&
    Object.is(kept.expectedRainMm, next.expectedRainMm) &&
    kept.rainExpected === next.rainExpected &&
    sameRecord(kept.input, next.input) &&
    sameRecord(kept.inputSource, next.inputSource)
  );
}

/**
 * One station's projection memo. The forecast's hours are recognised by identity (a new forecast is a new
 * array, as the forecast cache and src/forecast/detailCache.ts hold them; an array changed in place is not
 * seen). Holds one forecast's sorted hours and at most 48 projected hours.
 */
export class ProjectionMemo<H extends SortableHour, P extends SettledHour> {
  #hours: readonly H[] | undefined;
  #sorted: H[] = [];
  #kept = new Map<number, P>();
  /** The hours' drying rates of the last call (./forecastDrying.ts): computed again only for changed weather. */
  readonly dryingRates = new DryingRates();

  /** The forecast's hours sorted (./forecastProjection.ts): sorted again only for another forecast. */
  sorted(hours: readonly H[]): readonly H[] {
    if (hours !== this.#hours) {
      this.#hours = hours;
      this.#sorted = sortedHours(hours);
      this.#kept.clear();
    }
    return this.#sorted;
  }

  /**
   * This call's finished hours with every hour equal to the last call's hour of the same end replaced by
   * that kept object; then keeps exactly them. The kept objects are never changed (the projection
   * finishes an hour, blade water included, before it is compared).
   */
  settle(hours: P[]): P[] {
    const kept = this.#kept;
    const settled = hours.map((hour) => {
      const previous = kept.get(hour.endMs);
      return previous !== undefined && sameHour(previous, hour) ? previous : hour;
    });
    this.#kept = new Map(settled.map((hour) => [hour.endMs, hour]));
    return settled;
  }
}
