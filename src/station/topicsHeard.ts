/**
 * Which topics arrived near a silent station's: when a station has received nothing for
 * QUIET_MS (since the daemon started or since its last reading) while the embedded broker saw
 * publishes under the same first topic level that its `topic` filter does not match, the state
 * says so (`topics_heard: {subscribed, seen}`), and the page and `mowability status` show it:
 * "nothing on rtl_433/+/events; seen: rtl_433/Bresser-6in1/12345". That is the usual first-hour
 * mistake: the station software publishes on another topic layout than the config expects.
 * The broker's publishes reach it through `heard()` (wired in src/daemon.ts); the filter match is
 * the MQTT side's, handed in, since the station side knows no MQTT.
 */
import type { StationConfig } from '../ingest/types.js';
import type { StationUnit, UnitContext } from './unit.js';

/** How long a station stays silent before the state names the topics seen near it. */
export const QUIET_MS = 5 * 60_000;
/** Topics kept per station: the most recent distinct ones. */
const KEPT = 5;
/** A topic longer than this is not kept (nor shown). */
const MAX_TOPIC_CHARS = 200;

export interface TopicsHeard {
  /** The station's topic filter. */
  subscribed: string;
  /** Topics the broker saw under the same first level, the most recent last. */
  seen: string[];
}

export interface TopicsHeardOptions {
  stations: readonly StationConfig[];
  /** MQTT topic filter matching (src/mqtt/topics.ts). */
  matches: (filter: string, topic: string) => boolean;
  now: () => number;
}

function firstLevel(topic: string): string {
  const slash = topic.indexOf('/');
  return slash < 0 ? topic : topic.slice(0, slash);
}

export class TopicsHeardNearby implements StationUnit {
  readonly name = 'topics-heard';
  readonly #options: TopicsHeardOptions;
  /** The MQTT stations whose filter starts with a fixed level, by that level. */
  readonly #byFirstLevel = new Map<string, StationConfig[]>();
  readonly #seen = new Map<string, string[]>();
  #context: UnitContext | undefined;
  #startedAtMs = 0;

  constructor(options: TopicsHeardOptions) {
    this.#options = options;
    for (const station of options.stations) {
      const level = station.topic ? firstLevel(station.topic) : '';
      if (level === '' || level === '+' || level === '#') continue;
      this.#byFirstLevel.set(level, [...(this.#byFirstLevel.get(level) ?? []), station]);
    }
  }

  async start(context: UnitContext): Promise<void> {
    this.#context = context;
    this.#startedAtMs = this.#options.now();
  }

  /** A reading arrived: what was seen before it no longer explains a silence. */
  onReading(stationId: string): void {
    this.#seen.delete(stationId);
  }

  /** A publish the broker saw (any client's). */
  heard(topic: string): void {
    const stations = this.#byFirstLevel.get(firstLevel(topic));
    if (!stations || topic.length > MAX_TOPIC_CHARS) return;
    for (const station of stations) {
      if (this.#options.matches(station.topic, topic)) continue;
      const seen = (this.#seen.get(station.id) ?? []).filter((earlier) => earlier !== topic);
      seen.push(topic);
      this.#seen.set(station.id, seen.slice(-KEPT));
    }
  }

  stateFragment(stationId: string, nowMs: number): { topics_heard: TopicsHeard } | undefined {
    const seen = this.#seen.get(stationId);
    if (!seen || !this.#context) return undefined;
    const silentSince = this.#context.history.lastReadingAtMs(stationId) ?? this.#startedAtMs;
    if (nowMs - silentSince < QUIET_MS) return undefined;
    const station = this.#options.stations.find((entry) => entry.id === stationId)!;
    return { topics_heard: { subscribed: station.topic, seen: [...seen] } };
  }
}

declare module './statePayload.js' {
  interface StationStateFields {
    /** A silent station's subscribed filter and the nearby topics the embedded broker saw instead. */
    topics_heard: TopicsHeard;
  }
}
