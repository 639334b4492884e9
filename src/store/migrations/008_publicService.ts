import { publicServiceTablesSql } from '../serviceTables.js';
import type { Migration } from './migration.js';

/**
 * The operator's side of a public service: registrations awaiting review,
 * per-key expiry (rotation grace) and quota, and per-key daily usage.
 * Claim tokens are stored as SHA-256 digests; an approved key waits sealed
 * to a key pair whose private half only the claim token opens
 * (src/publicService/keySealing.ts), so the database never holds a usable key. The
 * tables are defined once for SQLite and PostgreSQL in ../serviceTables.ts.
 */
export const publicService: Migration = {
  version: 8,
  name: 'public service: registrations, key expiry and quota, key usage',
  up: publicServiceTablesSql(),
};
