/**
 * Follows the MQTT fixed headers in a connection's byte stream and reports a
 * packet whose announced length exceeds the limit, before its body arrives:
 * aedes has no packet size limit of its own and would buffer up to 256 MB.
 */
export class PacketLengthWatch {
  readonly #maxPacketBytes: number;
  #state: 'type' | 'length' | 'body' = 'type';
  #length = 0;
  #multiplier = 1;
  #lengthBytes = 0;
  #remaining = 0;

  constructor(maxPacketBytes: number) {
    this.#maxPacketBytes = maxPacketBytes;
  }

  /** Feeds the next chunk; returns the offending length (or -1 for a malformed one), else undefined. */
  feed(chunk: Uint8Array): number | undefined {
    let index = 0;
    while (index < chunk.length) {
      if (this.#state === 'type') {
        index++;
        this.#state = 'length';
        this.#length = 0;
        this.#multiplier = 1;
        this.#lengthBytes = 0;
      } else if (this.#state === 'length') {
        const byte = chunk[index++]!;
        this.#length += (byte & 0x7f) * this.#multiplier;
        this.#multiplier *= 128;
        this.#lengthBytes++;
        if (byte & 0x80) {
          if (this.#lengthBytes >= 4) return -1;
          continue;
        }
        if (this.#length > this.#maxPacketBytes) return this.#length;
        this.#remaining = this.#length;
        this.#state = this.#remaining === 0 ? 'type' : 'body';
      } else {
        const take = Math.min(this.#remaining, chunk.length - index);
        index += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = 'type';
      }
    }
    return undefined;
  }
}
