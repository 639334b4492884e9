import type { Migration } from './migration.js';

/** API keys (hashed only), blocked client addresses and service settings. */
export const serviceTables: Migration = {
  version: 1,
  name: 'service tables: api_keys, blocked_addresses, settings',
  up: `
    CREATE TABLE api_keys (
      id          INTEGER PRIMARY KEY AUTOINCREMENT,
      owner       TEXT    NOT NULL,
      key_hash    TEXT    NOT NULL UNIQUE,
      created_at  TEXT    NOT NULL,
      disabled    INTEGER NOT NULL DEFAULT 0,
      allow_get   INTEGER NOT NULL DEFAULT 0,
      note        TEXT
    );
    CREATE TABLE blocked_addresses (
      cidr        TEXT    PRIMARY KEY,
      created_at  TEXT    NOT NULL,
      note        TEXT
    );
    CREATE TABLE settings (
      key         TEXT    PRIMARY KEY,
      value       TEXT    NOT NULL
    );
  `,
};
