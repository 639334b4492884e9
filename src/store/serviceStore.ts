/**
 * API keys, blocked addresses and service settings in SQLite (migration 1).
 * Used by the daemon (read path, via AccessCache) and by the admin CLI
 * (writes, possibly from another process).
 */
import type { Clock } from '../util/clock.js';
import type { SqlDatabase } from './sqlDatabase.js';
import { generateApiKey, hashApiKey } from './apiKeyCodec.js';
import { normalizeBlockEntry } from './addressBlocks.js';

export const SETTING_MAINTENANCE = 'maintenance';
export const SETTING_MFI_VERSION = 'mfi_version';

export interface ApiKeyRecord {
  id: number;
  owner: string;
  createdAt: string;
  disabled: boolean;
  allowGet: boolean;
  note: string | null;
  /** After this instant the key is refused as unknown (rotation grace, expiry); null: never. */
  expiresAt: string | null;
  /** Calculation requests per day for this key; null: the configured keys.dailyQuota. */
  dailyQuota: number | null;
  /** Last authenticated use, as last written by the usage counter (up to keys.usageFlushSeconds behind). */
  lastUsedAt: string | null;
}

/** What the request path needs to authenticate: never the key itself. */
export interface ApiKeyCredential {
  id: number;
  owner: string;
  keyHash: string;
  disabled: boolean;
  allowGet: boolean;
  /** Epoch ms after which the key no longer works; null: never. */
  expiresAtMs: number | null;
  dailyQuota: number | null;
}

export interface NewApiKey {
  id: number;
  owner: string;
  /** The only moment the clear key exists; it is not stored. */
  key: string;
  allowGet: boolean;
}

export interface BlockedAddress {
  cidr: string;
  createdAt: string;
  note: string | null;
}

export interface HealthProbe {
  maintenance: boolean;
  mfiVersion: string | null;
}

interface ApiKeyRow {
  id: number;
  owner: string;
  key_hash: string;
  created_at: string;
  disabled: number;
  allow_get: number;
  note: string | null;
  expires_at: string | null;
  daily_quota: number | null;
  last_used_at: string | null;
}

export class InvalidOwnerError extends Error {}

const MAX_OWNER_LENGTH = 200;

export class ServiceStore {
  readonly #db: SqlDatabase;
  readonly #clock: Clock;
  readonly #listeners = new Set<() => void>();

  constructor(db: SqlDatabase, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /**
   * Called after every write through this store, and for changes elsewhere when the database
   * announces them (PostgreSQL's NOTIFY); SQLite's other processes are seen via PRAGMA data_version.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    const unsubscribe = this.#db.subscribe?.(listener);
    return () => {
      this.#listeners.delete(listener);
      unsubscribe?.();
    };
  }

  async addKey(owner: string, options: { allowGet?: boolean; note?: string } = {}): Promise<NewApiKey> {
    const trimmed = owner.trim();
    if (trimmed === '' || trimmed.length > MAX_OWNER_LENGTH) {
      throw new InvalidOwnerError(`owner must be 1 to ${MAX_OWNER_LENGTH} characters`);
    }
    const key = generateApiKey();
    const allowGet = options.allowGet ?? false;
    const { lastID } = await this.#db.run(
      'INSERT INTO api_keys (owner, key_hash, created_at, disabled, allow_get, note) VALUES (?, ?, ?, 0, ?, ?) RETURNING id',
      [trimmed, hashApiKey(key), this.#now(), allowGet ? 1 : 0, options.note ?? null],
    );
    this.#changed();
    return { id: lastID, owner: trimmed, key, allowGet };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.#db.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY id');
    return rows.map((row) => ({
      id: row.id,
      owner: row.owner,
      createdAt: row.created_at,
      disabled: row.disabled !== 0,
      allowGet: row.allow_get !== 0,
      note: row.note,
      expiresAt: row.expires_at,
      dailyQuota: row.daily_quota,
      lastUsedAt: row.last_used_at,
    }));
  }

  async credentials(): Promise<ApiKeyCredential[]> {
    const rows = await this.#db.all<ApiKeyRow>('SELECT id, owner, key_hash, disabled, allow_get, expires_at, daily_quota FROM api_keys');
    return rows.map((row) => ({
      id: row.id,
      owner: row.owner,
      keyHash: row.key_hash,
      disabled: row.disabled !== 0,
      allowGet: row.allow_get !== 0,
      expiresAtMs: row.expires_at === null ? null : Date.parse(row.expires_at),
      dailyQuota: row.daily_quota,
    }));
  }

  /**
   * A new key for the same owner, permissions and quota; the old one keeps
   * working until `graceMs` from now (then it is refused like an unknown key).
   * Returns undefined when no key has this id.
   */
  async rotateKey(id: number, graceMs: number): Promise<(NewApiKey & { oldKeyExpiresAt: string }) | undefined> {
    const created = await this.#db.transaction(async (db) => {
      const old = await db.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
      if (!old) return undefined;
      const key = generateApiKey();
      const { lastID } = await db.run(
        'INSERT INTO api_keys (owner, key_hash, created_at, disabled, allow_get, note, daily_quota) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
        [old.owner, hashApiKey(key), this.#now(), old.disabled, old.allow_get, `rotated from key ${id}`, old.daily_quota],
      );
      const graceEnd = new Date(this.#clock.now() + graceMs).toISOString();
      // An earlier expiry stays: rotating never lengthens a key's life.
      const oldKeyExpiresAt = old.expires_at !== null && old.expires_at < graceEnd ? old.expires_at : graceEnd;
      await db.run('UPDATE api_keys SET expires_at = ? WHERE id = ?', [oldKeyExpiresAt, id]);
      return { id: lastID, owner: old.owner, key, allowGet: old.allow_get !== 0, oldKeyExpiresAt };
    });
    if (created) this.#changed();
    return created;
  }

  /** Sets (ISO 8601 instant) or clears (null) a key's expiry. */
  setKeyExpiry(id: number, expiresAt: string | null): Promise<boolean> {
    return this.#updateKey('UPDATE api_keys SET expires_at = ? WHERE id = ?', [expiresAt, id]);
  }

  /** Sets a key's own daily quota (0: unlimited) or returns it to the configured default (null). */
  setKeyQuota(id: number, dailyQuota: number | null): Promise<boolean> {
    return this.#updateKey('UPDATE api_keys SET daily_quota = ? WHERE id = ?', [dailyQuota, id]);
  }

  /** Returns false when no key has this id. */
  setKeyDisabled(id: number, disabled: boolean): Promise<boolean> {
    return this.#updateKey('UPDATE api_keys SET disabled = ? WHERE id = ?', [disabled ? 1 : 0, id]);
  }

  setKeyAllowGet(id: number, allowGet: boolean): Promise<boolean> {
    return this.#updateKey('UPDATE api_keys SET allow_get = ? WHERE id = ?', [allowGet ? 1 : 0, id]);
  }

  removeKey(id: number): Promise<boolean> {
    return this.#updateKey('DELETE FROM api_keys WHERE id = ?', [id]);
  }

  /** Blocks an address or range; returns its canonical form and whether it was new. */
  async blockAddress(text: string, note?: string): Promise<{ cidr: string; added: boolean }> {
    const cidr = normalizeBlockEntry(text);
    const { changes } = await this.#db.run(
      'INSERT INTO blocked_addresses (cidr, created_at, note) VALUES (?, ?, ?) ON CONFLICT (cidr) DO NOTHING',
      [cidr, this.#now(), note ?? null],
    );
    if (changes > 0) this.#changed();
    return { cidr, added: changes > 0 };
  }

  async unblockAddress(text: string): Promise<{ cidr: string; removed: boolean }> {
    const cidr = normalizeBlockEntry(text);
    const { changes } = await this.#db.run('DELETE FROM blocked_addresses WHERE cidr = ?', [cidr]);
    if (changes > 0) this.#changed();
    return { cidr, removed: changes > 0 };
  }

  async listBlocks(): Promise<BlockedAddress[]> {
    const rows = await this.#db.all<{ cidr: string; created_at: string; note: string | null }>(
      'SELECT cidr, created_at, note FROM blocked_addresses ORDER BY created_at, cidr',
    );
    return rows.map((row) => ({ cidr: row.cidr, createdAt: row.created_at, note: row.note }));
  }

  async getSetting(key: string): Promise<string | undefined> {
    const row = await this.#db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key]);
    return row?.value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.#db.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
      key,
      value,
    ]);
    this.#changed();
  }

  async isMaintenance(): Promise<boolean> {
    return (await this.getSetting(SETTING_MAINTENANCE)) === 'on';
  }

  setMaintenance(active: boolean): Promise<void> {
    return this.setSetting(SETTING_MAINTENANCE, active ? 'on' : 'off');
  }

  /** One real query for the health check: maintenance flag and mfi_version together. */
  async healthProbe(): Promise<HealthProbe> {
    const problem = this.#db.problem();
    if (problem) throw new Error(problem);
    const rows = await this.#db.all<{ key: string; value: string }>('SELECT key, value FROM settings WHERE key IN (?, ?)', [
      SETTING_MAINTENANCE,
      SETTING_MFI_VERSION,
    ]);
    const values = new Map(rows.map((row) => [row.key, row.value]));
    return { maintenance: values.get(SETTING_MAINTENANCE) === 'on', mfiVersion: values.get(SETTING_MFI_VERSION) ?? null };
  }

  async #updateKey(sql: string, params: readonly unknown[]): Promise<boolean> {
    const { changes } = await this.#db.run(sql, params);
    if (changes > 0) this.#changed();
    return changes > 0;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
