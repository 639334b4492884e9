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
import { parseTopicPayload, topicStationKey, TopicSubscriptions, type TopicFeed, type TopicStationSettings } from '../station/topicUnit.js';
import type { StationInput, StationUnit, UnitMetric, UnitSubscriber } from '../station/unit.js';
import { defineStationUnit, type UnitStation } from '../station/unitModule.js';
import type { LogThrottle } from '../util/logThrottle.js';

/** A station's `irrigation`: the topic reporting sprinkler runs; `key`: the JSON key holding on/off. */
export type IrrigationConfig = TopicStationSettings;

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

/** The irrigation topic as a feed (src/station/topicUnit.ts). */
export const IRRIGATION_FEED: TopicFeed<IrrigationReport> = {
  name: 'irrigation',
  maxPayloadBytes: MAX_IRRIGATION_PAYLOAD_BYTES,
  defaultKey: DEFAULT_IRRIGATION_KEY,
  fromValue: fromWord,
  expected: (key) => `ON/OFF, on/off, true/false, 1/0 or a JSON object with "${key}" holding one of them`,
};

/** `ON`/`OFF`, `on`/`off`, `true`/`false`, `1`/`0`, or a JSON object whose `key` holds one of them. */
export function parseIrrigationPayload(text: string, key: string = DEFAULT_IRRIGATION_KEY): IrrigationReport | undefined {
  return parseTopicPayload(IRRIGATION_FEED, text, key);
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

const IRRIGATION_METRICS: Readonly<Record<keyof IrrigationCounters, UnitMetric>> = {
  irrigationReceived: ['mqtt_irrigation_messages_received_total', "Messages on the stations' irrigation topics."],
  irrigationAccepted: ['mqtt_irrigation_messages_accepted_total', 'Irrigation messages understood as ON or OFF.'],
  irrigationRejected: ['mqtt_irrigation_messages_rejected_total', 'Irrigation messages refused (not ON/OFF, too large).'],
};

/** Every station's irrigation source: subscribes, parses, counts, and extends the calculation input. */
export class IrrigationSources implements StationUnit {
  readonly name = 'irrigation';
  readonly metrics = IRRIGATION_METRICS;
  readonly #trackers = new Map<string, IrrigationTracker>();
  readonly #topics: TopicSubscriptions<IrrigationReport>;

  constructor(stations: readonly UnitStation<IrrigationConfig>[], throttle: LogThrottle, now: () => number) {
    for (const station of stations) this.#trackers.set(station.id, new IrrigationTracker(station.settings));
    this.#topics = new TopicSubscriptions(
      IRRIGATION_FEED,
      stations,
      throttle,
      (stationId, topic, report, retained) => this.#trackers.get(stationId)?.apply(topic, report, retained, now()) ?? false,
    );
  }

  get counters(): Readonly<IrrigationCounters> {
    return this.#topics.counters as IrrigationCounters;
  }

  /** Subscribes every station's irrigation topic; `recompute` gets the station whose minutes may have changed. */
  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#topics.subscribe(connection, recompute);
  }

  /** One message on a station's irrigation topic; true when a recompute is due. */
  handle(stationId: string, topic: string, payload: Buffer, retained: boolean): boolean {
    return this.#topics.handle(stationId, topic, payload, retained);
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

/** The station key `irrigation` and its validation. */
const IRRIGATION_STATION_KEY = topicStationKey({
  key: 'irrigation',
  exampleKey: 'state',
  topicDoes: 'reports sprinkler runs',
  topicRequired: 'the MQTT topic (wildcards + and # allowed) that reports ON/OFF',
  keyHolds: 'ON/OFF',
  wildcards: true,
});

/** Sprinkler runs from MQTT as a station unit: a station's `irrigation` key turns it on for that station. */
export const irrigationUnit = defineStationUnit<undefined, IrrigationConfig>({
  name: 'irrigation',
  config: { station: IRRIGATION_STATION_KEY },
  create: ({ stations, throttle, clock }) => new IrrigationSources(stations, throttle, () => clock.now()),
});

/** The state key this module owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The station's irrigation source and what it last reported (stations with `irrigation`). */
    irrigation: IrrigationStatus;
  }
}
