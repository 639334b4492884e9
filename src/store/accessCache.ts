/**
 * In-memory snapshot of keys, blocked addresses and the maintenance flag for
 * the request path. Changes made through this process's store apply at once;
 * changes by another process (the admin CLI) are noticed by polling SQLite's
 * PRAGMA data_version, so they reach the daemon within about one poll interval
 * (config key db.changePollIntervalMs, default DEFAULT_POLL_INTERVAL_MS); on the daemon's heartbeat a
 * poll runs only once the kernel told of a change to the database's files (or as a safety net). On
 * PostgreSQL the store's onChange also fires on NOTIFY (another instance, the
 * CLI), and the polled version moves on reconnects and every store.rereadSeconds.
 */
import type { Logger } from 'pino';
import { CLOCK_CHECK_INTERVAL_MS, type TickSource } from '../util/clockWatch.js';
import { LogThrottle } from '../util/logThrottle.js';
import { guarded, runGuarded, type ErrorReport } from '../util/guarded.js';
import { apiKeyDigest, digestBytesEqual } from './apiKeyCodec.js';
import { AddressMatcher } from './addressBlocks.js';
import type { SqlDatabase } from './sqlDatabase.js';
import type { ApiKeyCredential, ServiceStore } from './serviceStore.js';

export const DEFAULT_POLL_INTERVAL_MS = 1000;

/**
 * Where the database offers a change stamp (SQLite's files), a poll whose stamp has not moved asks
 * nothing of the database, except every this many polls: a safety net for a commit the stamp might
 * miss (the same size and a modification time within the file system's timestamp granularity).
 * Where its files are also watched (inotify), a poll with no change told does nothing at all, and every
 * this many such polls asks anyway (a safety net for a lost notification).
 */
export const FULL_POLL_EVERY = 30;

export interface AccessCacheOptions {
  database: Pick<SqlDatabase, 'dataVersion' | 'closed' | 'changeStamp' | 'watchChanges'>;
  store: ServiceStore;
  logger: Logger;
  pollIntervalMs?: number;
  /**
   * The daemon's once-a-second heartbeat: the poll rides every (pollIntervalMs / 1 s)-th tick of it
   * instead of an own timer, so an idle daemon does not wake for it separately.
   */
  ticks?: TickSource;
  /** For key expiry (rotation grace); defaults to the wall clock. */
  now?: () => number;
}

/** A key as the request path needs it: its digest already decoded, so a lookup decodes nothing. */
interface KnownKey {
  credential: ApiKeyCredential;
  digest: Buffer;
}

export class AccessCache {
  readonly #database: Pick<SqlDatabase, 'dataVersion' | 'closed' | 'changeStamp' | 'watchChanges'>;
  readonly #store: ServiceStore;
  readonly #logger: Logger;
  readonly #pollIntervalMs: number;
  readonly #ticks: TickSource | undefined;
  readonly #now: () => number;
  /** A failing database fails every poll (once a second): say so once a minute. */
  readonly #throttle: LogThrottle;
  readonly #reportReloadFailure: ErrorReport;
  #keysByHash = new Map<string, KnownKey>();
  #blocked = new AddressMatcher([]);
  #maintenance = false;
  #dataVersion: number | undefined;
  #stamp: string | undefined;
  #pollsSinceQuery = 0;
  /** The newest poll; the only one in flight, if any. */
  #polling: Promise<void> = Promise.resolve();
  #pollRunning = false;
  /** The database's files are watched: a poll asks only after a change was told (or as the safety net). */
  #unwatch: (() => void) | undefined;
  #changeTold = false;
  #quietPolls = 0;
  #timer: NodeJS.Timeout | undefined;
  #untick: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  #loading: Promise<void> | undefined;
  #reloadAgain = false;

  constructor(options: AccessCacheOptions) {
    this.#database = options.database;
    this.#store = options.store;
    this.#logger = options.logger.child({ module: 'access-cache' });
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.#ticks = options.ticks;
    this.#now = options.now ?? Date.now;
    this.#throttle = new LogThrottle(this.#logger);
    this.#reportReloadFailure = (err) =>
      this.#throttle.warn('reload', { err }, 'could not reload keys, blocked addresses and maintenance mode; keeping the last snapshot');
  }

  async start(): Promise<void> {
    await this.reload();
    this.#unsubscribe = this.#store.onChange(guarded(() => this.reload(), this.#reportReloadFailure));
    // Polls never overlap (a beat while one is in flight skips it), so the newest is every poll in flight.
    const poll = (): void => {
      if (!this.#pollRunning) this.#polling = runGuarded(() => this.#poll(), this.#reportReloadFailure);
    };
    if (this.#ticks) {
      this.#watchFiles();
      const every = Math.max(1, Math.round(this.#pollIntervalMs / CLOCK_CHECK_INTERVAL_MS));
      let ticks = 0;
      this.#untick = this.#ticks(() => {
        if (++ticks % every === 0 && this.#dueOnTick()) poll();
      });
      return;
    }
    this.#timer = setInterval(poll, this.#pollIntervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#untick?.();
    this.#untick = undefined;
    this.#stopWatching();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    await this.#polling;
    await this.#loading?.catch(() => undefined);
  }

  /** Settles when the poll in flight, if any, is done (its query, reload and second look included): stop() waits for it, tests read after it. */
  pollSettled(): Promise<void> {
    return this.#polling;
  }

  /**
   * The credential for a presented key, compared by digest in constant time. An expired key
   * (past its rotation grace or expiry date) is not found: the client hears "Invalid API key.".
   */
  lookupKey(presentedKey: string): ApiKeyCredential | undefined {
    const digest = apiKeyDigest(presentedKey);
    const candidate = this.#keysByHash.get(digest.toString('hex'));
    if (!candidate || !digestBytesEqual(candidate.digest, digest)) return undefined;
    const { credential } = candidate;
    if (credential.expiresAtMs !== null && this.#now() >= credential.expiresAtMs) return undefined;
    return credential;
  }

  isBlocked(clientAddress: string): boolean {
    return this.#blocked.matches(clientAddress);
  }

  get maintenance(): boolean {
    return this.#maintenance;
  }

  get keyCount(): number {
    return this.#keysByHash.size;
  }

  /** Reads everything again; concurrent calls coalesce into at most one extra read. */
  reload(): Promise<void> {
    if (this.#loading) {
      this.#reloadAgain = true;
      return this.#loading;
    }
    this.#loading = this.#load().finally(() => {
      this.#loading = undefined;
      if (this.#reloadAgain) {
        this.#reloadAgain = false;
        this.reload().catch(this.#reportReloadFailure);
      }
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    // Read the version first: a commit landing during the reads bumps it again and triggers one more reload.
    const version = await this.#database.dataVersion();
    const [credentials, blocks, maintenance] = await Promise.all([
      this.#store.credentials(),
      this.#store.listBlocks(),
      this.#store.isMaintenance(),
    ]);
    this.#keysByHash = new Map(
      credentials.map((credential) => [credential.keyHash, { credential, digest: Buffer.from(credential.keyHash, 'hex') }]),
    );
    this.#blocked = new AddressMatcher(blocks.map((block) => block.cidr));
    this.#maintenance = maintenance;
    this.#dataVersion = version;
    this.#logger.debug({ keys: this.#keysByHash.size, blocked: this.#blocked.size, maintenance }, 'access data loaded');
  }

  /** Watching the files (heartbeat only): the once-a-second poll then costs nothing while nothing changes. */
  #watchFiles(): void {
    this.#unwatch = this.#database.watchChanges?.(
      () => void (this.#changeTold = true),
      () => {
        this.#logger.info('the database directory can no longer be watched; checking its files every poll');
        this.#stopWatching();
      },
    );
  }

  #stopWatching(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /**
   * The safety-net poll of a watched database found its files moved with no change told. A write that
   * finished just before this timer has its notification queued but not yet read (timers run before the
   * loop reads its file descriptors), so look again after this turn's I/O: still nothing told means
   * notifications do not arrive here (e.g. a file system without them), and the files are checked every
   * poll from now on.
   */
  async #suspectLostNotifications(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!this.#unwatch || this.#changeTold) return;
    this.#logger.info('database changes were not notified; checking its files every poll');
    this.#stopWatching();
  }

  /** Whether this heartbeat's poll runs: always unless watching; when watching, after a told change or as the safety net. */
  #dueOnTick(): boolean {
    if (!this.#unwatch) return true;
    if (!this.#changeTold && ++this.#quietPolls < FULL_POLL_EVERY) return false;
    this.#quietPolls = 0;
    return true;
  }

  async #poll(): Promise<void> {
    if (this.#loading || this.#database.closed) return;
    this.#pollRunning = true;
    try {
      const told = this.#changeTold;
      this.#changeTold = false;
      // Stamp first: a commit landing between the stamp and the query moves the stamp for the next poll.
      const stamp = this.#database.changeStamp?.();
      const moved = stamp !== this.#stamp;
      const suspect = this.#unwatch && !told && moved && this.#stamp !== undefined ? this.#suspectLostNotifications() : undefined;
      if (!this.#unwatch && stamp !== undefined && !moved && ++this.#pollsSinceQuery < FULL_POLL_EVERY) return;
      this.#stamp = stamp;
      this.#pollsSinceQuery = 0;
      const version = await this.#database.dataVersion();
      if (version !== this.#dataVersion) await this.reload();
      await suspect;
    } catch (err) {
      this.#throttle.warn('poll', { err }, 'could not check the database for key or block changes; keeping the last snapshot');
    } finally {
      this.#pollRunning = false;
    }
  }
}
