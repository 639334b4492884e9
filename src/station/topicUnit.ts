/**
 * "A unit fed by a topic": what every unit that reads a station's MQTT topic repeats, once. A feed
 * is data (its name, size cap, default JSON key, how one value reads, the words for a refusal) plus
 * pure functions over it, in the spirit of zigbee-herdsman-converters; `TopicSubscriptions`
 * subscribes each station's topic, applies the size cap and the parser, counts and throttles the
 * refusal log, and hands the unit each report. The unit keeps only what it does with a report
 * (src/units/irrigationSource.ts, src/units/snowCover.ts).
 */
import { isPlainObject, topicFilterProblem, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';
import type { LogThrottle } from '../util/logThrottle.js';
import type { UnitSubscriber } from './unit.js';
import type { UnitStation } from './unitModule.js';

/** A station's setting for a topic-fed unit: the topic, and the JSON key holding the value in object payloads. */
export interface TopicStationSettings {
  topic: string;
  key?: string;
}

/** What a topic carries and how one payload reads. */
export interface TopicFeed<R> {
  /** The unit's word for it: the counters (`<name>Received`, `<name>Accepted`, `<name>Rejected`) and the log's. */
  readonly name: string;
  /** A payload longer than this is refused unread. */
  readonly maxPayloadBytes: number;
  /** The JSON key read when the station names none. */
  readonly defaultKey: string;
  /** One value (a bare payload's text, or the JSON key's value) as a report; undefined: it is not one. */
  fromValue(value: unknown): R | undefined;
  /** What a payload must be, for the refusal's log line ("expected ..."). */
  expected(key: string): string;
}

/** A bare value, or a JSON object whose `key` holds one (pure). */
export function parseTopicPayload<R>(feed: Pick<TopicFeed<R>, 'fromValue'>, text: string, key: string): R | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return feed.fromValue(trimmed);
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isPlainObject(parsed) && Object.hasOwn(parsed, key) ? feed.fromValue(parsed[key]) : undefined;
  } catch {
    return undefined;
  }
}

/** One message's report, or undefined when it is too large or not one (pure). */
export function readTopicMessage<R>(feed: TopicFeed<R>, payload: Buffer, key: string): R | undefined {
  return payload.length <= feed.maxPayloadBytes ? parseTopicPayload(feed, payload.toString('utf8'), key) : undefined;
}

/** Handed each report: true when the station's state may have changed (a recompute is due). */
export type TopicReportHandler<R> = (stationId: string, topic: string, report: R, retained: boolean) => boolean;

/** Every configured station's topic of one feed: subscribed, read, counted, refusals logged once a minute per station. */
export class TopicSubscriptions<R> {
  readonly counters: Record<string, number>;
  readonly #feed: TopicFeed<R>;
  readonly #stations: ReadonlyMap<string, TopicStationSettings>;
  readonly #throttle: LogThrottle;
  readonly #onReport: TopicReportHandler<R>;
  readonly #names: { received: string; accepted: string; rejected: string };

  constructor(
    feed: TopicFeed<R>,
    stations: readonly UnitStation<TopicStationSettings>[],
    throttle: LogThrottle,
    onReport: TopicReportHandler<R>,
  ) {
    this.#feed = feed;
    this.#stations = new Map(stations.map((station) => [station.id, station.settings]));
    this.#throttle = throttle;
    this.#onReport = onReport;
    this.#names = { received: `${feed.name}Received`, accepted: `${feed.name}Accepted`, rejected: `${feed.name}Rejected` };
    this.counters = { [this.#names.received]: 0, [this.#names.accepted]: 0, [this.#names.rejected]: 0 };
  }

  /** The station's settings, when it has the feed's key. */
  settingsOf(stationId: string): TopicStationSettings | undefined {
    return this.#stations.get(stationId);
  }

  /** Subscribes every station's topic; `recompute` gets the station whose state may have changed. */
  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    for (const [stationId, settings] of this.#stations) {
      connection.subscribe(settings.topic, (topic, payload, retained) => {
        if (this.handle(stationId, topic, payload, retained)) recompute(stationId);
      });
    }
  }

  /** One message on a station's topic; true when a recompute is due. */
  handle(stationId: string, topic: string, payload: Buffer, retained: boolean): boolean {
    const settings = this.#stations.get(stationId);
    if (!settings) return false;
    this.#count('received');
    const key = settings.key ?? this.#feed.defaultKey;
    const report = readTopicMessage(this.#feed, payload, key);
    if (report === undefined) {
      this.#count('rejected');
      this.#throttle.warn(
        `${this.#feed.name}:${stationId}`,
        { station: stationId, topic, bytes: payload.length },
        `${this.#feed.name} payload ignored: expected ${this.#feed.expected(key)}`,
      );
      return false;
    }
    this.#count('accepted');
    return this.#onReport(stationId, topic, report, retained);
  }

  #count(counter: 'received' | 'accepted' | 'rejected'): void {
    this.counters[this.#names[counter]]! += 1;
  }
}

/** The words of a topic-fed station key's problems. */
export interface TopicKeyWords {
  /** The station key, e.g. `snow`. */
  readonly key: string;
  /** The example JSON key in the "must be an object" line, e.g. `depth`. */
  readonly exampleKey: string;
  /** What the topic does, after "naming the MQTT topic that ...", e.g. `reports sprinkler runs`. */
  readonly topicDoes: string;
  /** The "is required: ..." line for a missing topic. */
  readonly topicRequired: string;
  /** What the JSON key holds, e.g. `ON/OFF`. */
  readonly keyHolds: string;
  /** Whether the topic may be a wildcard filter (several zones of one station). */
  readonly wildcards: boolean;
}

/** The station key `{ topic, key? }` of a topic-fed unit, with its validation and its topic (for the base-topic rule). */
export function topicStationKey(words: TopicKeyWords): UnitStationKey {
  const allowed = ['topic', 'key'];
  const { key } = words;
  return {
    key,
    problems(value: unknown, problem: Problem): void {
      if (!isPlainObject(value))
        return problem(
          key,
          `must be an object {"topic": "...", "key": "${words.exampleKey}"} naming the MQTT topic that ${words.topicDoes}`,
        );
      for (const name of Object.keys(value))
        if (!allowed.includes(name)) problem(`${key}.${name}`, `is not allowed (only ${allowed.join(' and ')})`);
      if (typeof value.topic !== 'string') problem(`${key}.topic`, `is required: ${words.topicRequired}`);
      else {
        const topicProblem = topicFilterProblem(value.topic);
        if (topicProblem) problem(`${key}.topic`, topicProblem);
        else if (!words.wildcards && (value.topic.includes('+') || value.topic.includes('#')))
          problem(`${key}.topic`, `must be a concrete topic (no wildcards): one station, one ${key} value`);
      }
      if (value.key !== undefined && (typeof value.key !== 'string' || value.key === '')) {
        problem(`${key}.key`, `must be a non-empty JSON key (the payload key holding ${words.keyHolds} in JSON payloads)`);
      }
    },
    topics: (value) => [(value as TopicStationSettings).topic],
  };
}
