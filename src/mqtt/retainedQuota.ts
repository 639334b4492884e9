/**
 * Bounds what other clients may keep retained on the embedded broker: how
 * many topics, how many payload bytes in total and per owner (an account,
 * or all anonymous clients together: a client id is the client's own choice). Every
 * accepted retained message lives in aedes' memory and in SQLite until it
 * is deleted, so without a bound one anonymous loopback client can fill
 * both (3,000 × 60 KB in 4 s was measured). Pure bookkeeping: the broker
 * asks before aedes stores a message and reports deletions.
 */

export interface RetainedLimits {
  /** Most retained topics held for other clients. */
  readonly maxMessages: number;
  /** Most payload bytes over all of them. */
  readonly maxBytes: number;
  /** Most payload bytes one owner (an account, or all anonymous clients together) may hold. */
  readonly maxBytesPerClient: number;
}

/** Owner of messages restored from the database, which does not record who published them. */
export const RESTORED_OWNER = '';

export interface Entry {
  readonly bytes: number;
  readonly owner: string;
}

export class RetainedQuota {
  readonly #limits: RetainedLimits;
  readonly #entries = new Map<string, Entry>();
  readonly #bytesByOwner = new Map<string, number>();
  #totalBytes = 0;

  constructor(limits: RetainedLimits) {
    this.#limits = limits;
  }

  get messages(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#totalBytes;
  }

  bytesOf(owner: string): number {
    return this.#bytesByOwner.get(owner) ?? 0;
  }

  /**
   * Accounts a retained publish of `bytes` on `topic` by `owner` when it fits and
   * returns undefined; otherwise changes nothing and says which limit it breaks.
   * An empty payload deletes the topic: always allowed, and it frees the space.
   * A replacement is judged by the difference it makes.
   */
  admit(topic: string, owner: string, bytes: number): string | undefined {
    if (bytes === 0) {
      this.release(topic);
      return undefined;
    }
    const problem = this.#problem(topic, owner, bytes);
    if (problem) return problem;
    this.release(topic);
    this.#add(topic, { bytes, owner });
    return undefined;
  }

  /**
   * Records a message the broker did store, without judging it: normally admit() counted it
   * already and this changes nothing; after an undo() that raced the store it counts it again.
   */
  settle(topic: string, owner: string, bytes: number): void {
    const entry = this.#entries.get(topic);
    if (entry?.bytes === bytes && entry.owner === owner) return;
    this.release(topic);
    if (bytes === 0) return;
    this.#add(topic, { bytes, owner });
  }

  /** What `topic` holds now, to hand back to undo() if the publish admitted after it is dropped. */
  entry(topic: string): Entry | undefined {
    return this.#entries.get(topic);
  }

  /**
   * Undoes an admit() whose message was never stored (aedes dropped it after authorizing it):
   * `admitted` is what admit() recorded, `previous` what the topic held before. Does nothing when
   * the topic changed since (another publish replaced it), so a stored message stays counted.
   */
  undo(topic: string, admitted: Entry | undefined, previous: Entry | undefined): void {
    if (this.#entries.get(topic) !== admitted) return;
    this.release(topic);
    if (previous) this.#add(topic, previous);
  }

  /** Counts `entry` for `topic` (which holds nothing now). */
  #add(topic: string, entry: Entry): void {
    this.#entries.set(topic, entry);
    this.#bytesByOwner.set(entry.owner, this.bytesOf(entry.owner) + entry.bytes);
    this.#totalBytes += entry.bytes;
  }

  /** Forgets `topic` (deleted or replaced); returns the bytes freed. */
  release(topic: string): number {
    const entry = this.#entries.get(topic);
    if (!entry) return 0;
    this.#entries.delete(topic);
    this.#totalBytes -= entry.bytes;
    const left = this.bytesOf(entry.owner) - entry.bytes;
    if (left > 0) this.#bytesByOwner.set(entry.owner, left);
    else this.#bytesByOwner.delete(entry.owner);
    return entry.bytes;
  }

  #problem(topic: string, owner: string, bytes: number): string | undefined {
    const { maxMessages, maxBytes, maxBytesPerClient } = this.#limits;
    const previous = this.#entries.get(topic);
    const messages = this.#entries.size + (previous ? 0 : 1);
    if (messages > maxMessages) return `retained message limit reached (broker.maxRetainedMessages = ${maxMessages})`;
    const total = this.#totalBytes - (previous?.bytes ?? 0) + bytes;
    if (total > maxBytes) return `retained bytes limit reached (broker.maxRetainedBytes = ${maxBytes})`;
    const own = this.bytesOf(owner) - (previous?.owner === owner ? previous.bytes : 0) + bytes;
    // Restored messages have no known owner; the other limits still bound them.
    if (owner !== RESTORED_OWNER && own > maxBytesPerClient)
      return `retained bytes limit per client reached (broker.maxRetainedBytesPerClient = ${maxBytesPerClient})`;
    return undefined;
  }
}
