/**
 * Who may hold the HTTP server's connections (http.maxConnections): each client's share
 * (http.maxConnectionsPerAddress; a client is an IPv4 address or an IPv6 prefix of
 * http.ipv6SharePrefix bits), a reserve for clients that hold none (http.connectionReserve), and
 * which connection gives way under pressure: the oldest idle one (no request in flight: a
 * keep-alive connection between requests, or one that has sent nothing yet). Without that, idle
 * connections from a few addresses (nine addresses × 32 held the 256 slots) locked out everyone
 * else until their timeouts, and an address at its share could not open a connection even when
 * all of its own sat idle.
 *
 * A new connection from a client at its share closes that client's oldest idle connection, or is
 * closed. Once only the reserve is free, a client that holds connections may only swap its own
 * idle ones for new ones; a client holding none takes a free slot, and at the cap the oldest idle
 * connection of all is closed for it. Busy connections are never closed here. Trusted proxies
 * (http.trustProxy) carry many clients: no share, and they may use the reserve.
 */
import type { Socket } from 'node:net';

export interface ConnectionPoolOptions {
  /** Most open connections; 0: no cap (and no reserve). */
  maxConnections: number;
  /** Most connections of one client; 0: no share. */
  perAddress: number;
  /** Slots kept for clients holding none (below maxConnections). */
  reserve: number;
  /** The client a peer address belongs to (an IPv4 address, an IPv6 prefix). */
  clientOf: (peer: string) => string;
  /** Peers without a share (trusted reverse proxies). */
  exempt: (peer: string) => boolean;
  /** Told of each new connection closed unserved: at its client's share, or at the cap with nothing idle to close. */
  onRefused?: (client: string, why: 'share' | 'cap') => void;
  /** Told of each idle connection closed to make room. */
  onEvicted?: (client: string, why: 'share' | 'cap') => void;
}

interface Held {
  client: string;
  group: Group;
}

interface Group {
  count: number;
  /** This client's idle connections, oldest first (a connection is re-inserted when it turns idle). */
  idle: Set<Socket>;
}

export class ConnectionPool {
  readonly #options: ConnectionPoolOptions;
  readonly #held = new Map<Socket, Held>();
  readonly #groups = new Map<string, Group>();
  /** Every idle connection, oldest first. */
  readonly #idle = new Set<Socket>();

  constructor(options: ConnectionPoolOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#held.size;
  }

  /** A new connection (the server's 'connection' event, with its canonical peer address): held, or closed at once. */
  admit(socket: Socket, peer: string): void {
    const { maxConnections, perAddress, reserve } = this.#options;
    const exempt = this.#options.exempt(peer);
    const client = this.#options.clientOf(peer);
    const group = this.#groups.get(client);
    const holds = group?.count ?? 0;
    if (!exempt && perAddress > 0 && holds >= perAddress) {
      // A swap: the client's count and the pool's size stay as they were.
      if (this.#evictOldest(group!.idle, 'share')) return this.#hold(socket, client);
      return this.#refuse(socket, client, 'share');
    }
    if (maxConnections > 0) {
      const free = maxConnections - this.#held.size;
      const newcomer = holds === 0 || exempt;
      // Under pressure a client that holds connections only swaps its own idle ones: the reserve stays for newcomers.
      if (newcomer ? free <= 0 : free <= reserve) {
        if (!this.#evictOldest(newcomer ? this.#idle : group!.idle, 'cap')) return this.#refuse(socket, client, 'cap');
      }
    }
    this.#hold(socket, client);
  }

  /** The connection carries a request now (the first unanswered one). */
  busy(socket: Socket): void {
    const held = this.#held.get(socket);
    if (!held) return;
    this.#idle.delete(socket);
    held.group.idle.delete(socket);
  }

  /** The connection's last request is answered: it is the newest idle connection. */
  idle(socket: Socket): void {
    const held = this.#held.get(socket);
    if (!held || socket.destroyed) return;
    this.#idle.delete(socket);
    this.#idle.add(socket);
    held.group.idle.delete(socket);
    held.group.idle.add(socket);
  }

  #hold(socket: Socket, client: string): void {
    let group = this.#groups.get(client);
    if (!group) {
      group = { count: 0, idle: new Set() };
      this.#groups.set(client, group);
    }
    group.count++;
    this.#held.set(socket, { client, group });
    this.#idle.add(socket);
    group.idle.add(socket);
    socket.once('close', () => this.#release(socket));
  }

  #release(socket: Socket): void {
    const held = this.#held.get(socket);
    if (!held) return;
    this.#held.delete(socket);
    this.#idle.delete(socket);
    held.group.idle.delete(socket);
    if (--held.group.count === 0) this.#groups.delete(held.client);
  }

  /** Closes the oldest connection of `idle` (released at once, not when its close event comes); false when there is none. */
  #evictOldest(idle: Set<Socket> | undefined, why: 'share' | 'cap'): boolean {
    const oldest = idle?.values().next().value;
    if (oldest === undefined) return false;
    const client = this.#held.get(oldest)?.client ?? '';
    this.#release(oldest);
    oldest.destroy();
    this.#options.onEvicted?.(client, why);
    return true;
  }

  #refuse(socket: Socket, client: string, why: 'share' | 'cap'): void {
    socket.destroy();
    this.#options.onRefused?.(client, why);
  }
}
