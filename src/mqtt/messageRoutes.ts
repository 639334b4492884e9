/**
 * The bridge connection's message handlers per topic filter (both implementations,
 * src/mqtt/publisher.ts): a failing handler is logged (throttled, a bad message can repeat
 * many times a second) and never reaches the transport.
 */
import type { LogThrottle } from '../util/logThrottle.js';
import { runGuarded } from '../util/guarded.js';
import { topicMatches } from './topics.js';
import type { MessageHandler } from './publisher.js';

export class MessageRoutes {
  readonly #byFilter = new Map<string, MessageHandler[]>();
  readonly #throttle: LogThrottle;

  constructor(throttle: LogThrottle) {
    this.#throttle = throttle;
  }

  /** The subscribed filters, in the order they were first added. */
  get filters(): IterableIterator<string> {
    return this.#byFilter.keys();
  }

  /** Adds a handler; true when `filter` is new (to be subscribed). */
  add(filter: string, handler: MessageHandler): boolean {
    const handlers = this.#byFilter.get(filter);
    if (handlers) handlers.push(handler);
    else this.#byFilter.set(filter, [handler]);
    return handlers === undefined;
  }

  /** Drops every handler of `filter`; true when it had any (to be unsubscribed). */
  remove(filter: string): boolean {
    return this.#byFilter.delete(filter);
  }

  /** A message for whatever filters match its topic (a broker connection delivers once per connection). */
  dispatch(topic: string, payload: Buffer, retained: boolean): void {
    for (const filter of this.#byFilter.keys()) {
      if (topicMatches(filter, topic)) this.dispatchTo(filter, topic, payload, retained);
    }
  }

  /** A message delivered for one filter (one in-process subscription per filter). */
  dispatchTo(filter: string, topic: string, payload: Buffer, retained: boolean): void {
    for (const handler of this.#byFilter.get(filter) ?? []) {
      void runGuarded(
        () => handler(topic, payload, retained),
        (err) => this.#throttle.warn(`handler:${filter}`, { err, topic }, 'message handler failed'),
      );
    }
  }
}
