/**
 * The embedded broker's cap on open connections (`broker.maxClients`). It is
 * applied to TCP connections as they are accepted, before a CONNECT is read:
 * idle sockets that never log in cost memory and file descriptors too, and
 * aedes would keep each for its 30 s connect timeout.
 *
 * The daemon's own traffic takes no slot (it uses aedes in process,
 * src/mqtt/inProcessConnection.ts). The last slot is kept for loopback
 * connections: with `broker.host` 0.0.0.0 a host on the LAN holding every
 * slot (no login needed to hold a socket) would otherwise shut out a local
 * rtl_433 or Home Assistant when it reconnects.
 */
import type { Socket } from 'node:net';
import { isLoopbackHost } from '../util/loopback.js';

/** Slots only loopback connections may take. */
export const LOOPBACK_RESERVED_SLOTS = 1;

/** A peer's address as text, IPv4-mapped IPv6 (::ffff:a.b.c.d) as plain IPv4. */
export function peerAddress(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:/, '');
}

export function isLoopbackSocket(socket: Pick<Socket, 'remoteAddress'>): boolean {
  return isLoopbackHost(peerAddress(socket.remoteAddress));
}

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
    const limit = isLoopbackSocket(socket) ? this.#max : Math.max(0, this.#max - LOOPBACK_RESERVED_SLOTS);
    if (this.#open >= limit) {
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
