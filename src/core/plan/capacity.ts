/**
 * How much mowing the usable steps can still hold (docs/model.md, "The plan"): the most minutes of new
 * slots (each of whole steps, at least the shortest run, at most the run, on contiguous usable steps,
 * starting in a window, clear of the slots already taken and the gap apart) — an exact optimum by dynamic
 * programming over the steps, forwards and backwards, so that the placement can ask what a candidate slot
 * costs: the most minutes with it, in O(log n). Placement picks the safest, driest slot only while it
 * leaves enough of that room for the need; greedy picks alone waste room (a slot in the middle of a dry
 * afternoon leaves two pieces too short for a run). Pure.
 */
import type { Span } from './placement.js';
import { STEP_MS, usable, type Step } from './steps.js';

const STEP_MINUTES = STEP_MS / 60_000;

export interface CapacityRules {
  /** New slots start in [fromMs, toMs). */
  readonly fromMs: number;
  readonly toMs: number;
  readonly leastSteps: number;
  readonly mostSteps: number;
  readonly gapMs: number;
  readonly relaxed: boolean;
}

export interface Capacity {
  /** The most minutes new slots can hold. */
  readonly totalMinutes: number;
  /** The most minutes new slots can hold when `span` (clear of the taken ones, its start in the window) is one of them. */
  withSlot(span: Span): number;
  /** The most minutes when one of the new slots starts before `ms` (0: none can). */
  withSlotBefore(ms: number): number;
  /** The first slot of the earliest optimal set starting before `ms` (the longest of equal ones), or null. */
  firstBefore(ms: number): Span | null;
}

/** The first index whose value is at least `value` (ascending `sorted`). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! >= value) high = mid;
    else low = mid + 1;
  }
  return low;
}

function clearStep(startMs: number, taken: readonly Span[], gapMs: number): boolean {
  const endMs = startMs + STEP_MS;
  return taken.every((other) => endMs + gapMs <= other.startMs || other.endMs + gapMs <= startMs);
}

/**
 * A lower bound of the room, in O(steps × taken): whole runs packed from the earliest open step on. When a
 * candidate and this packing after it already hold what is missing, the exact room is not needed.
 */
export function packedMinutes(steps: readonly Step[], taken: readonly Span[], rules: CapacityRules): number {
  const open = (i: number) => usable(steps[i]!, rules.relaxed) && clearStep(steps[i]!.startMs, taken, rules.gapMs);
  let total = 0;
  let i = 0;
  while (i < steps.length && steps[i]!.startMs < rules.toMs) {
    const start = steps[i]!.startMs;
    if (start < rules.fromMs || !open(i)) {
      i++;
      continue;
    }
    let length = 1;
    while (
      length < rules.mostSteps &&
      i + length < steps.length &&
      steps[i + length]!.startMs === start + length * STEP_MS &&
      open(i + length)
    )
      length++;
    i += length;
    if (length < rules.leastSteps) continue; // the open run ended short of a run
    total += length * STEP_MINUTES;
    const readyMs = start + length * STEP_MS + rules.gapMs;
    while (i < steps.length && steps[i]!.startMs < readyMs) i++;
  }
  return total;
}

export function capacityOf(steps: readonly Step[], taken: readonly Span[], rules: CapacityRules): Capacity {
  const n = steps.length;
  const starts = steps.map((step) => step.startMs);
  const ends = steps.map((step) => step.startMs + STEP_MS);
  const open = steps.map((step) => usable(step, rules.relaxed) && clearStep(step.startMs, taken, rules.gapMs));
  const contiguous = (i: number) => i > 0 && starts[i - 1]! + STEP_MS === starts[i]!;
  // Open steps in a row from i forwards (ahead) and up to i backwards (behind).
  const ahead = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) ahead[i] = open[i] ? 1 + (i + 1 < n && contiguous(i + 1) ? ahead[i + 1]! : 0) : 0;
  const behind = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) behind[i] = open[i] ? 1 + (contiguous(i) ? behind[i - 1]! : 0) : 0;
  const inWindow = (i: number) => starts[i]! >= rules.fromMs && starts[i]! < rules.toMs;

  // Backwards: after[i] = the most minutes of slots starting at index i or later; here[i] = with one starting at i.
  const after = new Array<number>(n + 1).fill(0);
  const here = new Array<number>(n).fill(0);
  const bestLength = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    after[i] = after[i + 1]!;
    if (!inWindow(i) || ahead[i]! < rules.leastSteps) continue;
    const longest = Math.min(rules.mostSteps, ahead[i]!);
    let next = firstAtLeast(starts, starts[i]! + rules.leastSteps * STEP_MS + rules.gapMs);
    for (let length = rules.leastSteps; length <= longest; length++) {
      const readyMs = starts[i]! + length * STEP_MS + rules.gapMs;
      while (next < n && starts[next]! < readyMs) next++;
      const value = length * STEP_MINUTES + after[next]!;
      if (value >= here[i]!) {
        here[i] = value;
        bestLength[i] = length;
      }
    }
    after[i] = Math.max(after[i]!, here[i]!);
  }

  // Forwards: upTo[j] = the most minutes of slots ending at the end of index j or earlier.
  const upTo = new Array<number>(n).fill(0);
  for (let j = 0; j < n; j++) {
    upTo[j] = j > 0 ? upTo[j - 1]! : 0;
    const longest = Math.min(rules.mostSteps, behind[j]!);
    for (let length = rules.leastSteps; length <= longest; length++) {
      const first = j - length + 1;
      if (!inWindow(first)) continue;
      const before = beforeMs(starts[first]! - rules.gapMs);
      upTo[j] = Math.max(upTo[j]!, length * STEP_MINUTES + before);
    }
  }
  /** The most minutes of slots ending at or before `ms`. */
  function beforeMs(ms: number): number {
    const last = firstAtLeast(ends, ms + 1) - 1;
    return last >= 0 ? upTo[last]! : 0;
  }

  return {
    totalMinutes: after[0]!,
    withSlot(span: Span): number {
      const minutes = (span.endMs - span.startMs) / 60_000;
      return beforeMs(span.startMs - rules.gapMs) + minutes + after[firstAtLeast(starts, span.endMs + rules.gapMs)]!;
    },
    withSlotBefore(ms: number): number {
      let best = 0;
      for (let i = 0; i < n && starts[i]! < ms; i++) best = Math.max(best, here[i]!);
      return best;
    },
    firstBefore(ms: number): Span | null {
      let best = -1;
      for (let i = 0; i < n && starts[i]! < ms; i++) if (here[i]! > 0 && (best < 0 || here[i]! > here[best]!)) best = i;
      if (best < 0) return null;
      return { startMs: starts[best]!, endMs: starts[best]! + bestLength[best]! * STEP_MS };
    },
  };
}
