/**
 * Whether an external broker's ACL lets the daemon's account publish and read what it must. MQTT
 * 3.1.1 has no denial for either: Mosquitto acknowledges a denied PUBLISH and drops it, and grants
 * a SUBSCRIBE whose messages it then never delivers. So the daemon checks by round trip:
 *
 * - its own state: after every connect it subscribes to `<base>/bridge/state` and publishes
 *   "online" there (src/mqtt/bridge.ts). A live (not retained) "online" coming back proves both
 *   publish and read. Nothing within ROUND_TRIP_MS: publishing is denied (when another message on
 *   the topic came, e.g. the retained "offline" of the last stop, reading works) or both are.
 * - a station's topic: once its own messages come back (the broker carries its traffic), a
 *   station subscription that has delivered nothing for STATION_SILENCE_MS is named: the broker may
 *   not let the account read it (or the station does not publish there; MQTT cannot tell which).
 *
 * The verdicts are read at the clock's time (tests drive it) and logged once each per connection.
 */
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';

export const ROUND_TRIP_MS = 30_000;
export const STATION_SILENCE_MS = 10 * 60_000;
const CHECK_EVERY_MS = 5000;

/** What the ACL check found; empty when the broker lets the account do what it must (or it is too early to tell). */
export interface AccessFindings {
  /** The daemon's own state did not come back: publishing (or publishing and reading) is denied. */
  readonly own?: { readonly topic: string; readonly canRead: boolean };
  /** Station topics that delivered nothing in the `minutes` since the connect while the daemon's own messages came back. */
  readonly silent: ReadonlyArray<{ readonly topic: string; readonly minutes: number }>;
}

/** One line per finding. `account`: how to name the account (`account "weewx"` in the log, the setting's name where anyone reads). */
export function describeFindings(findings: AccessFindings, account: string): string[] {
  const lines: string[] = [];
  const own = findings.own;
  if (own) {
    lines.push(
      own.canRead
        ? `the broker does not let ${account} publish ${own.topic} (its own state never came back; the retained one is old): check its ACL (the daemon's account needs readwrite on mqtt.baseTopic/#)`
        : `the broker does not let ${account} publish or read ${own.topic} (its own state did not come back within ${ROUND_TRIP_MS / 1000} s): check its ACL (the daemon's account needs readwrite on mqtt.baseTopic/#)`,
    );
  }
  for (const { topic, minutes } of findings.silent) {
    lines.push(
      `nothing arrived on ${topic} in the ${minutes} min since the daemon connected, although the broker carries the daemon's own messages: if the station publishes there, the broker does not let ${account} read ${topic}: check its ACL`,
    );
  }
  return lines;
}

export class AccessProbe {
  readonly #clock: Clock;
  readonly #ownTopic: string;
  readonly #stationTopics = new Map<string, boolean>();
  #connectedAtMs: number | undefined;
  #roundTrip = false;
  #ownSeen = false;
  #logged = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { clock: Clock; ownTopic: string }) {
    this.#clock = options.clock;
    this.#ownTopic = options.ownTopic;
  }

  /** The topic whose round trip is checked (absolute). */
  get ownTopic(): string {
    return this.#ownTopic;
  }

  /** A station subscription to watch for deliveries. */
  watch(filter: string): void {
    this.#stationTopics.set(filter, false);
  }

  /** Every (re)connect starts the check anew: what the broker allowed before may have changed. */
  connected(): void {
    this.#connectedAtMs = this.#clock.now();
    this.#roundTrip = false;
    this.#ownSeen = false;
    for (const filter of this.#stationTopics.keys()) this.#stationTopics.set(filter, false);
    this.#logged.clear();
  }

  /** A message on the own topic; only a live "online" is this connection's own publish come back. */
  ownMessage(payload: Buffer, retained: boolean): void {
    this.#ownSeen = true;
    if (!retained && payload.toString() === 'online') this.#roundTrip = true;
  }

  /** A station subscription delivered a message. */
  delivered(filter: string): void {
    if (this.#stationTopics.has(filter)) this.#stationTopics.set(filter, true);
  }

  findings(): AccessFindings {
    const since = this.#connectedAtMs;
    if (since === undefined) return { silent: [] };
    const elapsed = this.#clock.now() - since;
    if (!this.#roundTrip) {
      return elapsed >= ROUND_TRIP_MS ? { own: { topic: this.#ownTopic, canRead: this.#ownSeen }, silent: [] } : { silent: [] };
    }
    if (elapsed < STATION_SILENCE_MS) return { silent: [] };
    return {
      silent: [...this.#stationTopics]
        .filter(([, delivered]) => !delivered)
        .map(([topic]) => ({ topic, minutes: Math.floor(elapsed / 60_000) })),
    };
  }

  /** Logs each new finding once per connection (`account` as in describeFindings), checking every few seconds while `isConnected`. */
  start(log: Logger, account: string, isConnected: () => boolean): void {
    this.#timer = setInterval(() => {
      if (!isConnected()) return;
      const findings = this.findings();
      const fresh: AccessFindings = {
        ...(findings.own && !this.#logged.has('own') ? { own: findings.own } : {}),
        silent: findings.silent.filter(({ topic }) => !this.#logged.has(`silent:${topic}`)),
      };
      if (fresh.own) this.#logged.add('own');
      for (const { topic } of fresh.silent) this.#logged.add(`silent:${topic}`);
      for (const line of describeFindings(fresh, account)) log.warn(line);
    }, CHECK_EVERY_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
