/**
 * The window scan behind StationHistory.assemble(): rain sums, minimum
 * temperatures and coverage for every window in one linear pass. Pure.
 */
import type { MinuteColumns } from './minuteColumns.js';
import { RAIN_WINDOWS, RATE_WINDOW_MINUTES, RETENTION_MINUTES, TEMPERATURE_WINDOWS } from './windows.js';

export interface WindowStats {
  rainMm: number;
  /** Share of the window's minutes covered by rain observations, 0..1. */
  rainCoverage: number;
  tempMinC: number | null;
  tempCoverage: number;
}

export interface WindowScan {
  nowMinute: number;
  /** Keyed by window length in minutes. */
  windows: Map<number, WindowStats>;
  /** Latest minute with rain > 0, or null. */
  lastRainMinute: number | null;
  /** Coverage of the minutes after lastRainMinute. */
  coverageSinceRain: number;
  /** Latest minute with a rain observation, or null. */
  lastRainSample: number | null;
}

/**
 * One backward pass over the last 14 days of minutes. A minute is covered
 * when it holds a reading, or lies between two readings at most
 * maxGapMinutes apart, or follows the latest reading while that reading is
 * at most maxGapMinutes old. The first reading after a longer silence
 * covers only its own minute.
 */
export function scanWindows(buckets: MinuteColumns, nowMinute: number, gap: number): WindowScan {
  const oldestMinute = nowMinute - RETENTION_MINUTES + 1;
  const lengths = new Set<number>([RATE_WINDOW_MINUTES, ...RAIN_WINDOWS.map(([, m]) => m), ...TEMPERATURE_WINDOWS.map(([, m]) => m)]);
  const windows = new Map<number, WindowStats>();
  const rainSamples: number[] = [];
  const tempSamples: number[] = [];
  // Samples just before the scanned range decide whether its oldest minutes are covered.
  const first = buckets.lowerBound(oldestMinute - gap);
  const last = buckets.lowerBound(nowMinute + 1) - 1;
  for (let index = last; index >= first; index--) {
    if (buckets.observedAt(index)) rainSamples.push(buckets.minuteAt(index));
    if (buckets.tempMinAt(index) !== null) tempSamples.push(buckets.minuteAt(index));
  }
  const rainCover = coverageCursor(rainSamples, nowMinute, gap);
  const tempCover = coverageCursor(tempSamples, nowMinute, gap);
  let rainMm = 0;
  let rainCovered = 0;
  let tempCovered = 0;
  let tempMinC: number | null = null;
  let lastRainMinute: number | null = null;
  let coverageSinceRain = 0;
  let cursor = last; // the bucket at or before the visited minute
  for (let count = 1; count <= RETENTION_MINUTES; count++) {
    const minute = nowMinute - count + 1;
    while (cursor >= first && buckets.minuteAt(cursor) > minute) cursor--;
    if (cursor >= first && buckets.minuteAt(cursor) === minute) {
      const bucketRain = buckets.rainAt(cursor);
      const bucketTemp = buckets.tempMinAt(cursor);
      if (bucketRain > 0 && lastRainMinute === null) {
        lastRainMinute = minute;
        coverageSinceRain = count > 1 ? rainCovered / (count - 1) : 1;
      }
      if (bucketTemp !== null) tempMinC = tempMinC === null ? bucketTemp : Math.min(tempMinC, bucketTemp);
      rainMm += bucketRain;
    }
    if (rainCover(minute)) rainCovered++;
    if (tempCover(minute)) tempCovered++;
    if (lengths.has(count)) {
      windows.set(count, { rainMm, rainCoverage: rainCovered / count, tempMinC, tempCoverage: tempCovered / count });
    }
  }
  return { nowMinute, windows, lastRainMinute, coverageSinceRain, lastRainSample: rainSamples[0] ?? null };
}

/**
 * For minutes visited in descending order: is the minute covered by the
 * descending sample list? Keeps a cursor, so the whole scan is linear.
 */
function coverageCursor(samplesDescending: readonly number[], nowMinute: number, gap: number): (minute: number) => boolean {
  let index = 0; // samplesDescending[index] is the latest sample at or before the minute
  return (minute: number) => {
    while (index < samplesDescending.length && samplesDescending[index]! > minute) index++;
    const before = samplesDescending[index];
    if (before === undefined) return false;
    if (before === minute) return true;
    const after = index > 0 ? samplesDescending[index - 1] : undefined;
    if (after === undefined) return nowMinute - before <= gap;
    return after - before <= gap;
  };
}
