/**
 * The rain and temperature windows of one station history without re-scanning 14 days of minutes
 * on every recompute. The minutes are grouped in blocks of an hour; each block keeps its rain sum,
 * lowest temperature and what the coverage rule needs (its samples and the minutes between a
 * sample and the one before it). A booked minute, a restored row or a prune marks the blocks it
 * touches, and only those are summed again before the next scan. A scan then adds up whole blocks
 * and reads minute by minute only the partial blocks at each window's edges: about 800 steps
 * instead of 20,160 minutes × 7 windows.
 *
 * Coverage (the rule of assembly.ts): a minute is covered when it holds a sample, lies between two
 * samples at most `gap` minutes apart, or follows the latest sample while that sample is at most
 * `gap` minutes old. So the covered minutes of [a, now] are its samples, plus for each sample n
 * the minutes since the sample p before it when n − p ≤ gap (clipped to a for the first sample),
 * plus the minutes after the latest sample. Rain sums in whole micro-millimetres (the precision the
 * history books rain in), so the sum is exact and the same in any order.
 */
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { MinuteColumns } from './minuteColumns.js';
import { MINUTE_MS, RAIN_WINDOWS, RATE_WINDOW_MINUTES, RETENTION_MINUTES, TEMPERATURE_WINDOWS } from './windows.js';

/** Rain is booked rounded to 6 decimals (micro-millimetres): sums in those units are exact. */
export const MICRO_MM = 1_000_000;
const BLOCK_MINUTES = 60;
const NONE = Number.NaN;

/** Every window length the assembly reads, shortest first. */
const WINDOW_LENGTHS: readonly number[] = [
  ...new Set([RATE_WINDOW_MINUTES, ...RAIN_WINDOWS.map(([, m]) => m), ...TEMPERATURE_WINDOWS.map(([, m]) => m)]),
].sort((a, b) => a - b);

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
  /** Latest minute with rain > 0 within 14 days, or null. */
  lastRainMinute: number | null;
  /** Coverage of the minutes after lastRainMinute. */
  coverageSinceRain: number;
  /** Latest minute with a rain observation (within 14 days and the gap before them), or null. */
  lastRainSample: number | null;
}

/** One kind of sample (rain observed, or a temperature) over a span of minutes. NaN: none. */
class Samples {
  count = 0;
  /** Σ over the span's samples of the minutes since the sample before, where at most `gap` apart. */
  links = 0;
  first = NONE;
  last = NONE;

  add(minute: number, link: number): void {
    this.count++;
    this.links += link;
    if (Number.isNaN(this.first)) this.first = minute;
    this.last = minute;
  }

  /** Appends a later span's samples. */
  append(later: Samples): void {
    if (later.count === 0) return;
    if (this.count === 0) this.first = later.first;
    this.count += later.count;
    this.links += later.links;
    this.last = later.last;
  }

  /** Puts an earlier span's samples before these. */
  prepend(earlier: Samples): void {
    if (earlier.count === 0) return;
    if (this.count === 0) this.last = earlier.last;
    this.count += earlier.count;
    this.links += earlier.links;
    this.first = earlier.first;
  }
}

/** What a span of minutes holds. Spans are combined oldest first. */
class Span {
  rainMicro = 0;
  tempMin = NONE;
  /** Latest minute with rain > 0. */
  lastRain = NONE;
  readonly rain = new Samples();
  readonly temp = new Samples();

  append(later: Span): void {
    this.rainMicro += later.rainMicro;
    this.tempMin = lower(this.tempMin, later.tempMin);
    if (!Number.isNaN(later.lastRain)) this.lastRain = later.lastRain;
    this.rain.append(later.rain);
    this.temp.append(later.temp);
  }

  prepend(earlier: Span): void {
    this.rainMicro += earlier.rainMicro;
    this.tempMin = lower(this.tempMin, earlier.tempMin);
    if (Number.isNaN(this.lastRain)) this.lastRain = earlier.lastRain;
    this.rain.prepend(earlier.rain);
    this.temp.prepend(earlier.temp);
  }
}

/** The lower of two temperatures, NaN meaning none. */
function lower(a: number, b: number): number {
  return Number.isNaN(a) || b < a ? b : a;
}

type Kind = 'rain' | 'temp';

export class WindowSummary {
  readonly #columns: MinuteColumns;
  readonly #gap: number;
  /** Summaries of whole blocks, by block number (minute / 60, floored). */
  readonly #blocks = new Map<number, Span>();
  readonly #dirty = new Set<number>();
  #rebuild = true;

  /** Summarises `columns` (whatever they hold now: a restored history) and follows their changes. */
  constructor(columns: MinuteColumns, gap: number) {
    this.#columns = columns;
    this.#gap = gap;
    columns.listen({ changed: (minute) => this.#changed(minute), pruned: (minute) => this.#pruned(minute) });
  }

  /** A changed minute changes its block, and the links of samples up to `gap` minutes later. */
  #changed(minute: number): void {
    if (this.#rebuild) return;
    const last = Math.floor((minute + this.#gap) / BLOCK_MINUTES);
    for (let block = Math.floor(minute / BLOCK_MINUTES); block <= last; block++) this.#dirty.add(block);
  }

  #pruned(minute: number): void {
    if (this.#rebuild) return;
    const cut = Math.floor(minute / BLOCK_MINUTES);
    for (const block of this.#blocks.keys()) if (block < cut) this.#blocks.delete(block);
    for (const block of this.#dirty) if (block < cut) this.#dirty.delete(block);
    this.#changed(minute);
  }

  /** The windows ending at `nowMinute`, equal to a full scan of the minutes (assembly.ts's rule). */
  scan(nowMinute: number): WindowScan {
    this.#refresh();
    const windows = new Map<number, WindowStats>();
    const total = new Span();
    let newest = nowMinute;
    for (const length of WINDOW_LENGTHS) {
      const from = nowMinute - length + 1;
      total.prepend(this.#span(from, newest));
      newest = from - 1;
      windows.set(length, {
        rainMm: total.rainMicro / MICRO_MM,
        rainCoverage: this.#covered('rain', total.rain, from, nowMinute) / length,
        tempMinC: Number.isNaN(total.tempMin) ? null : total.tempMin,
        tempCoverage: this.#covered('temp', total.temp, from, nowMinute) / length,
      });
    }
    const lastRain = Number.isNaN(total.lastRain) ? null : total.lastRain;
    let coverageSinceRain = 0;
    if (lastRain !== null) {
      coverageSinceRain =
        lastRain === nowMinute
          ? 1
          : this.#covered('rain', this.#span(lastRain + 1, nowMinute).rain, lastRain + 1, nowMinute) / (nowMinute - lastRain);
    }
    const oldest = nowMinute - RETENTION_MINUTES + 1;
    const lastSample = Number.isNaN(total.rain.last) ? this.#span(oldest - this.#gap, oldest - 1).rain.last : total.rain.last;
    return {
      nowMinute,
      windows,
      lastRainMinute: lastRain,
      coverageSinceRain,
      lastRainSample: Number.isNaN(lastSample) ? null : lastSample,
    };
  }

  /**
   * Rain and lowest temperature over the minutes [first, last] from any minute on (the forecast
   * projection's observed part): suffix sums over the blocks, built once, so each question costs
   * at most one partial block.
   */
  observed(first: number, last: number): ObservedHistory {
    this.#refresh();
    const firstBlock = Math.floor(first / BLOCK_MINUTES);
    const count = Math.max(0, Math.floor(last / BLOCK_MINUTES) - firstBlock + 1);
    const rainMicro = new Float64Array(count + 1);
    const tempMin = new Float64Array(count + 1).fill(Number.POSITIVE_INFINITY);
    for (let i = count - 1; i >= 0; i--) {
      const start = (firstBlock + i) * BLOCK_MINUTES;
      const whole = start >= first && start + BLOCK_MINUTES - 1 <= last;
      const span = whole ? this.#blocks.get(firstBlock + i) : this.#span(Math.max(first, start), Math.min(last, start + BLOCK_MINUTES - 1));
      rainMicro[i] = rainMicro[i + 1]! + (span?.rainMicro ?? 0);
      tempMin[i] = lower(tempMin[i + 1]!, span?.tempMin ?? NONE);
    }
    const since = (fromMs: number): { rainMicro: number; tempMin: number } => {
      const minute = Math.max(first, Math.ceil(fromMs / MINUTE_MS));
      if (minute > last) return { rainMicro: 0, tempMin: Number.POSITIVE_INFINITY };
      const i = Math.floor(minute / BLOCK_MINUTES) - firstBlock;
      const start = (firstBlock + i) * BLOCK_MINUTES;
      if (minute === Math.max(first, start)) return { rainMicro: rainMicro[i]!, tempMin: tempMin[i]! };
      const part = this.#span(minute, Math.min(last, start + BLOCK_MINUTES - 1));
      return { rainMicro: rainMicro[i + 1]! + part.rainMicro, tempMin: lower(tempMin[i + 1]!, part.tempMin) };
    };
    return {
      rainSince: (fromMs) => since(fromMs).rainMicro / MICRO_MM,
      minTempSince: (fromMs) => since(fromMs).tempMin,
    };
  }

  /** Covered minutes of [from, now], given the samples of that range. */
  #covered(kind: Kind, samples: Samples, from: number, now: number): number {
    let covered = samples.count + samples.links;
    if (samples.count > 0) {
      // The first sample's link may reach back before `from`: count only the minutes from `from` on.
      const link = this.#link(kind, this.#columns.indexOf(samples.first));
      if (link > 0) covered -= Math.max(0, from - (samples.first - link));
    }
    let latest = samples.last;
    if (samples.count === 0 && from - 1 >= now - this.#gap) latest = this.#span(now - this.#gap, from - 1)[kind].last;
    if (!Number.isNaN(latest) && now - latest <= this.#gap) covered += now - Math.max(latest + 1, from) + 1;
    return covered;
  }

  /** Minutes since the sample before the one at `index`, when at most `gap` apart; else 0. */
  #link(kind: Kind, index: number): number {
    const columns = this.#columns;
    const minute = columns.minuteAt(index);
    for (let i = index - 1; i >= columns.first && columns.minuteAt(i) >= minute - this.#gap; i--) {
      if (kind === 'rain' ? columns.observedAt(i) : columns.tempMinAt(i) !== null) return minute - columns.minuteAt(i) - 1;
    }
    return 0;
  }

  /** Adds the buckets at indices [from, to) to `span`. */
  #addBuckets(span: Span, from: number, to: number): void {
    const columns = this.#columns;
    for (let i = from; i < to; i++) {
      const minute = columns.minuteAt(i);
      const rain = columns.rainAt(i);
      if (rain !== 0) span.rainMicro += Math.round(rain * MICRO_MM);
      if (rain > 0) span.lastRain = minute;
      if (columns.observedAt(i)) span.rain.add(minute, this.#link('rain', i));
      const temp = columns.tempMinAt(i);
      if (temp !== null) {
        span.temp.add(minute, this.#link('temp', i));
        span.tempMin = lower(span.tempMin, temp);
      }
    }
  }

  /** The minutes [from, to]: whole blocks from their summaries, the partial ones bucket by bucket. */
  #span(from: number, to: number): Span {
    const span = new Span();
    const columns = this.#columns;
    let block = Math.ceil(from / BLOCK_MINUTES);
    const endBlock = Math.floor((to + 1) / BLOCK_MINUTES); // whole blocks are [block, endBlock)
    if (block >= endBlock) {
      this.#addBuckets(span, columns.lowerBound(from), columns.lowerBound(to + 1));
      return span;
    }
    this.#addBuckets(span, columns.lowerBound(from), columns.lowerBound(block * BLOCK_MINUTES));
    for (; block < endBlock; block++) {
      const summary = this.#blocks.get(block);
      if (summary) span.append(summary);
    }
    this.#addBuckets(span, columns.lowerBound(endBlock * BLOCK_MINUTES), columns.lowerBound(to + 1));
    return span;
  }

  /** Sums the changed blocks again (all of them after a restore or a change of columns). */
  #refresh(): void {
    const columns = this.#columns;
    if (this.#rebuild) {
      this.#rebuild = false;
      this.#dirty.clear();
      this.#blocks.clear();
      for (let i = columns.first; i < columns.end;) {
        const block = Math.floor(columns.minuteAt(i) / BLOCK_MINUTES);
        const end = columns.lowerBound((block + 1) * BLOCK_MINUTES);
        this.#store(block, i, end);
        i = end;
      }
      return;
    }
    for (const block of this.#dirty) {
      this.#store(block, columns.lowerBound(block * BLOCK_MINUTES), columns.lowerBound((block + 1) * BLOCK_MINUTES));
    }
    this.#dirty.clear();
  }

  #store(block: number, from: number, to: number): void {
    if (from === to) {
      this.#blocks.delete(block);
      return;
    }
    const span = new Span();
    this.#addBuckets(span, from, to);
    this.#blocks.set(block, span);
  }
}
