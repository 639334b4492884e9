/**
 * Sprinkler runs reported on MQTT (a station's `irrigation.topic`): remembers
 * when irrigation last ran and turns it into the core's
 * `minutes_since_irrigation` extension field. A topic reports on/off; a run
 * ends when a topic that was on reports off, and while any topic is on the
 * lawn is being watered now (0 minutes).
 *
 * Retained messages (replayed by the broker on subscribe, e.g. after a
 * restart) carry no time: a retained "on" may be days old, so it never counts
 * as a run. It is only remembered so that a live "off" after it ends a run
 * (the sprinkler was on until then). The last run is kept in memory only: a
 * restart forgets it until the next live message.
 */
import { IRRIGATION_FIELD_SPECS } from '../core/irrigation.js';
import type { StationInput, StationUnit, UnitSubscriber } from './unit.js';
import type { IrrigationConfig, StationConfig } from '../ingest/types.js';
import type { LogThrottle } from '../util/logThrottle.js';

/** JSON key read when the station's irrigation config names none (OpenSprinkler, HA statestream-style objects). */
export const DEFAULT_IRRIGATION_KEY = 'state';
/** An on/off report is a few bytes; anything longer is not one. */
export const MAX_IRRIGATION_PAYLOAD_BYTES = 1024;
/** Distinct topics remembered per station (a wildcard filter over zones); more are refused. */
export const MAX_IRRIGATION_TOPICS = 64;

const ON_WORDS = new Set(['on', 'true', '1']);
const OFF_WORDS = new Set(['off', 'false', '0']);
const MINUTE_MS = 60_000;
const MAX_MINUTES = IRRIGATION_FIELD_SPECS[0].max;

export type IrrigationReport = 'on' | 'off';

function fromWord(value: unknown): IrrigationReport | undefined {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const word = String(value).trim().toLowerCase();
  return ON_WORDS.has(word) ? 'on' : OFF_WORDS.has(word) ? 'off' : undefined;
}

/** `ON`/`OFF`, `on`/`off`, `true`/`false`, `1`/`0`, or a JSON object whose `key` holds one of them. */
export function parseIrrigationPayload(text: string, key: string = DEFAULT_IRRIGATION_KEY): IrrigationReport | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return fromWord(trimmed);
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.hasOwn(parsed, key)) return undefined;
    return fromWord((parsed as Record<string, unknown>)[key]);
  } catch {
    return undefined;
  }
}

/** What the state payload shows about a station's irrigation source. */
export interface IrrigationStatus {
  source: 'mqtt';
  topic: string;
  running: boolean;
  last_run_end_at: string | null;
  minutes_since_irrigation: number | null;
}

type TopicState = 'on' | 'off' | 'on_retained';

/** One station's source. */
export class IrrigationTracker {
  readonly #config: IrrigationConfig;
  readonly #topics = new Map<string, TopicState>();
  #lastEndMs: number | undefined;

  constructor(config: IrrigationConfig) {
    this.#config = config;
  }

  /** The JSON key holding the state in object payloads. */
  get key(): string {
    return this.#config.key ?? DEFAULT_IRRIGATION_KEY;
  }

  /** Applies one parsed report; true when minutes_since_irrigation may have changed. */
  apply(topic: string, report: IrrigationReport, retained: boolean, nowMs: number): boolean {
    const before = this.#topics.get(topic);
    if (before === undefined && this.#topics.size >= MAX_IRRIGATION_TOPICS) return false;
    if (retained) {
      this.#topics.set(topic, report === 'on' ? 'on_retained' : 'off');
      return false;
    }
    this.#topics.set(topic, report);
    if (report === 'on') return before !== 'on';
    if (before === 'on' || before === 'on_retained') {
      this.#lastEndMs = nowMs;
      return true;
    }
    return false;
  }

  get running(): boolean {
    for (const state of this.#topics.values()) if (state === 'on') return true;
    return false;
  }

  minutesSince(nowMs: number): number | undefined {
    if (this.running) return 0;
    if (this.#lastEndMs === undefined) return undefined;
    return Math.min(MAX_MINUTES, Math.max(0, Math.floor((nowMs - this.#lastEndMs) / MINUTE_MS)));
  }

  status(nowMs: number): IrrigationStatus {
    return {
      source: 'mqtt',
      topic: this.#config.topic,
      running: this.running,
      last_run_end_at: this.#lastEndMs === undefined ? null : new Date(this.#lastEndMs).toISOString(),
      minutes_since_irrigation: this.minutesSince(nowMs) ?? null,
    };
  }
}

/** Messages on irrigation topics, accepted, and refused as not an on/off report. */
export type IrrigationCounters = {
  irrigationReceived: number;
  irrigationAccepted: number;
  irrigationRejected: number;
};

/** Every station's irrigation source: subscribes, parses, counts, and extends the calculation input. */
export class IrrigationSources implements StationUnit {
  readonly name = 'irrigation';
  readonly counters: IrrigationCounters = { irrigationReceived: 0, irrigationAccepted: 0, irrigationRejected: 0 };
  readonly #stations: readonly StationConfig[];
  readonly #trackers = new Map<string, IrrigationTracker>();
  readonly #throttle: LogThrottle;
  readonly #now: () => number;

  constructor(stations: readonly StationConfig[], throttle: LogThrottle, now: () => number) {
    this.#stations = stations;
    for (const station of stations) if (station.irrigation) this.#trackers.set(station.id, new IrrigationTracker(station.irrigation));
    this.#throttle = throttle;
    this.#now = now;
  }

  /** Subscribes every station's irrigation topic; `recompute` gets the station whose minutes may have changed. */
  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    for (const station of this.#stations) {
      const irrigation = station.irrigation;
      if (!irrigation) continue;
      connection.subscribe(irrigation.topic, (topic, payload, retained) => {
        if (this.handle(station.id, topic, payload, retained)) recompute(station.id);
      });
    }
  }

  /** One message on a station's irrigation topic; true when a recompute is due. */
  handle(stationId: string, topic: string, payload: Buffer, retained: boolean): boolean {
    const tracker = this.#trackers.get(stationId);
    if (!tracker) return false;
    this.counters.irrigationReceived++;
    const key = tracker.key;
    const report = payload.length <= MAX_IRRIGATION_PAYLOAD_BYTES ? parseIrrigationPayload(payload.toString('utf8'), key) : undefined;
    if (report === undefined) {
      this.counters.irrigationRejected++;
      this.#throttle.warn(`irrigation:${stationId}`, { station: stationId, topic, bytes: payload.length },
        `irrigation payload ignored: expected ON/OFF, on/off, true/false, 1/0 or a JSON object with "${key}" holding one of them`);
      return false;
    }
    this.counters.irrigationAccepted++;
    return tracker.apply(topic, report, retained, this.#now());
  }

  /** The station's input with minutes_since_irrigation added when its source knows a run. */
  extendInput(stationId: string, input: StationInput, nowMs: number): StationInput {
    const minutes = this.#trackers.get(stationId)?.minutesSince(nowMs);
    return minutes === undefined ? input : { ...input, minutes_since_irrigation: minutes };
  }

  status(stationId: string, nowMs: number): IrrigationStatus | undefined {
    return this.#trackers.get(stationId)?.status(nowMs);
  }

  stats(): Readonly<IrrigationCounters> {
    return this.counters;
  }

  /** The state's `irrigation` object, for stations with a source. */
  stateFragment(stationId: string, nowMs: number): { irrigation: IrrigationStatus } | undefined {
    const status = this.status(stationId, nowMs);
    return status ? { irrigation: status } : undefined;
  }
}
