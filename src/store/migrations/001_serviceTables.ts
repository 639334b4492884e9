import { firstServiceTablesSql } from '../serviceTables.js';
import type { Migration } from './migration.js';

/** API keys (hashed only), blocked client addresses and service settings (defined in ../serviceTables.ts). */
export const serviceTables: Migration = {
  version: 1,
  name: 'service tables: api_keys, blocked_addresses, settings',
  up: firstServiceTablesSql(),
};
