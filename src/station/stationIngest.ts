/**
 * One station message → parsed, time-checked reading → history. Counts every
 * outcome and logs problems at most once a minute per station and kind.
 */
import { gaugeRainReplaced, withoutGaugeRain } from '../ingest/modelledConfig.js';
import { parseStationMessage } from '../ingest/parse.js';
import { resolveReadingTime } from '../ingest/time.js';
import { MODELLED_FORMAT, type Reading, type StationConfig } from '../ingest/types.js';
import type { Clock } from '../util/clock.js';
import type { ClockSyncStatus } from '../util/clockSync.js';
import type { HistoryService } from './historyService.js';
import type { TimedReading } from '../history/stationHistory.js';
import type { LogThrottle } from '../util/logThrottle.js';
import { mergedCopy } from '../util/mergedCopy.js';

export interface IngestCounters {
  /** Station messages handled (one per matching station). */
  received: number;
  accepted: number;
  rejected: number;
  /** Valid messages not meant for the station (neighbours' sensors, unmapped topics). */
  ignored: number;
  duplicates: number;
  /** Single values dropped as implausible while the rest of the reading was used. */
  droppedValues: number;
}

function emptyCounters(): IngestCounters {
  return { received: 0, accepted: 0, rejected: 0, ignored: 0, duplicates: 0, droppedValues: 0 };
}

/** What became of one reading. */
export type AcceptOutcome = 'accepted' | 'duplicate' | 'rejected';

export class StationIngest {
  readonly counters: IngestCounters = emptyCounters();
  /** The same counts per station id, for /metrics. */
  readonly #perStation = new Map<string, IngestCounters>();
  readonly #history: HistoryService;
  readonly #clock: Clock;
  readonly #throttle: LogThrottle;
  readonly #timeZone: string;
  readonly #maxPayloadBytes: number;
  readonly #clockSync: () => ClockSyncStatus;

  readonly #onAccepted: (stationId: string, reading: TimedReading) => void;

  /** Each station's counts (stations that had no message yet are absent). */
  get perStation(): ReadonlyMap<string, Readonly<IngestCounters>> {
    return this.#perStation;
  }

  #count(stationId: string, field: keyof IngestCounters, amount = 1): void {
    this.counters[field] += amount;
    let station = this.#perStation.get(stationId);
    if (!station) this.#perStation.set(stationId, (station = emptyCounters()));
    station[field] += amount;
  }

  constructor(options: {
    history: HistoryService;
    clock: Clock;
    throttle: LogThrottle;
    timeZone: string;
    maxPayloadBytes: number;
    /** Told of every reading the history accepted (station units' onReading). */
    onAccepted?: (stationId: string, reading: TimedReading) => void;
    /** NTP synchronisation of our clock: while it is known missing, payload times ahead of it do not refuse a reading. */
    clockSync?: () => ClockSyncStatus;
  }) {
    this.#clockSync = options.clockSync ?? (() => 'unknown');
    this.#onAccepted = options.onAccepted ?? (() => undefined);
    this.#history = options.history;
    this.#clock = options.clock;
    this.#throttle = options.throttle;
    this.#timeZone = options.timeZone;
    this.#maxPayloadBytes = options.maxPayloadBytes;
  }

  /**
   * Returns true when the reading changed the history (a recompute is due). Never throws. `decoded`
   * carries the payload's text between the stations of one shared topic (rtl_433's events topic
   * reaches every station on it): decoded once, by the first station that needs it.
   */
  handle(station: StationConfig, topic: string, payload: Buffer, retained: boolean, decoded: { text?: string } = {}): boolean {
    this.#count(station.id, 'received');
    try {
      return this.#handle(station, topic, payload, retained, decoded);
    } catch (err) {
      // A bug must cost one message, not the loop; count it so every message is accounted for.
      this.#count(station.id, 'rejected');
      this.#throttle.warn(`bug:${station.id}`, { err, station: station.id, topic }, 'station message could not be handled');
      return false;
    }
  }

  #handle(station: StationConfig, topic: string, payload: Buffer, retained: boolean, decoded: { text?: string }): boolean {
    if (payload.length > this.#maxPayloadBytes) {
      this.#count(station.id, 'rejected');
      this.#throttle.warn(
        `size:${station.id}`,
        { station: station.id, topic, bytes: payload.length },
        'station payload too large; dropped',
      );
      return false;
    }
    const outcome = parseStationMessage(station, topic, (decoded.text ??= payload.toString('utf8')), { timeZone: this.#timeZone });
    if (outcome.kind === 'ignored') {
      this.#count(station.id, 'ignored');
      return false;
    }
    if (outcome.kind === 'rejected') {
      this.#count(station.id, 'rejected');
      this.#throttle.warn(`rejected:${station.id}`, { station: station.id, topic, reason: outcome.reason }, 'station payload rejected');
      return false;
    }
    const reading = outcome.reading;
    if (retained && reading.payloadTimeMs === undefined) {
      // A retained message replayed on subscribe carries no time of its own: its age is unknown.
      this.#count(station.id, 'ignored');
      return false;
    }
    return this.#accept(station, reading, topic) === 'accepted';
  }

  /**
   * A reading parsed elsewhere (a direct HTTP upload) enters the same way as an MQTT message:
   * counted as received, time-checked, written to the history. `origin` names it in logs.
   */
  accept(station: StationConfig, reading: Reading, origin: string): AcceptOutcome {
    this.#count(station.id, 'received');
    try {
      return this.#accept(station, reading, origin);
    } catch (err) {
      this.#count(station.id, 'rejected');
      this.#throttle.warn(`bug:${station.id}`, { err, station: station.id, origin }, 'station reading could not be handled');
      return 'rejected';
    }
  }

  #accept(station: StationConfig, received: Reading, origin: string): AcceptOutcome {
    // A gauge known broken (gapFill.rain "model"): the station's rain is left out, the model's comes through gap filling.
    const reading = gaugeRainReplaced(station) && origin !== MODELLED_FORMAT ? withoutGaugeRain(received) : received;
    if (reading.dropped.length > 0) {
      this.#count(station.id, 'droppedValues', reading.dropped.length);
      this.#throttle.warn(`dropped:${station.id}`, { station: station.id, origin, dropped: reading.dropped }, 'implausible values dropped');
    }
    const nowMs = this.#clock.now();
    const time = resolveReadingTime(reading.payloadTimeMs, nowMs, this.#clockSync() === 'unsynchronized');
    if (!time.ok) {
      this.#count(station.id, 'rejected');
      this.#throttle.warn(`time:${station.id}`, { station: station.id, origin, reason: time.reason }, 'station reading rejected');
      return 'rejected';
    }
    // Up to 2 minutes of clock skew is tolerated, but a reading never lies in our future.
    const timed = mergedCopy<TimedReading>(reading, { timeMs: Math.min(time.timeMs, nowMs) });
    const result = this.#history.ingest(station.id, timed, nowMs);
    if (result === 'duplicate') {
      this.#count(station.id, 'duplicates');
      return 'duplicate';
    }
    this.#count(station.id, 'accepted');
    const booked = this.#history.lastIngestRain(station.id);
    const accepted = mergedCopy<TimedReading>(
      timed,
      { bookedRainMm: booked.bookedMm },
      booked.unknown === undefined ? undefined : { rainUnknown: booked.unknown },
    );
    if (booked.aheadOfClock) accepted.historyAheadOfClock = true;
    this.#onAccepted(station.id, accepted);
    return 'accepted';
  }
}
