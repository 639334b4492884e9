/**
 * Who may do what on the embedded broker. Ownership of our topics (the base
 * topic and our Home Assistant discovery configs) follows the authenticated
 * identity of the daemon's own connection, never its client id: a client id
 * is chosen by the client and can be guessed or read from a log. The daemon
 * logs in as INTERNAL_USERNAME with a password made fresh for every process,
 * also when the broker is otherwise anonymous, and only a connection that
 * did so is marked internal.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Client } from 'aedes';
import { INTERNAL_USERNAME, type BrokerUser } from '../config/mqttValues.js';
import { peerAddress } from './connectionCap.js';
import { isLoopbackHost } from '../util/loopback.js';
import { topicMatches, topicTextProblem } from './topics.js';
import type { ClientTopics } from './clientTopics.js';
import { claimsOurDiscovery, type DiscoveryIdentity } from '../homeassistant/discoveryClaims.js';

export { claimsOurDiscovery, type DiscoveryIdentity };

export interface BrokerAccessOptions {
  /** Accounts of `broker.users`; empty: anonymous logins (loopback only, enforced by the config rules). */
  users: readonly BrokerUser[];
  /** Topic filters only the daemon's own connection may publish to; their first level is literal (base topic, discovery prefix). */
  ownedTopics: readonly string[];
  /** `broker.sysTopics`: loopback clients logged in with an account may subscribe to `$SYS/...`. */
  sysTopicsForAccounts: boolean;
  /** Our discovery identity: configs of other clients under `prefix/` may not claim it, on any topic. */
  discovery?: DiscoveryIdentity;
  /** The topics in our namespaces other clients write (station commands, upload relay); none when absent. */
  clientTopics?: ClientTopics;
}

/** The one retained-quota owner of every anonymous client (accounts are `user:<name>`, so no clash). */
export const ANONYMOUS_OWNER = 'anonymous';

/** CONNACK return codes of MQTT 3.1.1 §3.2.2.3. */
export const IDENTIFIER_REJECTED = 2;
export const BAD_USERNAME_OR_PASSWORD = 4;

export type ConnectVerdict =
  { ok: true } | { ok: false; returnCode: typeof IDENTIFIER_REJECTED | typeof BAD_USERNAME_OR_PASSWORD; reason: string };

/** `close`: drop the connection (MQTT 3.1.1 §1.5.3 for ill-formed text); otherwise a failure code in SUBACK. */
export interface SubscribeRefusal {
  reason: string;
  close: boolean;
}

/** The client's peer address (IPv4-mapped IPv6 as IPv4), '' when aedes' connection has none. */
export function remoteAddress(client: Client): string {
  return peerAddress(client.conn && 'remoteAddress' in client.conn ? client.conn.remoteAddress : undefined);
}

export class BrokerAccess {
  readonly #options: BrokerAccessOptions;
  /** The daemon's credentials, valid only in this process. */
  readonly internalUser: BrokerUser = { username: INTERNAL_USERNAME, password: randomBytes(24).toString('base64url') };
  /**
   * Random per process: the embedded broker's sessions live in our own process (the daemon uses
   * clean sessions there), so a stable id would buy nothing and only tell others which id to try.
   */
  readonly internalClientId = `mowability-${randomBytes(8).toString('hex')}`;
  readonly #internal = new WeakSet<Client>();
  /** Clients logged in with a `broker.users` account, and the account's name. */
  readonly #accounts = new WeakMap<Client, string>();
  /** First levels of the owned filters: most traffic (station topics) is ruled out by one lookup. */
  readonly #ownedFirstLevels: ReadonlySet<string>;

  constructor(options: BrokerAccessOptions) {
    this.#options = options;
    this.#ownedFirstLevels = new Set(options.ownedTopics.map((filter) => filter.split('/', 1)[0]!));
  }

  /** Decides a CONNECT. Runs before aedes registers the client, so a refused one never takes over a session. */
  authenticate(client: Client, username: string | undefined, password: Buffer | undefined): ConnectVerdict {
    if (username === INTERNAL_USERNAME) {
      if (!checkCredentials([this.internalUser], username, password))
        return { ok: false, returnCode: BAD_USERNAME_OR_PASSWORD, reason: 'wrong internal password' };
      this.#internal.add(client);
      return { ok: true };
    }
    if (client.id === this.internalClientId) return { ok: false, returnCode: IDENTIFIER_REJECTED, reason: "the daemon's own client id" };
    if (this.#options.users.length === 0) return { ok: true };
    if (!checkCredentials(this.#options.users, username, password))
      return { ok: false, returnCode: BAD_USERNAME_OR_PASSWORD, reason: 'bad username or password' };
    this.#accounts.set(client, username!);
    return { ok: true };
  }

  /** The daemon's own authenticated connection. `null` (aedes itself, e.g. restoring retained messages) is not. */
  isInternal(client: Client | null | undefined): boolean {
    return client !== null && client !== undefined && this.#internal.has(client);
  }

  /**
   * Whose share of the retained quota a client's publishes count against: its authenticated account,
   * never its client id (chosen by the client, so a fresh id per connection would void the cap).
   * All anonymous clients share one key.
   */
  quotaOwner(client: Client): string {
    const account = this.#accounts.get(client);
    return account === undefined ? ANONYMOUS_OWNER : `user:${account}`;
  }

  isOwnedTopic(topic: string): boolean {
    if (!this.#ownedFirstLevels.has(topic.split('/', 1)[0]!)) return false;
    // A configured station's command topic (e.g. `<base>/garden/mowed`) is for other clients to publish to.
    if (this.#options.clientTopics?.isStationCommand(topic)) return false;
    return this.#options.ownedTopics.some((filter) => topicMatches(filter, topic));
  }

  /** Whether another client's retained publish to `topic` loses its retain flag (src/mqtt/clientTopics.ts). */
  dropsRetain(client: Client | null, topic: string): boolean {
    return client !== null && !this.isInternal(client) && this.#options.clientTopics?.dropsRetain(topic) === true;
  }

  /** Whether `topic` lies under the discovery prefix, where configs claiming our entities are refused. */
  isDiscoveryTopic(topic: string): boolean {
    const prefix = this.#options.discovery?.prefix;
    return prefix !== undefined && topic.startsWith(`${prefix}/`);
  }

  /**
   * Why this client may not publish `payload` to `topic` (text, ownership, or a discovery config
   * claiming our entities), else undefined. `payload` must already be within the payload limit.
   */
  publishProblem(client: Client | null, topic: string, payload: Buffer | string = ''): string | undefined {
    const text = topicTextProblem(topic);
    if (text) return text;
    if (topic.startsWith('$')) return 'topics starting with $ are reserved';
    if (!client || this.isInternal(client)) return undefined;
    const written = this.#options.clientTopics?.verdict(topic, this.#accounts.get(client));
    if (written?.kind === 'refused') return written.reason;
    if (written?.kind === 'allowed') return undefined;
    if (this.isOwnedTopic(topic)) return `only mowability publishes to ${topic.split('/').slice(0, 3).join('/')}/...`;
    return this.#discoveryProblem(topic, payload);
  }

  /**
   * Why a stored retained message must not be restored: bad topic text, one of our topics (we
   * re-publish those), or a discovery config claiming our entities. `payload` is needed only
   * for topics under the discovery prefix (isDiscoveryTopic).
   */
  restoreProblem(topic: string, payload: Buffer | string = ''): string | undefined {
    return topicTextProblem(topic) ?? (this.isOwnedTopic(topic) ? 'one of our own topics' : this.#discoveryProblem(topic, payload));
  }

  #discoveryProblem(topic: string, payload: Buffer | string): string | undefined {
    const identity = this.#options.discovery;
    if (!identity || !this.isDiscoveryTopic(topic) || !claimsOurDiscovery(payload, identity)) return undefined;
    return "a discovery config claiming mowability's unique ids or device";
  }

  /** Why this client may not subscribe to `filter`, else undefined. */
  subscribeProblem(client: Client, filter: string): SubscribeRefusal | undefined {
    const text = topicTextProblem(filter);
    if (text) return { reason: text, close: true };
    if (filter.startsWith('$SYS') && !this.#maySeeSys(client)) {
      return { reason: '$SYS is readable only with broker.sysTopics=true, by a loopback client with a broker.users account', close: false };
    }
    return undefined;
  }

  // $SYS names every client id and address: only the machine's owner, with an account, gets to read it.
  #maySeeSys(client: Client): boolean {
    return this.#options.sysTopicsForAccounts && this.#accounts.has(client) && isLoopbackHost(remoteAddress(client));
  }
}

/** The embedded broker's accounts (config `broker.users`): constant-time check of a username/password pair. */
function digest(text: string | Buffer): Buffer {
  return createHash('sha256').update(text).digest();
}

export function checkCredentials(users: readonly BrokerUser[], username: string | undefined, password: Buffer | undefined): boolean {
  if (username === undefined || password === undefined) return false;
  let ok = false;
  for (const user of users) {
    const nameOk = timingSafeEqual(digest(user.username), digest(username));
    const passwordOk = timingSafeEqual(digest(user.password), digest(password));
    if (nameOk && passwordOk) ok = true;
  }
  return ok;
}
