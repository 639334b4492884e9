/**
 * Topics in our namespaces that other clients write for the daemon to read: a station's command
 * topics under the base topic (`<base>/<station>/mowed`) and the upload relay topics
 * (`mowability-upload/<station>`). Only configured stations have them; the rest of both
 * namespaces stays the daemon's. Their contracts need no retained copy (a retained `mowed` is
 * not a new cut, a retained relay upload is an old reading), so the broker passes such a
 * publish on without the retain flag and the broker's memory and database never keep it.
 */
import { UPLOAD_RELAY_PREFIX } from '../ingest/uploadStations.js';
import { STATION_COMMANDS } from '../config/mqttValues.js';

export interface ClientTopicsOptions {
  baseTopic: string;
  /** Every configured station id. */
  stationIds: readonly string[];
  /** Stations read from their relay topic (upload stations without a topic of their own). */
  relayStationIds: readonly string[];
  /** `mqtt.uploadRelay`: whether the relay topics are read at all. */
  uploadRelay: boolean;
}

export type ClientTopicVerdict = { kind: 'other' } | { kind: 'allowed' } | { kind: 'refused'; reason: string };

const OTHER: ClientTopicVerdict = { kind: 'other' };
const ALLOWED: ClientTopicVerdict = { kind: 'allowed' };

export class ClientTopics {
  readonly #options: ClientTopicsOptions;
  readonly #stations: ReadonlySet<string>;
  readonly #relayStations: ReadonlySet<string>;

  constructor(options: ClientTopicsOptions) {
    this.#options = options;
    this.#stations = new Set(options.stationIds);
    this.#relayStations = new Set(options.relayStationIds);
  }

  /** Whether `topic` is a configured station's command topic (`<base>/<station>/<command>`). */
  isStationCommand(topic: string): boolean {
    const levels = topic.split('/');
    return (
      levels.length === 3 &&
      levels[0] === this.#options.baseTopic &&
      STATION_COMMANDS.includes(levels[2]!) &&
      this.#stations.has(levels[1]!)
    );
  }

  /** Whether `topic` lies in the relay namespace `mowability-upload/...`. */
  isRelayNamespace(topic: string): boolean {
    return topic === UPLOAD_RELAY_PREFIX || topic.startsWith(`${UPLOAD_RELAY_PREFIX}/`);
  }

  /**
   * Whether a client other than the daemon may publish `topic`: `allowed` for a command topic of
   * a configured station and for a relay topic the daemon reads (only with a `broker.users`
   * account: the relay skips the upload PASSKEY), `refused` for the rest of the relay namespace,
   * `other` for every other topic (ownership of the base topic is decided elsewhere).
   */
  verdict(topic: string, hasAccount: boolean): ClientTopicVerdict {
    if (this.isStationCommand(topic)) return ALLOWED;
    if (!this.isRelayNamespace(topic)) return OTHER;
    const station = topic.slice(UPLOAD_RELAY_PREFIX.length + 1);
    if (!this.#options.uploadRelay) return { kind: 'refused', reason: 'the upload relay topics are off (mqtt.uploadRelay=false)' };
    if (!this.#relayStations.has(station))
      return { kind: 'refused', reason: `no upload station reads ${UPLOAD_RELAY_PREFIX}/${station.slice(0, 100)}` };
    if (!hasAccount) return { kind: 'refused', reason: 'the upload relay needs a login with a broker.users account' };
    return ALLOWED;
  }

  /** Whether another client's retained publish to `topic` is passed on without the retain flag. */
  dropsRetain(topic: string): boolean {
    return this.isStationCommand(topic) || this.isRelayNamespace(topic);
  }
}
