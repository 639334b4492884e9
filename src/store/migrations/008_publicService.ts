import type { Migration } from './migration.js';

/**
 * The operator's side of a public service: registrations awaiting review,
 * per-key expiry (rotation grace) and quota, and per-key daily usage.
 * Claim tokens are stored as SHA-256 digests; an approved key waits sealed
 * to a key pair whose private half only the claim token opens
 * (src/store/keySealing.ts), so the database never holds a usable key.
 */
export const publicService: Migration = {
  version: 8,
  name: 'public service: registrations, key expiry and quota, key usage',
  up: `
    CREATE TABLE registrations (
      id              INTEGER PRIMARY KEY AUTOINCREMENT,
      name            TEXT    NOT NULL,
      email           TEXT    NOT NULL,
      intended_use    TEXT    NOT NULL,
      usage_kind      TEXT    NOT NULL CHECK (usage_kind IN ('private', 'commercial')),
      client_address  TEXT    NOT NULL,
      status          TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'claimed')),
      claim_hash      TEXT    NOT NULL UNIQUE,
      created_at      TEXT    NOT NULL,
      expires_at      TEXT    NOT NULL,
      decided_at      TEXT,
      reason          TEXT,
      note            TEXT,
      key_id          INTEGER REFERENCES api_keys (id) ON DELETE SET NULL,
      seal_public     TEXT,
      seal_private    TEXT,
      sealed_key      TEXT
    );
    CREATE INDEX registrations_status ON registrations (status, created_at);
    ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
    ALTER TABLE api_keys ADD COLUMN daily_quota INTEGER;
    ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
    CREATE TABLE key_usage (
      key_id    INTEGER NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      day       TEXT    NOT NULL,
      requests  INTEGER NOT NULL,
      PRIMARY KEY (key_id, day)
    ) WITHOUT ROWID;
  `,
};
