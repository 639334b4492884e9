/**
 * What the daemon's components share: config, logger and clock from the
 * start, and what earlier components provide (database, store, access cache,
 * HTTP address) once those have started.
 */
import type { Logger } from 'pino';
import type { AppConfig } from './config/schema.js';
import type { AccessCache } from './store/accessCache.js';
import type { Database } from './store/database.js';
import type { ServiceStore } from './store/serviceStore.js';
import type { SqlDatabase } from './store/sqlDatabase.js';
import type { Clock, MonotonicClock } from './util/clock.js';
import type { ClockWatch } from './util/clockWatch.js';

/** What components share. Getters throw when read before the providing component started. */
export interface DaemonRuntime {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The local SQLite file (station histories, MQTT state; the service tables too with store.kind sqlite). */
  readonly database: Database;
  /** Where the service tables live: `database`, or PostgreSQL with store.kind postgres. */
  readonly serviceDatabase: SqlDatabase;
  readonly store: ServiceStore;
  readonly access: AccessCache;
  /** e.g. "http://127.0.0.1:8080"; set once the HTTP component listens. */
  readonly httpAddress: string;
  /** Clock-step detection and NTP synchronisation (undefined when a test drives the clock). */
  readonly clockWatch?: ClockWatch | undefined;
  /** The clock watch's monotonic clock (undefined with it). */
  readonly monotonic?: MonotonicClock | undefined;
}

/** The composition root's runtime: each providing component sets its value once it started. */
export class MutableRuntime implements DaemonRuntime {
  #database?: Database;
  #serviceDatabase?: SqlDatabase;
  #store?: ServiceStore;
  #access?: AccessCache;
  #httpAddress?: string;

  constructor(
    readonly config: AppConfig,
    readonly logger: Logger,
    readonly clock: Clock,
    readonly clockWatch?: ClockWatch,
    readonly monotonic?: MonotonicClock,
  ) {}

  get database(): Database {
    return required(this.#database, 'database');
  }
  set database(value: Database) {
    this.#database = value;
  }
  get serviceDatabase(): SqlDatabase {
    return required(this.#serviceDatabase, 'service database');
  }
  set serviceDatabase(value: SqlDatabase) {
    this.#serviceDatabase = value;
  }
  get store(): ServiceStore {
    return required(this.#store, 'store');
  }
  set store(value: ServiceStore) {
    this.#store = value;
  }
  get access(): AccessCache {
    return required(this.#access, 'access cache');
  }
  set access(value: AccessCache) {
    this.#access = value;
  }
  get httpAddress(): string {
    return required(this.#httpAddress, 'HTTP address');
  }
  set httpAddress(value: string) {
    this.#httpAddress = value;
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not available before its component has started`);
  return value;
}

