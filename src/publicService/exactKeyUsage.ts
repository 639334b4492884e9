/**
 * keys.quotaMode exact: every authenticated request is one atomic
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE requests < quota RETURNING`
 * against the shared key_usage row, so the quota holds exactly across any
 * number of instances (no overshoot) at the cost of a write per request.
 * Keys without a quota are counted the same way. The last use is written
 * every keys.usageFlushSeconds, as in the shared mode (./keyUsage.ts).
 */
import type { ClockStep } from '../util/clockWatch.js';
import type { Admission } from '../http/auth.js';
import { KeyUsageBase } from './keyUsage.js';
import type { ApiKeyCredential } from '../store/serviceStore.js';
import { moveUsage } from './usageDays.js';

const COUNT_ONE = `
  INSERT INTO key_usage (key_id, day, requests) SELECT CAST(? AS INTEGER), ?, 1 WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?)
  ON CONFLICT (key_id, day) DO UPDATE SET requests = key_usage.requests + 1 WHERE CAST(? AS INTEGER) = 0 OR key_usage.requests < CAST(? AS INTEGER)
  RETURNING requests`;

export class ExactKeyUsage extends KeyUsageBase {
  start(): Promise<void> {
    this.startFlushing();
    return Promise.resolve();
  }

  /** Counts the request in the shared row, or refuses it when that row says today's quota is used up. */
  async admit(credential: ApiKeyCredential, nowMs: number): Promise<Admission> {
    const { day, endMs } = this.days.at(nowMs);
    const quota = this.quotaOf(credential);
    const row = await this.db.get<{ requests: number }>(COUNT_ONE, [credential.id, day, credential.id, quota, quota]);
    // No row: the update's condition failed (quota used up), or the key was removed meanwhile (not counted).
    if (row === undefined && quota > 0) return this.refused(quota, endMs, nowMs);
    if (row !== undefined) this.own.count(day, credential.id, nowMs);
    this.lastUsed.set(credential.id, nowMs);
    return { ok: true };
  }

  /** The wall clock stepped to another day: this instance's counts of its usage day move there (./usageDays.ts). */
  async clockStepped(step: ClockStep): Promise<void> {
    const moved = this.own.clockStepped(step, this.days.at(step.atMs).day);
    if (!moved) return;
    try {
      await moveUsage(this.db, moved);
      this.loggedMove(moved);
    } catch (err) {
      this.log.warn({ err }, 'could not move the key usage to the day the stepped clock shows; quotas may be off until midnight');
    }
  }

  /** Writes the last use of the keys used since the last write. */
  async flush(): Promise<void> {
    if (this.lastUsed.size === 0 || this.db.closed) return;
    const lastUsed = this.lastUsed;
    this.lastUsed = new Map();
    try {
      await this.db.transaction(async (db) => {
        for (const [keyId, at] of [...lastUsed].sort(([a], [b]) => a - b)) {
          await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [new Date(at).toISOString(), keyId]);
        }
      });
    } catch (err) {
      for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
      this.log.warn({ err }, "could not write the keys' last use; keeping it for the next attempt");
    }
  }
}
