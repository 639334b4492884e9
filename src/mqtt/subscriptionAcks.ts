/**
 * Which of the connection's subscriptions the broker has acknowledged (MQTT's SUBACK; on the embedded
 * broker, its own subscribe call's completion). A reading published before the daemon's subscription
 * is in place is lost (QoS 0) or goes to nobody, so the bridge's start waits, bounded, until none is
 * pending (src/mqtt/bridge.ts), and /health says so while one is.
 */
export class SubscriptionAcks {
  readonly #pending = new Set<string>();
  #wake: Array<() => void> = [];

  /** Asked for; pending until acknowledged. */
  requested(filter: string): void {
    this.#pending.add(filter);
  }

  acknowledged(filter: string): void {
    this.#pending.delete(filter);
    if (this.#pending.size === 0) this.#settle();
  }

  /** Dropped (unsubscribed): nothing to wait for any more. */
  dropped(filter: string): void {
    this.acknowledged(filter);
  }

  /** A connection attempt failed: a waiter stops waiting (the connection's problem says why), the filters stay pending. */
  attemptFailed(): void {
    this.#settle();
  }

  /** The filters not acknowledged yet, in the order asked. */
  get pending(): readonly string[] {
    return [...this.#pending];
  }

  /** Resolves once none is pending, or when a connection attempt fails first. */
  settled(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#wake.push(resolve));
  }

  #settle(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }
}
