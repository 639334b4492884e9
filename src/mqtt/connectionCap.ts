/**
 * The embedded broker's cap on open connections (`broker.maxClients`). It is
 * applied to TCP connections as they are accepted, before a CONNECT is read:
 * idle sockets that never log in cost memory and file descriptors too, and
 * aedes would keep each for its 30 s connect timeout.
 */
import type { Socket } from 'node:net';

export class ConnectionCap {
  readonly #max: number;
  readonly #onRefused: (socket: Socket) => void;
  #open = 0;
  refused = 0;

  constructor(max: number, onRefused: (socket: Socket) => void) {
    this.#max = max;
    this.#onRefused = onRefused;
  }

  get open(): number {
    return this.#open;
  }

  /** True when the socket may proceed; otherwise it has been destroyed and counted. */
  admit(socket: Socket): boolean {
    if (this.#open >= this.#max) {
      this.refused++;
      this.#onRefused(socket);
      socket.destroy();
      return false;
    }
    this.#open++;
    socket.once('close', () => this.#open--);
    return true;
  }
}
