/**
 * Rain of the last hour on the monotonic clock, beside the history. The
 * history files readings by their wall-clock time; right after the clock
 * stepped (a Pi booting on a saved time, then NTP), the rain that just fell
 * can sit outside every window or behind withheld coverage. This unit
 * remembers, per station, the rain amounts the readings showed by when they
 * arrived (monotonic), and when the history's `rain_1h` is missing or shows
 * less, supplies the remembered amount and holds `mowable` off: a station
 * that reported rain in the last hour is never mowable because its windows
 * are withheld. In steady operation the history shows at least as much and
 * this unit changes nothing.
 *
 * It also holds `mowable` off while the newest rain reading's rain is unknown
 * (`rain_unknown`): a rain counter's first reading without a stored baseline
 * (a fresh start, or a restart whose last commit did not reach the counter,
 * such as a power cut within the flush interval) only sets the baseline, so
 * the history shows no rain where 3 mm may just have fallen, and the index
 * computed without rain fields can be high. The hold ends with the next
 * reading whose rain the history observes (docs/mqtt.md, section 6).
 */
import type { TimedReading } from '../history/stationHistory.js';
import { isModelHour } from '../ingest/formats/openMeteo.js';
import type { MonotonicClock } from '../util/clock.js';
import type { MowableHold, StationInput, StationUnit } from './unit.js';

/** How far back the memory reaches, and how far it is compared with the history's rain_1h. */
const MEMORY_MS = 60 * 60_000;
/** Rain this recent must show in the history's last hour (minute buckets round by up to a minute each way). */
const COMPARE_MS = 55 * 60_000;
/** A counter step counts only when the counter was seen this recently (after longer gaps the history decides when it rained). */
const MAX_STEP_GAP_MS = 15 * 60_000;
/** Differences below this are rounding (mm). */
const EPSILON_MM = 0.01;

/** The hold while the newest reading's rain is unknown (fail safe: no rain known is not no rain). */
const RAIN_UNKNOWN_HOLD: MowableHold = Object.freeze({
  code: 'rain_unknown',
  reason: {
    en: "the rain counter's reading has no earlier total to compare with (first reading, or its last total was not stored), so the rain that just fell is unknown; waiting for its next reading",
    de: 'der Regenzähler hat keinen früheren Stand zum Vergleich (erste Meldung, oder sein letzter Stand wurde nicht gespeichert), der gerade gefallene Regen ist also unbekannt; warte auf seine nächste Meldung',
  },
});

interface RainEvent {
  atMs: number;
  mm: number;
}

interface StationMemory {
  events: RainEvent[];
  counters: Map<string, { totalMm: number; atMs: number }>;
  /** Set by extendInput for mowableHold: the remembered rain the history did not show. */
  missingMm: number;
  /** The newest reading that said something about rain left its rain unknown (TimedReading.rainUnknown). */
  rainUnknown: boolean;
}

export class RecentRain implements StationUnit {
  readonly name = 'recent-rain';
  readonly #monotonic: MonotonicClock;
  readonly #stations = new Map<string, StationMemory>();

  constructor(monotonic: MonotonicClock) {
    this.#monotonic = monotonic;
  }

  #memory(stationId: string): StationMemory {
    let memory = this.#stations.get(stationId);
    if (!memory) this.#stations.set(stationId, (memory = { events: [], counters: new Map(), missingMm: 0, rainUnknown: false }));
    return memory;
  }

  onReading(stationId: string, reading: TimedReading): void {
    // A model's past hour (a modelled station's backfill, a broken gauge's model rain) arrives late by construction.
    if (isModelHour(reading)) return;
    const atMs = this.#monotonic.now();
    const memory = this.#memory(stationId);
    if (reading.rainUnknown !== undefined) memory.rainUnknown = reading.rainUnknown;
    let mm = reading.rainDeltaMm !== undefined && reading.rainDeltaMm > 0 ? reading.rainDeltaMm : 0;
    for (const counter of reading.rainCounters) {
      const previous = memory.counters.get(counter.key);
      memory.counters.set(counter.key, { totalMm: counter.totalMm, atMs });
      if (previous && atMs - previous.atMs <= MAX_STEP_GAP_MS && counter.totalMm > previous.totalMm) mm += counter.totalMm - previous.totalMm;
    }
    // What the history booked from the reading (a first reading after a restart, a baseline a clock step left behind) knows more.
    if (reading.bookedRainMm !== undefined) mm = Math.max(mm, reading.bookedRainMm);
    if (mm > 0) memory.events.push({ atMs, mm });
    this.#forget(memory, atMs);
  }

  #forget(memory: StationMemory, nowMs: number): void {
    while (memory.events.length > 0 && nowMs - memory.events[0]!.atMs > MEMORY_MS) memory.events.shift();
  }

  /** Rain remembered for the station since `sinceMs` ago (mm). */
  #rainWithin(memory: StationMemory, withinMs: number): { mm: number; lastAtMs: number | undefined } {
    const nowMs = this.#monotonic.now();
    this.#forget(memory, nowMs);
    let mm = 0;
    let lastAtMs: number | undefined;
    for (const event of memory.events) {
      if (nowMs - event.atMs > withinMs) continue;
      mm += event.mm;
      lastAtMs = event.atMs;
    }
    return { mm, lastAtMs };
  }

  extendInput(stationId: string, input: StationInput): StationInput {
    const memory = this.#stations.get(stationId);
    if (!memory) return input;
    const recent = this.#rainWithin(memory, COMPARE_MS);
    const shown = input.rain_1h ?? 0;
    memory.missingMm = input.rain_1h === undefined || shown < recent.mm - EPSILON_MM ? recent.mm : 0;
    if (memory.missingMm <= 0 || recent.lastAtMs === undefined) return input;
    const extended: StationInput = { ...input, rain_1h: Math.round(this.#rainWithin(memory, MEMORY_MS).mm * 1000) / 1000 };
    if (input.minutes_since_rain === undefined) extended.minutes_since_rain = Math.floor((this.#monotonic.now() - recent.lastAtMs) / 60_000);
    return extended;
  }

  mowableHold(stationId: string): MowableHold | undefined {
    const memory = this.#stations.get(stationId);
    const missing = memory?.missingMm ?? 0;
    if (missing <= 0) return memory?.rainUnknown ? RAIN_UNKNOWN_HOLD : undefined;
    const mm = Math.round(missing * 10) / 10;
    return {
      code: 'recent_rain',
      reason: {
        en: `the station reported ${mm} mm of rain in the last hour that the history's windows do not show (clock step?)`,
        de: `die Station meldete in der letzten Stunde ${String(mm).replace('.', ',')} mm Regen, die im Verlauf fehlen (Zeitsprung der Uhr?)`,
      },
    };
  }
}
