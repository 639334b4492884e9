/**
 * Topics in our namespaces that other clients write for the daemon to read: a station's command
 * topics under the base topic (`<base>/<station>/mowed`, open to every client), Home Assistant's
 * command topics (`<base>/<station>/mower/...` and `.../control/...`, open only to the account
 * `homeassistant.commandAccount` names) and the upload relay topics (`mowability-upload/<station>`).
 * Only configured stations have them; the rest of these namespaces stays the daemon's. Their
 * contracts need no retained copy (a retained `mowed` is not a new cut, a retained press is no
 * press, a retained relay upload is an old reading), so the broker passes such a publish on
 * without the retain flag and the broker's memory and database never keep it.
 */
import { UPLOAD_RELAY_PREFIX } from '../ingest/uploadStations.js';
import { HOME_ASSISTANT_COMMANDS, STATION_COMMANDS } from '../config/mqttValues.js';

export interface ClientTopicsOptions {
  baseTopic: string;
  /** Every configured station id. */
  stationIds: readonly string[];
  /** Stations read from their relay topic (upload stations without a topic of their own). */
  relayStationIds: readonly string[];
  /** `mqtt.uploadRelay`: whether the relay topics are read at all. */
  uploadRelay: boolean;
  /** `homeassistant.commandAccount`: the one `broker.users` account that may publish Home Assistant's command topics; '' for none. */
  commandAccount?: string;
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

  /** Whether `topic` is one of Home Assistant's command topics of a configured station (`<base>/<station>/mower/mow_now`, ...). */
  isHomeAssistantCommand(topic: string): boolean {
    const base = this.#options.baseTopic;
    if (!topic.startsWith(`${base}/`)) return false;
    const rest = topic.slice(base.length + 1);
    const slash = rest.indexOf('/');
    return slash > 0 && this.#stations.has(rest.slice(0, slash)) && HOME_ASSISTANT_COMMANDS.includes(rest.slice(slash + 1));
  }

  /** Whether `topic` lies in the relay namespace `mowability-upload/...`. */
  isRelayNamespace(topic: string): boolean {
    return topic === UPLOAD_RELAY_PREFIX || topic.startsWith(`${UPLOAD_RELAY_PREFIX}/`);
  }

  /**
   * Whether a client other than the daemon, logged in with `account` (undefined: anonymous), may
   * publish `topic`: `allowed` for a command topic of a configured station, for Home Assistant's
   * command topics only with the account `homeassistant.commandAccount` names, and for a relay
   * topic the daemon reads (only with a `broker.users` account: the relay skips the upload
   * PASSKEY); `refused` for Home Assistant's command topics from anyone else and for the rest of
   * the relay namespace; `other` for every other topic (ownership of the base topic is decided elsewhere).
   */
  verdict(topic: string, account: string | undefined): ClientTopicVerdict {
    if (this.isStationCommand(topic)) return ALLOWED;
    if (this.isHomeAssistantCommand(topic)) return this.#commandVerdict(account);
    if (!this.isRelayNamespace(topic)) return OTHER;
    const station = topic.slice(UPLOAD_RELAY_PREFIX.length + 1);
    if (!this.#options.uploadRelay) return { kind: 'refused', reason: 'the upload relay topics are off (mqtt.uploadRelay=false)' };
    if (!this.#relayStations.has(station))
      return { kind: 'refused', reason: `no upload station reads ${UPLOAD_RELAY_PREFIX}/${station.slice(0, 100)}` };
    if (account === undefined) return { kind: 'refused', reason: 'the upload relay needs a login with a broker.users account' };
    return ALLOWED;
  }

  #commandVerdict(account: string | undefined): ClientTopicVerdict {
    const allowed = this.#options.commandAccount ?? '';
    if (allowed !== '' && account === allowed) return ALLOWED;
    return {
      kind: 'refused',
      reason:
        allowed === ''
          ? "only mowability publishes to the command topics: name Home Assistant's broker.users account in homeassistant.commandAccount"
          : `only the account homeassistant.commandAccount names may publish to the command topics`,
    };
  }

  /** Whether another client's retained publish to `topic` is passed on without the retain flag. */
  dropsRetain(topic: string): boolean {
    return this.isStationCommand(topic) || this.isHomeAssistantCommand(topic) || this.isRelayNamespace(topic);
  }
}
