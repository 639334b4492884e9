/**
 * The service tables in PostgreSQL: the same definitions as SQLite's migrations 1
 * and 8 (src/store/serviceTables.ts), so the stores' SQL runs on both, plus the
 * triggers that announce changes to keys, blocks and settings on the channel
 * every instance listens to (NOTIFY is delivered at commit, once per
 * transaction and payload). Applied in order under an advisory lock, so
 * instances starting together migrate once. A SQLite migration that changes a
 * service table needs a PostgreSQL one here: test/publicService/postgresSchemaParity.test.ts
 * compares both stores' columns after migrating.
 */
import type { Migration } from '../../store/migrations/migration.js';
import { postgresServiceTablesSql } from '../../store/serviceTables.js';

/** The LISTEN/NOTIFY channel of key, block and settings changes. */
export const CHANGE_CHANNEL = 'mowability_access_changed';

const serviceTables: Migration = {
  version: 1,
  name: 'service tables: api_keys, blocked_addresses, settings, registrations, key_usage',
  up: postgresServiceTablesSql(),
};

const changeNotifications: Migration = {
  version: 2,
  name: 'NOTIFY on key, block and settings changes',
  up: `
    CREATE FUNCTION mowability_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME);
      RETURN NULL;
    END;
    $$;
    -- last_used_at changes with every usage flush and means nothing to the access cache.
    CREATE TRIGGER api_keys_changed AFTER INSERT OR DELETE OR TRUNCATE
      OR UPDATE OF owner, key_hash, disabled, allow_get, expires_at, daily_quota
      ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION mowability_notify_change();
    CREATE TRIGGER blocked_addresses_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON blocked_addresses FOR EACH STATEMENT EXECUTE FUNCTION mowability_notify_change();
    CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON settings FOR EACH STATEMENT EXECUTE FUNCTION mowability_notify_change();
  `,
};

export const PG_MIGRATIONS: readonly Migration[] = [serviceTables, changeNotifications];
