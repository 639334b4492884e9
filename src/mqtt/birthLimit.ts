/**
 * Home Assistant's birth message (`online` on `homeassistant.statusTopic`) per connection: Home
 * Assistant sends one each time it connects, so a connection sending more than a few within
 * `homeassistant.birthResendSeconds` is flooding and is refused (its connection closed). The
 * discovery publisher coalesces what still arrives (src/mqtt/discoveryPublisher.ts).
 */

/** Births one connection may send per window. */
export const MAX_BIRTHS_PER_CONNECTION = 3;

export interface BirthLimitOptions {
  topic: string;
  windowMs: number;
}

export class BirthLimit {
  readonly #options: BirthLimitOptions;
  readonly #now: () => number;
  readonly #seen = new WeakMap<object, { count: number; sinceMs: number }>();

  constructor(options: BirthLimitOptions, now: () => number) {
    this.#options = options;
    this.#now = now;
  }

  /** Why this connection's publish to `topic` is refused, else undefined (counts it). */
  problem(connection: object, topic: string): string | undefined {
    if (topic !== this.#options.topic) return undefined;
    const nowMs = this.#now();
    let entry = this.#seen.get(connection);
    if (!entry || nowMs - entry.sinceMs >= this.#options.windowMs) {
      entry = { count: 0, sinceMs: nowMs };
      this.#seen.set(connection, entry);
    }
    entry.count++;
    if (entry.count <= MAX_BIRTHS_PER_CONNECTION) return undefined;
    return `more than ${MAX_BIRTHS_PER_CONNECTION} messages to ${topic} from one connection within homeassistant.birthResendSeconds`;
  }
}
