/**
 * Rain of the last hour on the monotonic clock, for when the wall clock cannot be trusted. The
 * history is the one ledger of rain: it files readings by their own time in minute buckets, caps
 * each minute at the world record and clamps each window at the field's maximum. Right after the
 * wall clock stepped (a Pi booting on a saved time, then NTP), or while it is known not to be
 * synchronised, or when the history holds readings stamped after "now" (a clock set back, such as
 * fake-hwclock after a power cut), the rain that just fell can sit outside every window or behind
 * withheld coverage. For those cases only, this unit remembers, per station, the rain the readings
 * showed by when they arrived (monotonic), with the history's per-minute cap and window clamp, and
 * when the history's `rain_1h` is missing or shows less, supplies the remembered amount and holds
 * `mowable` off, saying which clock problem it saw. With a trusted clock it changes nothing: a
 * backlog arriving in a burst (a broker replaying after a restart, WeeWX catching up) is rain of
 * the hours its readings name, as the history books it, and a new station's first hour is the
 * history's (its windows still filling).
 *
 * It also holds `mowable` off while the newest rain reading's rain is unknown (`rain_unknown`): a
 * rain counter's first reading without a stored baseline (a fresh start, or a restart whose last
 * commit did not reach the counter, such as a power cut within the flush interval) only sets the
 * baseline, so the history shows no rain where 3 mm may just have fallen, and the index computed
 * without rain fields can be high. The hold ends with the next reading whose rain the history
 * observes (docs/mqtt.md, section 6).
 */
import { addToMinute, clampToSpecMax } from '../history/rainPlausibility.js';
import type { TimedReading } from '../history/stationHistory.js';
import { isModelHour } from '../ingest/formats/openMeteo.js';
import type { MonotonicClock } from '../util/clock.js';
import type { ClockSyncStatus } from '../util/clockSync.js';
import type { ClockStep } from '../util/clockWatch.js';
import { clockDoubtReason, type ClockDoubt } from './clockDoubt.js';
import type { MowableHold, StationInput, StationUnit } from './unit.js';

/** How far back the memory reaches, how long a detected clock problem keeps it in use, and how far it is compared with the history's rain_1h. */
const MEMORY_MS = 60 * 60_000;
/** Rain this recent must show in the history's last hour (minute buckets round by up to a minute each way). */
const COMPARE_MS = 55 * 60_000;
/** A counter step counts only when the counter was seen this recently (after longer gaps the history decides when it rained). */
const MAX_STEP_GAP_MS = 15 * 60_000;
/** Differences below this are rounding (mm). */
const EPSILON_MM = 0.01;
const MINUTE_MS = 60_000;

/** The hold while the newest reading's rain is unknown (fail safe: no rain known is not no rain). */
const RAIN_UNKNOWN_HOLD: MowableHold = Object.freeze({
  code: 'rain_unknown',
  reason: {
    en: "the rain counter's reading has no earlier total to compare with (first reading, or its last total was not stored), so the rain that just fell is unknown; waiting for its next reading",
    de: 'der Regenzähler hat keinen früheren Stand zum Vergleich (erste Meldung, oder sein letzter Stand wurde nicht gespeichert), der gerade gefallene Regen ist also unbekannt; warte auf seine nächste Meldung',
  },
});

/** Rain that arrived within one monotonic minute, capped like a history bucket. */
interface RainMinute {
  minute: number;
  mm: number;
  lastAtMs: number;
}

interface StationMemory {
  minutes: RainMinute[];
  counters: Map<string, { totalMm: number; atMs: number }>;
  /** Set by extendInput for mowableHold: the remembered rain the history did not show, and why the clock was doubted. */
  missingMm: number;
  doubt: ClockDoubt | undefined;
  /** The newest reading that said something about rain left its rain unknown (TimedReading.rainUnknown). */
  rainUnknown: boolean;
  /** Monotonic time the history last held readings stamped after "now" (TimedReading.historyAheadOfClock). */
  aheadAtMs: number | undefined;
}

export class RecentRain implements StationUnit {
  readonly name = 'recent-rain';
  readonly #monotonic: MonotonicClock;
  readonly #clockSync: () => ClockSyncStatus;
  readonly #stations = new Map<string, StationMemory>();
  #lastStep: { step: ClockStep; atMs: number } | undefined;

  /** `clockSync`: the wall clock's NTP status as last read (src/util/clockWatch.ts). */
  constructor(monotonic: MonotonicClock, clockSync: () => ClockSyncStatus = () => 'unknown') {
    this.#monotonic = monotonic;
    this.#clockSync = clockSync;
  }

  #memory(stationId: string): StationMemory {
    let memory = this.#stations.get(stationId);
    if (!memory)
      this.#stations.set(
        stationId,
        (memory = { minutes: [], counters: new Map(), missingMm: 0, doubt: undefined, rainUnknown: false, aheadAtMs: undefined }),
      );
    return memory;
  }

  clockStepped(step: ClockStep): void {
    this.#lastStep = { step, atMs: this.#monotonic.now() };
  }

  onReading(stationId: string, reading: TimedReading): void {
    // A model's past hour (a modelled station's backfill, a broken gauge's model rain) arrives late by construction.
    if (isModelHour(reading)) return;
    const atMs = this.#monotonic.now();
    const memory = this.#memory(stationId);
    if (reading.rainUnknown !== undefined) memory.rainUnknown = reading.rainUnknown;
    if (reading.historyAheadOfClock === true) memory.aheadAtMs = atMs;
    let mm = reading.rainDeltaMm !== undefined && reading.rainDeltaMm > 0 ? reading.rainDeltaMm : 0;
    for (const counter of reading.rainCounters) {
      const previous = memory.counters.get(counter.key);
      memory.counters.set(counter.key, { totalMm: counter.totalMm, atMs });
      if (previous && atMs - previous.atMs <= MAX_STEP_GAP_MS && counter.totalMm > previous.totalMm)
        mm += counter.totalMm - previous.totalMm;
    }
    // What the history booked from the reading (a first reading after a restart, a baseline a clock step left behind) knows more.
    if (reading.bookedRainMm !== undefined) mm = Math.max(mm, reading.bookedRainMm);
    if (mm > 0) remember(memory, atMs, mm);
    this.#forget(memory, atMs);
  }

  #forget(memory: StationMemory, nowMs: number): void {
    while (memory.minutes.length > 0 && nowMs - memory.minutes[0]!.lastAtMs > MEMORY_MS) memory.minutes.shift();
  }

  /** Rain remembered for the station within `withinMs` (mm, clamped to rain_1h's maximum) and when the last of it arrived. */
  #rainWithin(memory: StationMemory, withinMs: number): { mm: number; lastAtMs: number | undefined } {
    const nowMs = this.#monotonic.now();
    this.#forget(memory, nowMs);
    let mm = 0;
    let lastAtMs: number | undefined;
    for (const minute of memory.minutes) {
      if (nowMs - minute.lastAtMs > withinMs) continue;
      mm += minute.mm;
      lastAtMs = minute.lastAtMs;
    }
    return { mm: clampToSpecMax('rain_1h', mm).value, lastAtMs };
  }

  /** The clock problem seen within the memory's hour, if any: the latest step first, then an unsynchronised clock, then a history ahead of the clock. */
  #doubt(memory: StationMemory): ClockDoubt | undefined {
    const nowMs = this.#monotonic.now();
    if (this.#lastStep && nowMs - this.#lastStep.atMs <= MEMORY_MS)
      return { kind: 'step', step: this.#lastStep.step, agoMs: nowMs - this.#lastStep.atMs };
    if (this.#clockSync() === 'unsynchronized') return { kind: 'unsynchronised' };
    if (memory.aheadAtMs !== undefined && nowMs - memory.aheadAtMs <= MEMORY_MS) return { kind: 'history-ahead' };
    return undefined;
  }

  extendInput(stationId: string, input: StationInput): StationInput {
    const memory = this.#stations.get(stationId);
    if (!memory) return input;
    memory.missingMm = 0;
    memory.doubt = this.#doubt(memory);
    // A trusted clock: the history's windows are the rain of the last hour.
    if (memory.doubt === undefined) return input;
    const recent = this.#rainWithin(memory, COMPARE_MS);
    const shown = input.rain_1h ?? 0;
    memory.missingMm = input.rain_1h === undefined || shown < recent.mm - EPSILON_MM ? recent.mm : 0;
    if (memory.missingMm <= 0 || recent.lastAtMs === undefined) return input;
    const extended: StationInput = { ...input, rain_1h: Math.round(this.#rainWithin(memory, MEMORY_MS).mm * 1000) / 1000 };
    if (input.minutes_since_rain === undefined)
      extended.minutes_since_rain = Math.floor((this.#monotonic.now() - recent.lastAtMs) / MINUTE_MS);
    return extended;
  }

  mowableHold(stationId: string): MowableHold | undefined {
    const memory = this.#stations.get(stationId);
    const missing = memory?.missingMm ?? 0;
    if (missing <= 0 || memory?.doubt === undefined) return memory?.rainUnknown ? RAIN_UNKNOWN_HOLD : undefined;
    return { code: 'recent_rain', reason: clockDoubtReason(memory.doubt, Math.round(missing * 10) / 10) };
  }
}

/** Books `mm` in the arrival's monotonic minute, at most the world-record minute like a history bucket. */
function remember(memory: StationMemory, atMs: number, mm: number): void {
  const minute = Math.floor(atMs / MINUTE_MS);
  const last = memory.minutes.at(-1);
  if (last && last.minute === minute) {
    last.mm = addToMinute(last.mm, mm).totalMm;
    last.lastAtMs = atMs;
  } else {
    memory.minutes.push({ minute, mm: addToMinute(0, mm).totalMm, lastAtMs: atMs });
  }
}
