/**
 * Per-key usage: requests per calendar day (in the configured time zone) and
 * the last use, counted in memory on the request path and written in one
 * transaction every keys.usageFlushSeconds and on stop — never a write per
 * request (SD cards; one commit per interval at most). The same counts
 * enforce the optional daily quota. The writes are increments, so several
 * instances on one PostgreSQL store sum up; after each write today's shared
 * totals are read again, and each instance enforces the quota from that total
 * plus what it counted since (overshoot: at most N instances × the requests of
 * one flush interval; docs/deployment.md). On the daemon's own SQLite file with
 * a station history driving commits (src/store/sharedCommit.ts) the counts go into the
 * history's next commit instead of a commit of their own (one daemon per file,
 * so nothing to re-read); the final write on stop still commits at once.
 */
import type { Logger } from 'pino';
import { CalendarDayClock } from '../util/calendarDay.js';
import type { ClockStep } from '../util/clockWatch.js';
import type { Database } from '../store/database.js';
import type { SharedCommit, StagedRows } from '../store/sharedCommit.js';
import type { SqlDatabase } from '../store/sqlDatabase.js';
import type { ApiKeyCredential } from '../store/serviceStore.js';
import type { Admission } from '../http/auth.js';
import { OwnDayCounts } from './usageDays.js';

export interface KeyUsageOptions {
  database: SqlDatabase;
  logger: Logger;
  timeZone: string;
  /** keys.dailyQuota: the quota of keys without their own (0: none). */
  defaultDailyQuota: number;
  flushIntervalMs: number;
}

/**
 * What both quota modes share: the options, the calendar day, this instance's own counts for a
 * clock step (./usageDays.ts), the last use per key, the write timer and the refusal's Retry-After.
 * The shared mode (KeyUsage below) counts in memory; the exact one (./exactKeyUsage.ts) in the row.
 */
export abstract class KeyUsageBase {
  protected readonly db: SqlDatabase;
  protected readonly log: Logger;
  protected readonly days: CalendarDayClock;
  protected readonly own = new OwnDayCounts();
  /** The last use per key since the last write. */
  protected lastUsed = new Map<number, number>();
  readonly #defaultQuota: number;
  readonly #flushIntervalMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: KeyUsageOptions) {
    this.db = options.database;
    this.log = options.logger.child({ module: 'key-usage' });
    this.#defaultQuota = options.defaultDailyQuota;
    this.#flushIntervalMs = options.flushIntervalMs;
    this.days = new CalendarDayClock(options.timeZone);
  }

  /** Writes what waits to be written (every keys.usageFlushSeconds and on stop). */
  abstract flush(): Promise<void>;

  async stop(): Promise<void> {
    this.stopFlushing();
    await this.flush();
  }

  protected stopFlushing(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  protected startFlushing(): void {
    this.#timer = setInterval(() => void this.flush(), this.#flushIntervalMs);
    this.#timer.unref();
  }

  /** The key's own quota, else keys.dailyQuota (0: none). */
  protected quotaOf(credential: ApiKeyCredential): number {
    return credential.dailyQuota ?? this.#defaultQuota;
  }

  /** Quota used up: retry when the calendar day ends. */
  protected refused(quota: number, dayEndMs: number, nowMs: number): Admission {
    return { ok: false, quota, retryAfterSeconds: Math.max(1, Math.ceil((dayEndMs - nowMs) / 1000)) };
  }

  protected loggedMove(moved: { from: string; to: string; counts: ReadonlyMap<number, number> }): void {
    this.log.info(
      { from: moved.from, to: moved.to, keys: moved.counts.size },
      "the clock stepped to another day: this instance's key usage of the day moves with it (quotas neither reset nor granted twice)",
    );
  }
}

export class KeyUsage extends KeyUsageBase {
  /** Today's requests per key (stored plus unwritten). */
  #today = new Map<number, number>();
  #day = '';
  /** Counted since the last write: key → day → requests. */
  #pending = new Map<number, Map<string, number>>();
  #writing: Promise<void> = Promise.resolve();
  /** The daemon's SQLite connection's shared commit (keys.quotaMode shared, no PostgreSQL), else undefined. */
  readonly #shared: SharedCommit<Database> | undefined;

  constructor(options: KeyUsageOptions & { sharedCommit?: SharedCommit<Database> | undefined }) {
    super(options);
    this.#shared = options.sharedCommit;
    this.#shared?.join({ take: () => this.#take() });
  }

  async start(nowMs: number): Promise<void> {
    await this.#loadDay(this.days.at(nowMs).day);
    this.startFlushing();
  }

  async #loadDay(day: string): Promise<void> {
    const rows = await this.db.all<{ key_id: number; requests: number }>('SELECT key_id, requests FROM key_usage WHERE day = ?', [day]);
    const today = new Map(rows.map((row) => [row.key_id, row.requests]));
    // Counted while the read ran stays counted.
    for (const [keyId, days] of this.#pending) {
      const unwritten = days.get(day);
      if (unwritten) today.set(keyId, (today.get(keyId) ?? 0) + unwritten);
    }
    this.#today = today;
    this.#day = day;
  }

  /** Counts one authenticated request, or refuses it when the key's quota for today is used up. */
  admit(credential: ApiKeyCredential, nowMs: number): Admission {
    const { day, endMs } = this.days.at(nowMs);
    // A new day starts from zero; yesterday's counts are already in #pending for the next write.
    if (day !== this.#day) {
      this.#today = new Map();
      this.#day = day;
    }
    const quota = this.quotaOf(credential);
    const used = this.#today.get(credential.id) ?? 0;
    if (quota > 0 && used >= quota) return this.refused(quota, endMs, nowMs);
    this.#today.set(credential.id, used + 1);
    // The first count since the last write asks a driving history writer for its next commit.
    if (this.#pending.size === 0) this.#shared?.staged();
    let days = this.#pending.get(credential.id);
    if (!days) this.#pending.set(credential.id, (days = new Map<string, number>()));
    days.set(day, (days.get(day) ?? 0) + 1);
    this.own.count(day, credential.id, nowMs);
    this.lastUsed.set(credential.id, nowMs);
    return { ok: true };
  }

  /**
   * The wall clock stepped to another day: what this instance counted on its usage day moves to
   * the day the clock shows now (./usageDays.ts), written at once with the next totals read.
   */
  clockStepped(step: ClockStep): Promise<void> {
    const to = this.days.at(step.atMs).day;
    const moved = this.own.clockStepped(step, to);
    if (!moved) return Promise.resolve();
    if (this.#day !== to) {
      this.#day = to;
      this.#today = new Map();
    }
    for (const [keyId, requests] of moved.counts) {
      let days = this.#pending.get(keyId);
      if (!days) this.#pending.set(keyId, (days = new Map<string, number>()));
      days.set(moved.from, (days.get(moved.from) ?? 0) - requests);
      days.set(to, (days.get(to) ?? 0) + requests);
      this.#today.set(keyId, (this.#today.get(keyId) ?? 0) + requests);
    }
    this.loggedMove(moved);
    return this.flush();
  }

  /**
   * Writes what was counted since the last write, in one transaction; nothing when nothing was
   * counted. With a history driving the shared commit, the counts wait for its next commit instead.
   */
  flush(): Promise<void> {
    return this.#queue(false);
  }

  /** The final write commits at once, whoever else still commits: no count waits for a writer that stops. */
  override async stop(): Promise<void> {
    this.stopFlushing();
    await this.#queue(true);
  }

  #queue(final: boolean): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write(final));
    return this.#writing;
  }

  async #write(final: boolean): Promise<void> {
    if (this.db.closed) return;
    if (this.#shared) {
      // A driving history writer commits the counts (#take); the final write does not wait for it.
      if (!final && this.#shared.staged()) return;
      if (!(await this.#commitShared())) return;
    } else if (this.#pending.size > 0 && !(await this.#writePending())) return;
    // Other instances count too: today's shared totals, plus what was counted here meanwhile.
    await this.#loadDay(this.#day).catch((err: unknown) =>
      this.log.warn({ err }, "could not read today's key usage; keeping the last totals"),
    );
  }

  /** No driver (or the final write): the counts, and whatever other writers staged, in a commit of their own. False when it failed. */
  async #commitShared(): Promise<boolean> {
    try {
      await this.#shared?.commit();
      return true;
    } catch (err) {
      this.log.warn({ err }, 'could not write key usage; keeping the counts for the next attempt');
      return false;
    }
  }

  /** The shared commit takes the counts (given back if it fails). */
  #take(): StagedRows<Database> | undefined {
    if (this.#pending.size === 0) return undefined;
    const pending = this.#pending;
    const lastUsed = this.lastUsed;
    this.#pending = new Map();
    this.lastUsed = new Map();
    return { write: (db) => writeCounts(db, pending, lastUsed), restore: () => this.#restore(pending, lastUsed) };
  }

  /** False when the write failed (the counts are kept for the next attempt). */
  async #writePending(): Promise<boolean> {
    const pending = this.#pending;
    const lastUsed = this.lastUsed;
    this.#pending = new Map();
    this.lastUsed = new Map();
    try {
      await this.db.transaction((db) => writeCounts(db, pending, lastUsed));
    } catch (err) {
      this.#restore(pending, lastUsed);
      this.log.warn({ err }, 'could not write key usage; keeping the counts for the next attempt');
      return false;
    }
    return true;
  }

  /** Counts that failed to be written go back, merged with those counted meanwhile (never lost). */
  #restore(pending: Map<number, Map<string, number>>, lastUsed: Map<number, number>): void {
    for (const [keyId, days] of pending) {
      const into = this.#pending.get(keyId) ?? new Map<string, number>();
      for (const [day, requests] of days) into.set(day, (into.get(day) ?? 0) + requests);
      this.#pending.set(keyId, into);
    }
    for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
  }
}

/** Increments, so several instances on one store sum up. */
async function writeCounts(db: SqlDatabase, pending: Map<number, Map<string, number>>, lastUsed: Map<number, number>): Promise<void> {
  // In key order: two instances writing the same keys then lock their rows in the same order (no deadlock).
  for (const [keyId, days] of [...pending].sort(([a], [b]) => a - b)) {
    for (const [day, requests] of days) {
      if (requests === 0) continue;
      // A key removed meanwhile has no row to count against (foreign key): skip it.
      await db.run(
        `INSERT INTO key_usage (key_id, day, requests) SELECT CAST(? AS INTEGER), ?, CAST(? AS INTEGER) WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?)
         ON CONFLICT (key_id, day) DO UPDATE SET requests = key_usage.requests + excluded.requests`,
        [keyId, day, requests, keyId],
      );
    }
    const at = lastUsed.get(keyId);
    if (at !== undefined) await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [new Date(at).toISOString(), keyId]);
  }
}
